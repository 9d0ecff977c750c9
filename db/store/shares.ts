import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { sharesTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';
import { insertWhere, rowsAffected } from './guarded.ts';

export type ShareRow = typeof sharesTable.$inferSelect;
export type ShareTargetType = ShareRow['targetType'];

/** A share with the names a reader needs: who it is for, who made it, what it points at (never the link's hash). */
export interface ShareListRow extends Omit<ShareRow, 'linkHash'> {
  granteeHandle: string | null;
  creatorHandle: string;
  targetLabel: string | null;
}

/** The live share for a target and grantee (a user id, or null for the public link). */
export async function findLiveShare(
  db: BinderyDb,
  type: ShareTargetType,
  targetId: string,
  granteeId: string | null,
): Promise<ShareRow | undefined> {
  return db
    .select()
    .from(sharesTable)
    .where(
      and(
        eq(sharesTable.targetType, type),
        eq(sharesTable.targetId, targetId),
        isNull(sharesTable.revokedAt),
        granteeId ? eq(sharesTable.granteeId, granteeId) : eq(sharesTable.public, true),
      ),
    )
    .get();
}

/** The target is live and owned by `ownerId` (only a target's owner shares it). */
function targetOwnedSql(type: ShareTargetType, targetId: string, ownerId: string): SQL {
  if (type === 'space') return sql`EXISTS (SELECT 1 FROM spaces WHERE id = ${targetId} AND owner_id = ${ownerId})`;
  if (type === 'set') {
    return sql`EXISTS (SELECT 1 FROM sets st JOIN spaces sp ON sp.id = st.space_id WHERE st.id = ${targetId} AND st.deleted_at IS NULL AND sp.owner_id = ${ownerId})`;
  }
  return sql`EXISTS (SELECT 1 FROM bindings b JOIN spaces sp ON sp.id = b.space_id WHERE b.id = ${targetId} AND b.deleted_at IS NULL AND sp.owner_id = ${ownerId})`;
}

/**
 * Writes a share, revoking in the same batch the live share it replaces (other permission; the row
 * carries over its acceptance). The insert checks as it writes that its target is live and owned by its creator, that the share it
 * replaces is still live, and that no other live share gives this target to this grantee; the
 * revoke follows only if the insert happened. Returns false, having written nothing, when a check
 * failed (a racing call shared it first, or the target went away).
 */
export async function putShare(db: BinderyDb, row: typeof sharesTable.$inferInsert, replaces?: string): Promise<boolean> {
  const grantee = row.granteeId ? sql`o.grantee_id = ${row.granteeId}` : sql`o.public = 1`;
  const guard = sql`${targetOwnedSql(row.targetType, row.targetId, row.createdBy)}
    AND NOT EXISTS (SELECT 1 FROM shares o WHERE o.target_type = ${row.targetType} AND o.target_id = ${row.targetId}
      AND o.revoked_at IS NULL AND ${grantee}${replaces ? sql` AND o.id <> ${replaces}` : sql``})
    ${replaces ? sql`AND EXISTS (SELECT 1 FROM shares r WHERE r.id = ${replaces} AND r.revoked_at IS NULL)` : sql``}`;
  if (!replaces) return rowsAffected(await insertWhere(db, sharesTable, row, guard)) === 1;
  // Acceptance is copied by the insert itself: one the grantee gave after the caller read the old row still carries over.
  const insert = insertWhere(
    db,
    sharesTable,
    { ...row, acceptedAt: sql`(SELECT accepted_at FROM shares WHERE id = ${replaces})` as never },
    guard,
  );
  const written = sql`EXISTS (SELECT 1 FROM shares n WHERE n.id = ${row.id})`;
  const [inserted] = await db.batch([
    insert,
    db
      .update(sharesTable)
      .set({ revokedAt: row.createdAt })
      .where(and(eq(sharesTable.id, replaces), isNull(sharesTable.revokedAt), written)),
  ]);
  return rowsAffected(inserted) === 1;
}

/** Gives a live public share that has no link secret yet (made before links carried one) the hash of one; false when it already had one. */
export async function setShareLinkHash(db: BinderyDb, id: string, linkHash: string): Promise<boolean> {
  const rows = await db
    .update(sharesTable)
    .set({ linkHash })
    .where(and(eq(sharesTable.id, id), isNull(sharesTable.revokedAt), eq(sharesTable.public, true), isNull(sharesTable.linkHash)))
    .returning({ id: sharesTable.id });
  return rows.length > 0;
}

/** The live public-link share whose secret hashes to `linkHash`, if any. */
export async function liveLinkShare(
  db: BinderyDb,
  linkHash: string,
): Promise<Pick<ShareRow, 'id' | 'targetType' | 'targetId'> | undefined> {
  return db
    .select({ id: sharesTable.id, targetType: sharesTable.targetType, targetId: sharesTable.targetId })
    .from(sharesTable)
    .where(and(eq(sharesTable.linkHash, linkHash), eq(sharesTable.public, true), isNull(sharesTable.revokedAt)))
    .get();
}

/** Revokes a live share; false when it was already revoked (by this call's competitor or earlier). */
export async function revokeShareRow(db: BinderyDb, id: string, now: number): Promise<boolean> {
  const rows = await db
    .update(sharesTable)
    .set({ revokedAt: now })
    .where(and(eq(sharesTable.id, id), isNull(sharesTable.revokedAt)))
    .returning({ id: sharesTable.id });
  return rows.length > 0;
}

/** Marks a live share addressed to `granteeId` accepted; false when it is not (revoked, accepted already, someone else's). */
export async function acceptShareRow(db: BinderyDb, id: string, granteeId: string, now: number): Promise<boolean> {
  const rows = await db
    .update(sharesTable)
    .set({ acceptedAt: now })
    .where(and(eq(sharesTable.id, id), eq(sharesTable.granteeId, granteeId), isNull(sharesTable.revokedAt), isNull(sharesTable.acceptedAt)))
    .returning({ id: sharesTable.id });
  return rows.length > 0;
}

const listSelect = sql`SELECT shares.id AS id, shares.target_type AS targetType, shares.target_id AS targetId, shares.grantee_id AS granteeId,
    shares.public AS public, shares.permission AS permission, shares.created_by AS createdBy, shares.created_at AS createdAt,
    shares.revoked_at AS revokedAt, shares.accepted_at AS acceptedAt, g.handle AS granteeHandle, c.handle AS creatorHandle,
    CASE shares.target_type
      WHEN 'space' THEN (SELECT '@' || slug FROM spaces WHERE id = shares.target_id)
      WHEN 'set' THEN (SELECT name FROM sets WHERE id = shares.target_id)
      ELSE (SELECT v.name FROM bindings b JOIN versions v ON v.binding_id = b.id AND v.number = b.current_version WHERE b.id = shares.target_id)
    END AS targetLabel
  FROM shares LEFT JOIN users g ON g.id = shares.grantee_id JOIN users c ON c.id = shares.created_by`;

function mapRow(r: Record<string, unknown>): ShareListRow {
  return { ...(r as unknown as ShareListRow), public: Boolean(r.public) };
}

/** One share by id, live or revoked. */
export async function getShare(db: BinderyDb, id: string): Promise<ShareListRow | undefined> {
  // db.all, not db.get: drizzle's raw get() throws on an empty result instead of returning undefined.
  const [row] = await db.all<Record<string, unknown>>(sql`${listSelect} WHERE shares.id = ${id}`);
  return row ? mapRow(row) : undefined;
}

/** Live shares matching `where`, newest first (or `first` before that), paged. */
async function listWhere(db: BinderyDb, where: SQL, offset: number, limit: number, first: SQL = sql``) {
  const live = sql`shares.revoked_at IS NULL AND ${where}`;
  const rows = await db.all<Record<string, unknown>>(
    sql`${listSelect} WHERE ${live} ORDER BY ${first}shares.created_at DESC, shares.rowid DESC LIMIT ${limit} OFFSET ${offset}`,
  );
  const total = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM shares WHERE ${live}`);
  return { rows: rows.map(mapRow), total: Number(total?.n ?? 0) };
}

/** Live shares of one target. */
export function listSharesOfTarget(db: BinderyDb, type: ShareTargetType, targetId: string, offset: number, limit: number) {
  return listWhere(db, sql`shares.target_type = ${type} AND shares.target_id = ${targetId}`, offset, limit);
}

/** Live shares the user made or was given. */
export function listSharesOfUser(db: BinderyDb, userId: string, offset: number, limit: number) {
  return listWhere(db, sql`(shares.created_by = ${userId} OR shares.grantee_id = ${userId})`, offset, limit);
}

/** Live shares addressed to the user, those waiting for an answer first; `pending` counts those. */
export async function listSharesToUser(db: BinderyDb, userId: string, offset: number, limit: number) {
  const listed = await listWhere(db, sql`shares.grantee_id = ${userId}`, offset, limit, sql`(shares.accepted_at IS NOT NULL), `);
  const pending = await db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM shares WHERE revoked_at IS NULL AND accepted_at IS NULL AND grantee_id = ${userId}`,
  );
  return { ...listed, pending: Number(pending?.n ?? 0) };
}
