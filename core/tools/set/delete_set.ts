import { z } from 'zod';
import { defineTool } from '../define.ts';
import { setId } from '../schema.ts';
import { deleteSet } from '../../services/sets.ts';
import { line } from '../../tokens/doc.ts';

export const deleteSetTool = defineTool({
  name: 'delete_set',
  title: 'Delete set',
  category: 'set',
  description: 'Delete a set you own. The bindings in it are not touched; shares of the set stop granting access.',
  aliases: ['remove set', 'drop collection'],
  input: z.strictObject({ id: setId() }),
  output: z.object({ id: z.string(), deleted: z.boolean() }),
  bound: { kind: 'tokens', maxTokens: 60 },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  async handler(args, ctx) {
    const set = await deleteSet(ctx, ctx.caller, args.id);
    return {
      pieces: [line(`Deleted set ${set.id} ("${set.name.replace(/\s+/g, ' ')}"). Its bindings are unchanged.`)],
      data: { id: set.id, deleted: true },
    };
  },
});
