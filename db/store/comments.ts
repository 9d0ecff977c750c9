import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { commentsTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';
import { canCommentBindingSql } from './access.ts';
import { insertWhere, rowsAffected, runBatch } from './guarded.ts';

export type CommentRow = typeof commentsTable.$inferSelect;
export interface CommentListRow extends CommentRow {
  authorHandle: string;
}

/** True when the user may comment on the live binding (space owner or a live `comment` share). */
export async function canComment(db: BinderyDb, userId: string, bindingId: string): Promise<boolean> {
  const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM bindings JOIN spaces ON spaces.id = bindings.space_id
    WHERE bindings.id = ${bindingId} AND bindings.deleted_at IS NULL AND ${canCommentBindingSql(userId)}`);
  return Number(row?.n ?? 0) > 0;
}

/**
 * Writes a comment only if, at that moment, its binding is live and its author may comment on it
 * (the checks the caller made before are repeated by the writing statement). False: nothing written.
 */
export async function insertComment(db: BinderyDb, row: typeof commentsTable.$inferInsert): Promise<boolean> {
  const guard = sql`EXISTS (SELECT 1 FROM bindings JOIN spaces ON spaces.id = bindings.space_id
    WHERE bindings.id = ${row.bindingId} AND bindings.deleted_at IS NULL AND ${canCommentBindingSql(row.authorId)})`;
  return rowsAffected(await insertWhere(db, commentsTable, row, guard)) === 1;
}

const select = sql`SELECT comments.id AS id, comments.binding_id AS bindingId, comments.version AS version, comments.body AS body,
    comments.body_token_count AS bodyTokenCount, comments.counts_key AS countsKey, comments.fence AS fence, comments.source AS source, comments.model AS model, comments.author_id AS authorId,
    comments.created_at AS createdAt, comments.deleted_at AS deletedAt, users.handle AS authorHandle
  FROM comments JOIN users ON users.id = comments.author_id`;

/** A live comment by id (`live: false`: deleted or not, for the answer of the call that wrote it). */
export async function getComment(db: BinderyDb, id: string, live = true): Promise<CommentListRow | undefined> {
  // db.all, not db.get: drizzle's raw get() throws on an empty result instead of returning undefined.
  const rows = await db.all<CommentListRow>(
    sql`${select} WHERE comments.id = ${id}${live ? sql` AND comments.deleted_at IS NULL` : sql``}`,
  );
  return rows[0];
}

/** Live comments on a binding (optionally on one version), oldest first, paged. */
export async function listCommentRows(db: BinderyDb, bindingId: string, opts: { version?: number; offset: number; limit: number }) {
  const where = sql`comments.binding_id = ${bindingId} AND comments.deleted_at IS NULL${opts.version === undefined ? sql`` : sql` AND comments.version = ${opts.version}`}`;
  const rows = await db.all<CommentListRow>(
    sql`${select} WHERE ${where} ORDER BY comments.created_at, comments.rowid LIMIT ${opts.limit} OFFSET ${opts.offset}`,
  );
  const total = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM comments WHERE ${where}`);
  return { rows, total: Number(total?.n ?? 0) };
}

/** Hides a comment; false when it was already gone. */
export async function softDeleteComment(db: BinderyDb, id: string, now: number): Promise<boolean> {
  const rows = await db
    .update(commentsTable)
    .set({ deletedAt: now })
    .where(and(eq(commentsTable.id, id), isNull(commentsTable.deletedAt)))
    .returning({ id: commentsTable.id });
  return rows.length > 0;
}

/** Comments counted for another key than `key`, in id order after `after`, for recounting. */
export async function commentsCountedOtherwise(db: BinderyDb, key: string, after: string, limit: number) {
  return db
    .select({ id: commentsTable.id, body: commentsTable.body, fence: commentsTable.fence })
    .from(commentsTable)
    .where(and(ne(commentsTable.countsKey, key), gt(commentsTable.id, after)))
    .orderBy(commentsTable.id)
    .limit(limit)
    .all();
}

/** Stores recounted body tokens in one batch. */
export async function setCommentCounts(db: BinderyDb, key: string, counts: { id: string; tokens: number }[]): Promise<void> {
  if (counts.length === 0) return;
  await runBatch(
    db,
    counts.map((c) => db.update(commentsTable).set({ bodyTokenCount: c.tokens, countsKey: key }).where(eq(commentsTable.id, c.id))),
  );
}
