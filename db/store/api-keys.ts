import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { apiKeysTable, usersTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';

/** Stores a key's hash (the key itself is never stored). */
export async function insertApiKey(db: BinderyDb, row: typeof apiKeysTable.$inferInsert): Promise<void> {
  await db.insert(apiKeysTable).values(row);
}

/** A live (unrevoked) key by id, with its user's handle. */
export async function liveApiKey(db: BinderyDb, id: string): Promise<{ keyHash: string; userId: string; handle: string } | undefined> {
  let query = liveKeyQueries.get(db);
  if (!query) {
    // Every HTTP request checks its key (so a revocation applies at once): prepared once per db.
    query = db
      .select({ keyHash: apiKeysTable.keyHash, userId: apiKeysTable.userId, handle: usersTable.handle })
      .from(apiKeysTable)
      .innerJoin(usersTable, eq(usersTable.id, apiKeysTable.userId))
      .where(and(eq(apiKeysTable.id, sql.placeholder('id')), isNull(apiKeysTable.revokedAt)))
      .prepare();
    liveKeyQueries.set(db, query);
  }
  return (await query.get({ id })) as { keyHash: string; userId: string; handle: string } | undefined;
}

const liveKeyQueries = new WeakMap<BinderyDb, { get(params: Record<string, unknown>): Promise<unknown> }>();

/** Marks a key revoked; returns false when there is no live key with that id (one statement: of racing revokes, one wins). */
export async function revokeApiKey(db: BinderyDb, id: string, now: number): Promise<boolean> {
  const rows = await db
    .update(apiKeysTable)
    .set({ revokedAt: now })
    .where(and(eq(apiKeysTable.id, id), isNull(apiKeysTable.revokedAt)))
    .returning({ id: apiKeysTable.id });
  return rows.length > 0;
}

/** Every key (without hashes), newest first, with its user's handle. */
export async function listApiKeys(db: BinderyDb) {
  return db
    .select({
      id: apiKeysTable.id,
      handle: usersTable.handle,
      label: apiKeysTable.label,
      createdAt: apiKeysTable.createdAt,
      revokedAt: apiKeysTable.revokedAt,
    })
    .from(apiKeysTable)
    .innerJoin(usersTable, eq(usersTable.id, apiKeysTable.userId))
    .orderBy(desc(apiKeysTable.createdAt))
    .all();
}
