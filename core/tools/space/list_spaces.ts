import { z } from 'zod';
import { defineTool } from '../define.ts';
import { cursorSchema, limitSchema } from '../schema.ts';
import { listSpaces } from '../../services/spaces.ts';
import { paginate, readCursor } from '../../cursor.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { paginationView } from '../views.ts';
import { itemsUnderCap } from '../cap-lines.ts';

const spaceItem = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  visibility: z.enum(['private', 'public']),
  personal: z.boolean(),
  owner: z.string(),
  access: z.enum(['owner', 'read', 'comment']),
  bindingCount: z.number(),
});

export const listSpacesTool = defineTool({
  name: 'list_spaces',
  title: 'List spaces',
  category: 'space',
  description:
    "Spaces you own (your personal space first) and spaces shared with you that you accepted, with visibility, your access and binding count. Pass a space's slug (@slug) or id as `space` to other tools.",
  aliases: ['namespaces', 'workspaces', 'where can I write'],
  input: z.strictObject({ limit: limitSchema(100, 50), cursor: cursorSchema().optional() }),
  output: z.object({ spaces: z.array(spaceItem), pagination: paginationView }),
  bound: { kind: 'items', maxItems: 100, itemTokens: 40 },
  annotations: { readOnlyHint: true },
  async handler(args, ctx) {
    const scope = `spaces:${args.limit}`;
    const offset = await readCursor(ctx.db, args.cursor, scope);
    const { rows, total } = await listSpaces(ctx, ctx.caller, offset, args.limit);
    const all = rows.map((r) => ({
      id: r.id,
      slug: `@${r.slug}`,
      name: r.name,
      visibility: r.visibility,
      personal: r.personal,
      owner: `@${r.ownerHandle}`,
      access: r.access,
      bindingCount: r.bindingCount,
    }));
    const pieces: Piece[] = [line(`## ${total} space${total === 1 ? '' : 's'}`)];
    const lines = all.map((s) => {
      const whose = s.access === 'owner' ? (s.personal ? 'yours, personal' : 'yours') : `shared by ${s.owner} (${s.access})`;
      return line(
        `- ${s.slug} · ${s.id} · "${s.name.replace(/\s+/g, ' ')}" · ${s.visibility} · ${whose} · ${s.bindingCount} binding${s.bindingCount === 1 ? '' : 's'}`,
      );
    });
    const kept = itemsUnderCap(pieces, lines, ctx);
    const spaces = all.slice(0, kept.length);
    pieces.push(...kept);
    const pagination = await paginate(ctx.db, scope, offset, spaces.length, total);
    if (pagination.hasMore) pieces.push(line(`More: call again with cursor "${pagination.nextCursor}".`));
    return { pieces, data: { spaces, pagination }, meta: { pagination } };
  },
});
