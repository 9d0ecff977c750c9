import { sql } from 'drizzle-orm';
import { spacesTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';
import { rowsAffected } from './guarded.ts';
import type { SpaceRow } from './users.ts';

/**
 * Inserts a space; false, having written nothing, when the slug is taken: the unique index decides,
 * not a prior read, so of several calls racing for one slug exactly one gets it.
 */
export async function insertSpace(db: BinderyDb, row: typeof spacesTable.$inferInsert): Promise<boolean> {
  return rowsAffected(await db.insert(spacesTable).values(row).onConflictDoNothing({ target: spacesTable.slug })) === 1;
}

export interface SpaceListRow extends SpaceRow {
  ownerHandle: string;
  /** Live bindings in the space. */
  bindingCount: number;
  /** How the caller reaches it: `owner`, or the permission of a share naming the caller. */
  access: 'owner' | 'read' | 'comment';
}

/** Spaces the user owns or that were shared with the user by name and accepted, own first, then by slug. */
export async function listSpaceRows(
  db: BinderyDb,
  userId: string,
  offset: number,
  limit: number,
): Promise<{ rows: SpaceListRow[]; total: number }> {
  const shared = sql`SELECT CASE WHEN sum(s.permission = 'comment') > 0 THEN 'comment' WHEN count(*) > 0 THEN 'read' END FROM shares s WHERE s.revoked_at IS NULL AND s.accepted_at IS NOT NULL AND s.grantee_id = ${userId} AND s.target_type = 'space' AND s.target_id = spaces.id`;
  const where = sql`(spaces.owner_id = ${userId} OR (${shared}) IS NOT NULL)`;
  const rows = await db.all<
    Record<string, unknown>
  >(sql`SELECT spaces.id AS id, spaces.slug AS slug, spaces.name AS name, spaces.visibility AS visibility,
      spaces.owner_id AS ownerId, spaces.personal AS personal, spaces.created_at AS createdAt, users.handle AS ownerHandle,
      (SELECT count(*) FROM bindings b WHERE b.space_id = spaces.id AND b.deleted_at IS NULL) AS bindingCount,
      CASE WHEN spaces.owner_id = ${userId} THEN 'owner' ELSE (${shared}) END AS access
    FROM spaces JOIN users ON users.id = spaces.owner_id
    WHERE ${where}
    ORDER BY (spaces.owner_id = ${userId}) DESC, spaces.personal DESC, spaces.slug
    LIMIT ${limit} OFFSET ${offset}`);
  const total = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM spaces WHERE ${where}`);
  return {
    rows: rows.map((r) => ({ ...r, personal: Boolean(r.personal), bindingCount: Number(r.bindingCount) }) as SpaceListRow),
    total: Number(total?.n ?? 0),
  };
}
