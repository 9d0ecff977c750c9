import type { Caller, Provenance } from '../context';
import { BinderyError, fail } from '../errors';
import { newFence, newId } from '../ids';
import type { TokenCounter } from '../tokens/counter';
import { fenced } from '../budget/render';
import { canComment, commentBodies, getComment, insertComment, setCommentCounts, softDeleteComment, type CommentListRow } from '../../db/store/comments';
import { getSetting, putSetting } from '../../db/store/settings';
import { readBinding, type CoreDeps } from './bindings';

/**
 * The comment body as a response shows it: trimmed, between the comment's fence lines (its stored
 * count is of this block), so a body cannot pass itself off as the next comment's header.
 */
export function commentBodyBlock(body: string, fence: string): string {
  return fenced(body.trim(), fence);
}

/**
 * Adds a comment to a binding (optionally to one of its versions). Needs comment access: unreadable
 * is NOT_FOUND, read-only is FORBIDDEN. The body's tokens are counted once, here.
 */
export async function addComment(
  deps: CoreDeps & { tokens: TokenCounter },
  caller: Caller,
  input: { id: string; body: string; version?: number },
  provenance: Provenance,
): Promise<CommentListRow> {
  const binding = await readBinding(deps, caller, input.id, { version: input.version });
  if (!(await canComment(deps.db, caller.id, input.id))) {
    throw fail.forbidden(`you may read binding ${input.id} but not comment on it; its owner can give you a share with permission "comment"`);
  }
  const body = input.body.trim();
  const id = newId('cmt');
  const fence = newFence(body);
  await insertComment(deps.db, {
    id,
    bindingId: binding.bindingId,
    version: input.version ?? null,
    body,
    bodyTokenCount: deps.tokens.count(commentBodyBlock(body, fence)),
    countsKey: commentCountsKey(deps),
    fence,
    source: provenance.source,
    model: provenance.model,
    authorId: caller.id,
    createdAt: deps.now(),
  });
  return (await getComment(deps.db, id))!;
}

/** Deletes a comment: its author or the binding's space owner may; others who can read it are FORBIDDEN. */
export async function deleteComment(deps: CoreDeps, caller: Caller, id: string): Promise<CommentListRow> {
  const comment = await getComment(deps.db, id);
  if (!comment) throw commentNotFound(id);
  let binding;
  try {
    binding = await readBinding(deps, caller, comment.bindingId);
  } catch {
    throw commentNotFound(id);
  }
  if (comment.authorId !== caller.id && binding.spaceOwnerId !== caller.id) {
    throw fail.forbidden(`comment ${id} is not yours; only its author or the owner of @${binding.spaceSlug} can delete it`);
  }
  if (!(await softDeleteComment(deps.db, id, deps.now()))) throw commentNotFound(id);
  return comment;
}

/** What a stored comment count depends on: the comment rendering and the tokenizer. */
export function commentCountsKey(deps: Pick<CoreDeps, 'config'>): string {
  return `c${COMMENT_RENDER_REVISION}|${deps.config.tokenizer}`;
}
/** Bump when commentBodyBlock changes. */
export const COMMENT_RENDER_REVISION = 2;

/**
 * Recounts stored comment tokens when the tokenizer or the rendering changed since they were counted
 * (here, once, at start-up, never on reads). Returns how many comments were recounted.
 */
export async function ensureCommentCounts(deps: CoreDeps): Promise<number> {
  // The key holds the render revision too: a new rendering of bodies recounts them like a new tokenizer.
  const key = commentCountsKey(deps);
  const stored = await getSetting(deps.db, 'comment_count_key');
  if (stored === key) return 0;
  let done = 0;
  for (let offset = 0; ; offset += 200) {
    const rows = await commentBodies(deps.db, offset, 200);
    if (rows.length === 0) break;
    // Loaded only when there is something to recount: a database without comments never needs it.
    await deps.tokens.load();
    await setCommentCounts(deps.db, rows.map((r) => ({ id: r.id, tokens: deps.tokens.count(commentBodyBlock(r.body, r.fence)) })));
    done += rows.length;
  }
  await putSetting(deps.db, 'comment_count_key', key);
  return done;
}

function commentNotFound(id: string): BinderyError {
  return new BinderyError('NOT_FOUND', fail.notFound('comment', id).message, 'id', 'list_comments {id: <binding id>} shows the comments you can see.');
}
