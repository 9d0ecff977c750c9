import { eq, sql } from 'drizzle-orm';
import { usersTable, spacesTable } from '../schema/index';
import type { BinderyDb } from '../types';

export type UserRow = typeof usersTable.$inferSelect;
export type SpaceRow = typeof spacesTable.$inferSelect;

/** Finds a user by handle. */
export async function findUserByHandle(db: BinderyDb, handle: string): Promise<UserRow | undefined> {
  return db.select().from(usersTable).where(eq(usersTable.handle, handle)).get();
}

/**
 * Returns the user with this handle, creating it and its personal space on first use, under the
 * first of `slugs` no space has taken yet (a team space may already hold the handle's slug).
 * Both rows are written in one batch; a concurrent creator loses the race harmlessly.
 */
export async function ensureUser(db: BinderyDb, handle: string, ids: { user: string; space: string }, now: number, slugs: string[]): Promise<UserRow> {
  const found = await findUserByHandle(db, handle);
  if (found) return found;
  let slug = slugs[slugs.length - 1]!;
  for (const candidate of slugs) {
    if (!(await db.select({ id: spacesTable.id }).from(spacesTable).where(eq(spacesTable.slug, candidate)).get())) {
      slug = candidate;
      break;
    }
  }
  await db.batch([
    db.insert(usersTable).values({ id: ids.user, handle, createdAt: now }).onConflictDoNothing(),
    db
      .insert(spacesTable)
      .values({ id: ids.space, slug, name: `${handle}'s space`, visibility: 'private', ownerId: ids.user, personal: true, createdAt: now })
      .onConflictDoNothing(),
  ]);
  const user = await findUserByHandle(db, handle);
  if (!user) throw new Error(`could not create user ${handle}`);
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
