import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingId, cursorSchema, limitSchema } from '../schema.ts';
import { readBinding } from '../../services/binding-reads.ts';
import { paginate, readCursor } from '../../cursor.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { paginationView } from '../views.ts';
import { groupsUnderCap } from '../cap-lines.ts';
import { commentPieces, commentView, toCommentView, type CommentView } from './comment-view.ts';
import { listComments } from '../../services/comments.ts';

export const listCommentsTool = defineTool({
  name: 'list_comments',
  title: 'List comments',
  category: 'comment',
  description:
    'Comments on a binding you can read, oldest first, with author and provenance (human or llm, and the model). Optional version keeps those on one version. Paged.',
  aliases: ['notes', 'annotations', 'discussion', 'feedback'],
  input: z.strictObject({
    id: bindingId(),
    version: z.number().int({ message: 'must be a whole number' }).min(1, { message: 'must be 1 or more' }).optional(),
    limit: limitSchema(50, 20),
    cursor: cursorSchema().optional(),
  }),
  output: z.object({ id: z.string(), comments: z.array(commentView), pagination: paginationView }),
  bound: { kind: 'items', maxItems: 50, itemTokens: 1_100 },
  annotations: { readOnlyHint: true },
  async handler(args, ctx) {
    const binding = await readBinding(ctx, ctx.caller, args.id, { version: args.version });
    const scope = `comments:${args.id}:${args.version ?? ''}:${args.limit}`;
    const offset = await readCursor(ctx.db, args.cursor, scope);
    const { rows, total } = await listComments(ctx, binding, { version: args.version, offset, limit: args.limit });
    const on = args.version ? ` on v${args.version}` : '';
    const pieces: Piece[] = [
      line(`## ${total} comment${total === 1 ? '' : 's'}${on} on ${args.id} ("${binding.name.replace(/\s+/g, ' ')}")`),
    ];
    // Long comments can pass the response cap before `limit` does: the page then ends early and the
    // cursor continues from the first comment left out. Bodies have stored counts; only framing is counted.
    const all = rows.map(toCommentView);
    const kept = groupsUnderCap(
      pieces,
      all.map((v, i) => commentPieces(v, rows[i]!.fence)),
      ctx,
    );
    const comments: CommentView[] = all.slice(0, kept.length);
    pieces.push(...kept.flat());
    const pagination = await paginate(ctx.db, scope, offset, comments.length, total);
    if (pagination.hasMore) pieces.push(line(`More: call again with cursor "${pagination.nextCursor}".`));
    const last = comments[comments.length - 1];
    return {
      pieces,
      data: { id: args.id, comments, pagination },
      meta: { pagination, ...(last ? { agentMeta: { source: last.source, model: last.model } } : {}) },
    };
  },
});
