import type { Caller, Provenance } from '../context.ts';
import { BinderyError, fail } from '../errors.ts';
import { newFence, newId } from '../ids.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { fenced } from '../budget/render.ts';
import {
  canComment,
  commentsCountedOtherwise,
  getComment,
  insertComment,
  listCommentRows,
  setCommentCounts,
  softDeleteComment,
  type CommentListRow,
} from '../../db/store/comments.ts';
import { type CoreDeps } from './bindings.ts';
import { readBinding } from './binding-reads.ts';

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
  const body = input.body.trim();
  // A write refused by its in-statement check (the binding was deleted or the share revoked
  // meanwhile) goes round again: the checks then name the reason, or, holding again, retry it.
  for (let attempt = 0; attempt < 3; attempt++) {
    const binding = await readBinding(deps, caller, input.id, { version: input.version });
    if (!(await canComment(deps.db, caller.id, input.id))) {
      throw fail.forbidden(
        `you may read binding ${input.id} but not comment on it; its owner can give you a share with permission "comment"`,
      );
    }
    const id = newId('cmt');
    const fence = newFence(body);
    const written = await insertComment(deps.db, {
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
    // Read back deleted or not: a delete right after must not turn a done write into an error.
    if (written) return (await freshCommentCounts(deps, [(await getComment(deps.db, id, false))!]))[0]!;
  }
  throw fail.conflict('id', `access to binding ${input.id} kept changing while the comment was written; nothing was written, retry`);
}

/** Deletes a comment: its author or the binding's space owner may; others who can read it are FORBIDDEN. */
export async function deleteComment(deps: CoreDeps, caller: Caller, id: string): Promise<CommentListRow> {
  const comment = await getComment(deps.db, id);
  if (comment) await freshCommentCounts(deps, [comment]);
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
/**
 * Comment rows with body counts for this process's tokenizer: a row counted by a process with another
 * one is recounted in memory (never written back), as versions are (see counts.ts).
 */
export async function freshCommentCounts<T extends { body: string; fence: string; bodyTokenCount: number; countsKey: string }>(
  deps: Pick<CoreDeps, 'tokens' | 'config'>,
  rows: T[],
): Promise<T[]> {
  const key = commentCountsKey(deps);
  const stale = rows.filter((r) => r.countsKey !== key);
  if (stale.length === 0) return rows;
  await deps.tokens.load();
  for (const r of stale) Object.assign(r, { bodyTokenCount: deps.tokens.count(commentBodyBlock(r.body, r.fence)), countsKey: key });
  return rows;
}

/** Bump when commentBodyBlock changes. */
export const COMMENT_RENDER_REVISION = 2;

/**
 * Recounts stored comment tokens counted for another tokenizer or rendering (servers at start-up and
 * `bindery migrate`; reads recount stale rows in memory meanwhile). Returns how many were recounted.
 */
export async function ensureCommentCounts(deps: CoreDeps): Promise<number> {
  const key = commentCountsKey(deps);
  let done = 0;
  for (let after = ''; ; ) {
    const rows = await commentsCountedOtherwise(deps.db, key, after, 200);
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    // Loaded only when there is something to recount: a database without comments never needs it.
    await deps.tokens.load();
    await setCommentCounts(
      deps.db,
      key,
      rows.map((r) => ({ id: r.id, tokens: deps.tokens.count(commentBodyBlock(r.body, r.fence)) })),
    );
    done += rows.length;
  }
  return done;
}

function commentNotFound(id: string): BinderyError {
  return new BinderyError(
    'NOT_FOUND',
    fail.notFound('comment', id).message,
    'id',
    'list_comments {id: <binding id>} shows the comments you can see.',
  );
}

/**
 * A page of the comments on a binding the caller has read (pass the row readBinding returned: the
 * read check is the caller's), their stored counts current, with the total.
 */
export async function listComments(
  deps: CoreDeps,
  binding: { bindingId: string },
  opts: { version?: number; offset: number; limit: number },
) {
  const page = await listCommentRows(deps.db, binding.bindingId, opts);
  await freshCommentCounts(deps, page.rows);
  return page;
}

/** Whether the caller may comment on a binding (its owner, or a comment share). */
export function mayComment(deps: CoreDeps, caller: Caller, bindingId: string): Promise<boolean> {
  return canComment(deps.db, caller.id, bindingId);
}
