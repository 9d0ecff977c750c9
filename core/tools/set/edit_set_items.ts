import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingId, setId } from '../schema.ts';
import { editSetItems, MAX_SET_ITEMS, setContents } from '../../services/sets.ts';
import { line } from '../../tokens/doc.ts';
import { setLine, setView, toSetView } from './set-view.ts';

const position = () =>
  z.number().int({ message: 'must be a whole number' }).min(0, { message: 'must be 0 or more (positions are 0-based)' });
const ops = (max: number) => ({ message: `must list at most ${max} items (a set holds at most ${MAX_SET_ITEMS})` });

export const editSetItemsTool = defineTool({
  name: 'edit_set_items',
  title: 'Edit set items',
  category: 'set',
  description:
    'Change the items of a set you own, in one atomic step: remove (binding ids), then add ({bindingId, position?, version?}: inserted at a 0-based position, default the end; version pins it, else it follows the latest), then move ({bindingId, position}). Each binding appears at most once. Nothing is written if any step is invalid.',
  aliases: ['add to set', 'remove from set', 'reorder set', 'pin version'],
  input: z
    .strictObject({
      id: setId(),
      add: z
        .array(
          z.strictObject({
            bindingId: bindingId(),
            position: position().optional(),
            version: z.number().int().min(1, { message: 'must be 1 or more' }).optional(),
          }),
        )
        .max(MAX_SET_ITEMS, ops(MAX_SET_ITEMS))
        .optional(),
      remove: z.array(bindingId()).max(MAX_SET_ITEMS, ops(MAX_SET_ITEMS)).optional(),
      move: z
        .array(z.strictObject({ bindingId: bindingId(), position: position() }))
        .max(MAX_SET_ITEMS, ops(MAX_SET_ITEMS))
        .optional(),
    })
    .refine((a) => (a.add?.length ?? 0) + (a.remove?.length ?? 0) + (a.move?.length ?? 0) > 0, {
      message: 'give at least one of add, remove, move',
      path: ['add'],
    }),
  output: z.object({ set: setView, added: z.number(), removed: z.number(), moved: z.number() }),
  bound: { kind: 'tokens', maxTokens: 150 },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async handler(args, ctx) {
    const { set } = await editSetItems(ctx, ctx.caller, args.id, args);
    const view = toSetView(set, await setContents(ctx, ctx.caller, set));
    const counts = { added: args.add?.length ?? 0, removed: args.remove?.length ?? 0, moved: args.move?.length ?? 0 };
    return {
      pieces: [line(`Edited set ${set.id}: ${counts.added} added, ${counts.removed} removed, ${counts.moved} moved.`), setLine(view)],
      data: { set: view, ...counts },
    };
  },
});
