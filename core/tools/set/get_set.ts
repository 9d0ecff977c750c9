import { z } from 'zod';
import { defineTool } from '../define.ts';
import { cursorSchema, limitSchema, setId } from '../schema.ts';
import { readSet, setContents } from '../../services/sets.ts';
import { paginate, readCursor } from '../../cursor.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { paginationView } from '../views.ts';
import { itemsUnderCap } from '../cap-lines.ts';
import { itemLines, setItemView, setLine, setView, skippedLine, skippedView, toSetView } from './set-view.ts';

/** Items per page: 200 item lines (names up to 200 characters) stay well under the response cap. */
const GET_SET_PAGE = 200;

export const getSetTool = defineTool({
  name: 'get_set',
  title: 'Get set',
  category: 'set',
  description:
    "A set's items in order (0-based positions): id, name, version (pinned or latest) and the stored cost of each at tiers 1/1.5/2, plus totalTokenCount. Cheap: no content. To load the content itself under a budget, use get_set_context.",
  aliases: ['show set', 'open collection', 'set items'],
  input: z.strictObject({ id: setId(), limit: limitSchema(GET_SET_PAGE, 100), cursor: cursorSchema().optional() }),
  output: z.object({ set: setView, items: z.array(setItemView), skipped: z.array(skippedView), pagination: paginationView }),
  bound: { kind: 'items', maxItems: GET_SET_PAGE, itemTokens: 90 },
  annotations: { readOnlyHint: true },
  async handler(args, ctx) {
    const set = await readSet(ctx, ctx.caller, args.id);
    const contents = await setContents(ctx, ctx.caller, set);
    const view = toSetView(set, contents);
    const scope = `set:${set.id}:${args.limit}`;
    const offset = await readCursor(ctx.db, args.cursor, scope);
    const lines = itemLines(contents.items.slice(offset, offset + args.limit));
    const pieces: Piece[] = [line(`## Set "${set.name.replace(/\s+/g, ' ')}"`), setLine(view)];
    if (set.description) pieces.push(line(set.description.replace(/\s+/g, ' ')));
    const skipped = skippedLine(contents.skipped, set.spaceOwnerId === ctx.caller.id);
    const kept = itemsUnderCap(
      [...pieces, ...skipped],
      lines.map((p) => p.piece),
      ctx,
    );
    const page = lines.slice(0, kept.length);
    const pagination = await paginate(ctx.db, scope, offset, page.length, contents.items.length);
    pieces.push(...kept);
    if (contents.items.length === 0) pieces.push(line('No items. edit_set_items adds bindings.'));
    pieces.push(...skipped);
    if (pagination.hasMore) pieces.push(line(`More: call again with cursor "${pagination.nextCursor}".`));
    return {
      pieces,
      data: { set: view, items: page.map((p) => p.view), skipped: contents.skipped, pagination },
      meta: { pagination },
    };
  },
});
