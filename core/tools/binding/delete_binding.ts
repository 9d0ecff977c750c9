import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingId } from '../schema.ts';
import { deleteBinding } from '../../services/bindings.ts';
import { line } from '../../tokens/doc.ts';
import { bindingUrls } from '../../budget/tier.ts';

export const deleteBindingTool = defineTool({
  name: 'delete_binding',
  title: 'Delete binding',
  category: 'binding',
  description:
    'Delete a binding you own: it disappears from reads, lists, search and sets (its versions are kept for audit but no longer served).',
  aliases: ['remove', 'forget', 'trash'],
  input: z.strictObject({ id: bindingId() }),
  output: z.object({ id: z.string(), deleted: z.boolean(), lastVersion: z.number() }),
  bound: { kind: 'tokens', maxTokens: 60 },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  async handler(args, ctx) {
    const row = await deleteBinding(ctx, ctx.caller, args.id);
    const urls = bindingUrls(ctx.config.publicUrl, row.spaceSlug, row.bindingSlug);
    return {
      pieces: [line(`Deleted ${args.id} ("${row.name}", last v${row.number}).`)],
      data: { id: args.id, deleted: true, lastVersion: row.number },
      meta: { binding: { id: row.bindingId, contentTokenCount: row.contentTokenCount, ...urls } },
    };
  },
});
