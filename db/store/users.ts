import { eq, getTableColumns, sql } from 'drizzle-orm';
import { usersTable, spacesTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';

export type UserRow = typeof usersTable.$inferSelect;
export type SpaceRow = typeof spacesTable.$inferSelect;

/** Finds a user by handle. */
export async function findUserByHandle(db: BinderyDb, handle: string): Promise<UserRow | undefined> {
  return db.select().from(usersTable).where(eq(usersTable.handle, handle)).get();
}

/**
 * Returns the user with this handle, creating it and its personal space on first use, under the
 * first of `slugs` no space has taken (a team space may already hold the handle's slug). Requests
 * racing to create one handle all get the same user: both rows are written in one batch whose
 * statements check, as they write, that the handle and the chosen slug are still free and that the
 * user has no personal space yet (which also mends a user left without one).
 */
export async function ensureUser(
  db: BinderyDb,
  handle: string,
  ids: { user: string; space: string },
  now: number,
  slugs: string[],
): Promise<UserRow> {
  const found = await db
    .select({
      ...getTableColumns(usersTable),
      hasSpace: sql<number>`EXISTS (SELECT 1 FROM spaces WHERE owner_id = ${usersTable.id} AND personal = 1)`,
    })
    .from(usersTable)
    .where(eq(usersTable.handle, handle))
    .get();
  if (found && Number(found.hasSpace) === 1) {
    const { hasSpace: _, ...user } = found;
    return user;
  }
  await db.batch([
    db.insert(usersTable).values({ id: ids.user, handle, createdAt: now }).onConflictDoNothing({ target: usersTable.handle }),
    db.run(sql`INSERT INTO spaces (id, slug, name, visibility, owner_id, personal, created_at)
      SELECT ${ids.space}, c.value, ${`${handle}'s space`}, 'private', u.id, 1, ${now}
      FROM users u, json_each(${JSON.stringify(slugs)}) c
      WHERE u.handle = ${handle}
        AND NOT EXISTS (SELECT 1 FROM spaces p WHERE p.owner_id = u.id AND p.personal = 1)
        AND NOT EXISTS (SELECT 1 FROM spaces t WHERE t.slug = c.value)
      ORDER BY c.key LIMIT 1`),
  ]);
  const user = await findUserByHandle(db, handle);
  if (!user || !(await personalSpace(db, user.id))?.personal)
    throw new Error(`could not create user ${handle} with a personal space: slugs ${slugs.join(', ')} are all taken`);
  return user;
}

/** The caller's personal space. */
export async function personalSpace(db: BinderyDb, userId: string): Promise<SpaceRow | undefined> {
  const rows = await db.select().from(spacesTable).where(eq(spacesTable.ownerId, userId)).all();
  return rows.find((r) => r.personal) ?? rows[0];
}

/** A space by id (`spc_…`) or slug (with or without `@`). */
export async function findSpace(db: BinderyDb, ref: string): Promise<SpaceRow | undefined> {
  const key = ref.startsWith('@') ? ref.slice(1) : ref;
  const column = key.startsWith('spc_') ? spacesTable.id : spacesTable.slug;
  return db.select().from(spacesTable).where(eq(column, key)).get();
}

/**
 * True when the user may see the space itself: owner, public, or a live share of the space. A public
 * link counts only when the space was named by its random id (`byId`): its slug is guessable.
 */
export async function canSeeSpace(db: BinderyDb, userId: string, space: SpaceRow, byId: boolean): Promise<boolean> {
  if (space.ownerId === userId || space.visibility === 'public') return true;
  const grantee = byId ? sql`(grantee_id = ${userId} OR public = 1)` : sql`grantee_id = ${userId}`;
  const row = await db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM shares WHERE revoked_at IS NULL AND target_type = 'space' AND target_id = ${space.id} AND ${grantee}`,
  );
  return Number(row?.n ?? 0) > 0;
}
