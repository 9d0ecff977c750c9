import { z } from 'zod';
import { defineTool } from '../define.ts';
import { cursorSchema, limitSchema } from '../schema.ts';
import { listShares, resolveShareTarget } from '../../services/shares.ts';
import { paginate, readCursor } from '../../cursor.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { paginationView } from '../views.ts';
import { itemsUnderCap } from '../cap-lines.ts';
import { shareLine, shareView, toShareView } from './share-view.ts';

export const listSharesTool = defineTool({
  name: 'list_shares',
  title: 'List shares',
  category: 'share',
  description:
    'Live shares: with target (a binding, set or space you own), the shares of it; with incoming: true, those given to you, pending first (accepted: false; accept: create_share {accept: id}; decline: revoke_share {id}); with neither, the shares you made and those given to you. Each has its id for revoke_share.',
  aliases: ['who has access', 'permissions', 'shared with me', 'pending invitations'],
  input: z
    .strictObject({
      target: z.string().min(1).max(80).optional().describe('a binding, set or space you own'),
      incoming: z.boolean().optional(),
      limit: limitSchema(100, 50),
      cursor: cursorSchema().optional(),
    })
    .refine((a) => !(a.target !== undefined && a.incoming), { message: 'give target or incoming: true, not both', path: ['incoming'] }),
  output: z.object({ shares: z.array(shareView), pagination: paginationView }),
  bound: { kind: 'items', maxItems: 100, itemTokens: 50 },
  annotations: { readOnlyHint: true },
  async handler(args, ctx) {
    const target = args.target ? await resolveShareTarget(ctx, ctx.caller, args.target) : undefined;
    const scope = `shares:${target?.id ?? (args.incoming ? 'in' : '*')}:${args.limit}`;
    const offset = await readCursor(ctx.db, args.cursor, scope);
    const { rows, total, pending } = await listShares(ctx, ctx.caller, { target, incoming: args.incoming }, offset, args.limit);
    const all = rows.map(toShareView);
    const pieces: Piece[] = [line(`## ${total} live share${total === 1 ? '' : 's'}${whose(target?.label, args.incoming, pending)}`)];
    const kept = itemsUnderCap(pieces, all.map(shareLine), ctx);
    const shares = all.slice(0, kept.length);
    pieces.push(...kept);
    const pagination = await paginate(ctx.db, scope, offset, shares.length, total);
    if (pagination.hasMore) pieces.push(line(`More: call again with cursor "${pagination.nextCursor}".`));
    return { pieces, data: { shares, pagination }, meta: { pagination } };
  },
});

/** The listing's heading after the count; for incoming shares, how to answer the pending ones. */
function whose(targetLabel: string | undefined, incoming: boolean | undefined, pending: number): string {
  if (targetLabel) return ` of ${targetLabel.replace(/\s+/g, ' ')}`;
  if (!incoming) return ' made by you or given to you';
  return ` given to you${pending ? `, ${pending} pending (accept: create_share {accept: id}; decline: revoke_share {id})` : ''}`;
}
