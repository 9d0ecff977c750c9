import { z } from 'zod';
import { defineTool } from '../define.ts';
import { name, setId, text } from '../schema.ts';
import { setContents, updateSet } from '../../services/sets.ts';
import { line } from '../../tokens/doc.ts';
import { setLine, setView, toSetView } from './set-view.ts';

export const updateSetTool = defineTool({
  name: 'update_set',
  title: 'Update set',
  category: 'set',
  description: 'Rename a set you own or change its description. To change its items use edit_set_items.',
  aliases: ['rename set', 'describe set'],
  input: z
    .strictObject({
      id: setId(),
      name: name().optional(),
      description: text().trim().max(600, { message: 'must be at most 600 characters' }).optional(),
    })
    .refine((a) => a.name !== undefined || a.description !== undefined, { message: 'give name or description (or both)', path: ['name'] }),
  output: z.object({ set: setView }),
  bound: { kind: 'tokens', maxTokens: 120 },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async handler(args, ctx) {
    const set = await updateSet(ctx, ctx.caller, args.id, { name: args.name, description: args.description });
    const view = toSetView(set, await setContents(ctx, ctx.caller, set));
    return { pieces: [line(`Updated set ${set.id}.`), setLine(view)], data: { set: view } };
  },
});
