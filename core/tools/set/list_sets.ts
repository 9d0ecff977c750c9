import { z } from 'zod';
import { defineTool } from '../define.ts';
import { cursorSchema, limitSchema, spaceRef } from '../schema.ts';
import { listSets } from '../../services/sets.ts';
import { resolveSpace } from '../../services/bindings.ts';
import { paginate, readCursor } from '../../cursor.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { paginationView } from '../views.ts';
import { itemsUnderCap } from '../cap-lines.ts';
import { setLine, setView } from './set-view.ts';

export const listSetsTool = defineTool({
  name: 'list_sets',
  title: 'List sets',
  category: 'set',
  description:
    "Sets you can read, most recently updated first: without space, those in your spaces and those shared with you (once accepted); with space, that space's. Each with its item count and totalTokenCount (and cost per tier) so you can budget get_set_context.",
  aliases: ['collections', 'reading lists', 'my sets'],
  input: z.strictObject({ space: spaceRef().optional(), limit: limitSchema(100, 20), cursor: cursorSchema().optional() }),
  output: z.object({ sets: z.array(setView), pagination: paginationView }),
  bound: { kind: 'items', maxItems: 100, itemTokens: 60 },
  annotations: { readOnlyHint: true },
  async handler(args, ctx) {
    const space = args.space ? await resolveSpace(ctx, ctx.caller, args.space) : undefined;
    const scope = `sets:${space?.id ?? '*'}:${args.limit}`;
    const offset = await readCursor(ctx.db, args.cursor, scope);
    const { rows, total } = await listSets(ctx, ctx.caller, { spaceId: space?.id, offset, limit: args.limit });
    const all = rows.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      space: `@${r.spaceSlug}`,
      itemCount: r.itemCount,
      totalTokenCount: r.totalTokenCount,
      tierTokens: r.tierTokens,
      updatedAt: new Date(r.updatedAt).toISOString(),
    }));
    const pieces: Piece[] = [
      line(`## ${total} set${total === 1 ? '' : 's'}${space ? ` in @${space.slug}` : ''}${offset ? ` (from #${offset + 1})` : ''}`),
    ];
    const kept = itemsUnderCap(
      pieces,
      all.map((s) => line(`- ${setLine(s).text}`)),
      ctx,
    );
    const sets = all.slice(0, kept.length);
    pieces.push(...kept);
    const pagination = await paginate(ctx.db, scope, offset, sets.length, total);
    if (total === 0) pieces.push(line('No sets. create_set makes one.'));
    if (pagination.hasMore) pieces.push(line(`More: call again with cursor "${pagination.nextCursor}".`));
    return { pieces, data: { sets, pagination }, meta: { pagination } };
  },
});
