import { z } from 'zod';
import { defineTool } from '../define.ts';
import { idOf } from '../schema.ts';
import { deleteComment } from '../../services/comments.ts';
import { line } from '../../tokens/doc.ts';

export const deleteCommentTool = defineTool({
  name: 'delete_comment',
  title: 'Delete comment',
  category: 'comment',
  description: "Delete a comment: its author or the owner of the binding's space may.",
  aliases: ['remove note', 'retract comment'],
  input: z.strictObject({ id: idOf('cmt', 'comment') }),
  output: z.object({ id: z.string(), bindingId: z.string(), deleted: z.boolean() }),
  bound: { kind: 'tokens', maxTokens: 40 },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  async handler(args, ctx) {
    const c = await deleteComment(ctx, ctx.caller, args.id);
    return { pieces: [line(`Deleted comment ${c.id} on ${c.bindingId}.`)], data: { id: c.id, bindingId: c.bindingId, deleted: true } };
  },
});
