import { z } from 'zod';
import type { CommentListRow } from '../../../db/store/comments.ts';
import { commentBodyBlock } from '../../services/comments.ts';
import { line, type Piece } from '../../tokens/doc.ts';

/** JSON shape of a comment, with its provenance. */
export const commentView = z.object({
  id: z.string(),
  bindingId: z.string(),
  version: z.number().nullable(),
  body: z.string(),
  bodyTokenCount: z.number(),
  author: z.string(),
  source: z.enum(['human', 'llm']),
  model: z.string().nullable(),
  createdAt: z.string(),
});
export type CommentView = z.infer<typeof commentView>;

export function toCommentView(r: CommentListRow): CommentView {
  return {
    id: r.id,
    bindingId: r.bindingId,
    version: r.version,
    body: r.body,
    bodyTokenCount: r.bodyTokenCount,
    author: `@${r.authorHandle}`,
    source: r.source,
    model: r.model,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

/** A comment as text: a framing line, then the fenced body with its stored count. */
export function commentPieces(v: CommentView, fence: string): Piece[] {
  const prov = v.model ? `${v.source}/${v.model}` : v.source;
  return [
    line(`#### ${v.id} · ${v.author} · ${prov} · ${v.createdAt.slice(0, 16).replace('T', ' ')}${v.version ? ` · on v${v.version}` : ''}`),
    { text: commentBodyBlock(v.body, fence), tokens: v.bodyTokenCount },
  ];
}
