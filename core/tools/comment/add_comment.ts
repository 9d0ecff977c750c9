import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingId, modelSchema, text } from '../schema.ts';
import { addComment } from '../../services/comments.ts';
import { line } from '../../tokens/doc.ts';
import { commentPieces, commentView, toCommentView } from './comment-view.ts';

export const addCommentTool = defineTool({
  name: 'add_comment',
  title: 'Add comment',
  category: 'comment',
  description:
    'Add a note to a binding (optionally to one version) without changing it: corrections, questions, review remarks. Needs comment access (your own space, or a share with permission "comment"). Recorded as source "llm" with your model.',
  aliases: ['annotate', 'note on document', 'review', 'remark'],
  input: z.strictObject({
    id: bindingId(),
    body: text().trim().min(1, { message: 'must not be empty' }).max(4000, { message: 'must be at most 4000 characters' }),
    version: z.number().int({ message: 'must be a whole number' }).min(1, { message: 'must be 1 or more' }).optional(),
    model: modelSchema().optional(),
  }),
  output: z.object({ comment: commentView }),
  bound: { kind: 'tokens', maxTokens: 1_200 },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async handler(args, ctx) {
    const row = await addComment(ctx, ctx.caller, args, ctx.provenance(args.model));
    const view = toCommentView(row);
    return {
      pieces: [line(`Added comment ${view.id} to ${view.bindingId}.`), ...commentPieces(view, row.fence)],
      data: { comment: view },
      meta: { agentMeta: { source: view.source, model: view.model } },
    };
  },
});
