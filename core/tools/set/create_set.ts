import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingId, name, spaceRef, text } from '../schema.ts';
import { createSet, MAX_SET_ITEMS, setContents } from '../../services/sets.ts';
import { line } from '../../tokens/doc.ts';
import { setLine, setView, toSetView } from './set-view.ts';

export const createSetTool = defineTool({
  name: 'create_set',
  title: 'Create set',
  category: 'set',
  description: `Create a set: an ordered, named list of bindings (a curated context you can load later in one call with get_set_context). Optionally give the first bindingIds in order (at most ${MAX_SET_ITEMS}); items follow each binding's latest version unless pinned with edit_set_items.`,
  aliases: ['collection', 'reading list', 'group documents', 'curate'],
  input: z.strictObject({
    name: name(),
    space: spaceRef().optional(),
    description: text().trim().max(600, { message: 'must be at most 600 characters' }).optional(),
    bindingIds: z
      .array(bindingId())
      .max(MAX_SET_ITEMS, { message: `must list at most ${MAX_SET_ITEMS} ids (a set holds at most ${MAX_SET_ITEMS} items)` })
      .optional(),
  }),
  output: z.object({ set: setView }),
  bound: { kind: 'tokens', maxTokens: 120 },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async handler(args, ctx) {
    const set = await createSet(ctx, ctx.caller, args);
    const view = toSetView(set, await setContents(ctx, ctx.caller, set));
    return { pieces: [line(`Created set ${set.id}.`), setLine(view)], data: { set: view } };
  },
});
