import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { oauthClientsTable, oauthCodesTable, oauthTokensTable, usersTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';
import { insertWhere, rowsAffected, runBatch } from './guarded.ts';

export type OAuthClientRow = typeof oauthClientsTable.$inferSelect;
export type OAuthCodeRow = typeof oauthCodesTable.$inferSelect;
export type OAuthTokenRow = typeof oauthTokensTable.$inferSelect;

/** Stores a dynamically registered client. */
export async function insertOAuthClient(db: BinderyDb, row: typeof oauthClientsTable.$inferInsert): Promise<void> {
  await db.insert(oauthClientsTable).values(row);
}

/** A client is pending until a code has been issued to it (someone allowed it on the consent page). */
const pendingClient = sql`${oauthClientsTable.id} NOT IN (SELECT ${oauthCodesTable.clientId} FROM ${oauthCodesTable})`;

/**
 * Stores a registered client unless `maxPending` clients are already pending; false when refused.
 * The count is made by the insert itself, so racing registrations cannot overshoot the cap.
 */
export async function insertOAuthClientCapped(
  db: BinderyDb,
  row: typeof oauthClientsTable.$inferInsert,
  maxPending: number,
): Promise<boolean> {
  const guard = sql`(SELECT count(*) FROM (SELECT 1 FROM ${oauthClientsTable} WHERE ${pendingClient} LIMIT ${maxPending})) < ${maxPending}`;
  return rowsAffected(await insertWhere(db, oauthClientsTable, row, guard)) === 1;
}

/** Pending clients registered before `before` (never used for an authorization): deleted; returns how many. */
export async function pruneStaleOAuthClients(db: BinderyDb, before: number): Promise<number> {
  const noTokens = sql`${oauthClientsTable.id} NOT IN (SELECT ${oauthTokensTable.clientId} FROM ${oauthTokensTable})`;
  return rowsAffected(await db.delete(oauthClientsTable).where(and(lt(oauthClientsTable.createdAt, before), pendingClient, noTokens)));
}

/** How many clients are pending (tests and the bench read it). */
export async function countPendingOAuthClients(db: BinderyDb): Promise<number> {
  const row = await db.select({ n: sql<number>`count(*)` }).from(oauthClientsTable).where(pendingClient).get();
  return Number(row?.n ?? 0);
}

/** A registered client by id. */
export async function getOAuthClient(db: BinderyDb, id: string): Promise<OAuthClientRow | undefined> {
  return db.select().from(oauthClientsTable).where(eq(oauthClientsTable.id, id)).get();
}

/** Stores an authorization code (its hash only). */
export async function insertOAuthCode(db: BinderyDb, row: typeof oauthCodesTable.$inferInsert): Promise<void> {
  await db.insert(oauthCodesTable).values(row);
}

/**
 * Uses a code: marks it used and returns it, or undefined when it is unknown or already used. One
 * statement, so of two racing exchanges exactly one gets the code.
 */
export async function consumeOAuthCode(db: BinderyDb, codeHash: string, now: number): Promise<OAuthCodeRow | undefined> {
  const rows = await db
    .update(oauthCodesTable)
    .set({ usedAt: now })
    .where(and(eq(oauthCodesTable.codeHash, codeHash), isNull(oauthCodesTable.usedAt)))
    .returning();
  return rows[0];
}

type TokenInsert = typeof oauthTokensTable.$inferInsert;

/**
 * Redeems a live code for tokens in one batch: the tokens are written only while the code is unused,
 * and the code is marked used by the same batch. True when this call won; false when another use got
 * there first (then nothing was written). Writing the tokens after a separate "mark used" let a racing
 * replay revoke the family before the winner's tokens existed, so they survived it.
 */
export async function redeemOAuthCode(db: BinderyDb, codeId: string, tokens: TokenInsert[], now: number): Promise<boolean> {
  const unused = sql`EXISTS (SELECT 1 FROM ${oauthCodesTable} WHERE ${oauthCodesTable.id} = ${codeId} AND ${oauthCodesTable.usedAt} IS NULL)`;
  const results = await runBatch(db, [
    ...tokens.map((row) => insertWhere(db, oauthTokensTable, row, unused)),
    db
      .update(oauthCodesTable)
      .set({ usedAt: now })
      .where(and(eq(oauthCodesTable.id, codeId), isNull(oauthCodesTable.usedAt))),
  ]);
  return rowsAffected(results.at(-1)) === 1;
}

/**
 * Rotates a live refresh token in one batch: the new tokens are written only while the old one is live,
 * and the old one is revoked by the same batch. True when this call won; false when it was already
 * revoked (a reuse: nothing was written, and the caller revokes the family, which now includes every
 * token the winner wrote, since the winner's batch has committed).
 */
export async function rotateOAuthRefresh(db: BinderyDb, refreshId: string, tokens: TokenInsert[], now: number): Promise<boolean> {
  const live = sql`EXISTS (SELECT 1 FROM ${oauthTokensTable} WHERE ${oauthTokensTable.id} = ${refreshId} AND ${oauthTokensTable.revokedAt} IS NULL)`;
  const results = await runBatch(db, [
    ...tokens.map((row) => insertWhere(db, oauthTokensTable, row, live)),
    db
      .update(oauthTokensTable)
      .set({ revokedAt: now })
      .where(and(eq(oauthTokensTable.id, refreshId), isNull(oauthTokensTable.revokedAt))),
  ]);
  return rowsAffected(results.at(-1)) === 1;
}

/** A code by hash whatever its state (to tell a replay from an unknown code). */
export async function findOAuthCode(db: BinderyDb, codeHash: string): Promise<OAuthCodeRow | undefined> {
  return db.select().from(oauthCodesTable).where(eq(oauthCodesTable.codeHash, codeHash)).get();
}

/** Stores tokens atomically (an access token and its refresh token arrive together or not at all). */
export async function insertOAuthTokens(db: BinderyDb, rows: (typeof oauthTokensTable.$inferInsert)[]): Promise<void> {
  const [first, ...rest] = rows.map((r) => db.insert(oauthTokensTable).values(r));
  if (first) await db.batch([first, ...rest]);
}

/** A token by hash whatever its state. */
export async function findOAuthToken(db: BinderyDb, tokenHash: string): Promise<OAuthTokenRow | undefined> {
  return db.select().from(oauthTokensTable).where(eq(oauthTokensTable.tokenHash, tokenHash)).get();
}

/** Revokes one live token; false when it was already revoked (one statement: of two racing rotations, one wins). */
export async function revokeOAuthToken(db: BinderyDb, id: string, now: number): Promise<boolean> {
  const rows = await db
    .update(oauthTokensTable)
    .set({ revokedAt: now })
    .where(and(eq(oauthTokensTable.id, id), isNull(oauthTokensTable.revokedAt)))
    .returning({ id: oauthTokensTable.id });
  return rows.length > 0;
}

/** Revokes every live token of a family (one grant: the code and every rotation after it); returns how many. */
export async function revokeOAuthFamily(db: BinderyDb, familyId: string, now: number): Promise<number> {
  const rows = await db
    .update(oauthTokensTable)
    .set({ revokedAt: now })
    .where(and(eq(oauthTokensTable.familyId, familyId), isNull(oauthTokensTable.revokedAt)))
    .returning({ id: oauthTokensTable.id });
  return rows.length;
}

/** The user behind a live access token for `resource`, with its handle (checked on every request). */
export async function liveAccessToken(
  db: BinderyDb,
  tokenHash: string,
  resource: string,
  now: number,
): Promise<{ userId: string; handle: string } | undefined> {
  let query = liveAccessQueries.get(db);
  if (!query) {
    query = db
      .select({ userId: oauthTokensTable.userId, handle: usersTable.handle })
      .from(oauthTokensTable)
      .innerJoin(usersTable, eq(usersTable.id, oauthTokensTable.userId))
      .where(
        and(
          eq(oauthTokensTable.tokenHash, sql.placeholder('hash')),
          eq(oauthTokensTable.kind, 'access'),
          eq(oauthTokensTable.resource, sql.placeholder('resource')),
          isNull(oauthTokensTable.revokedAt),
          gt(oauthTokensTable.expiresAt, sql.placeholder('now')),
        ),
      )
      .prepare();
    liveAccessQueries.set(db, query);
  }
  return (await query.get({ hash: tokenHash, resource, now })) as { userId: string; handle: string } | undefined;
}

const liveAccessQueries = new WeakMap<BinderyDb, { get(params: Record<string, unknown>): Promise<unknown> }>();

/** A user's live grants (one row per family with a live refresh token), newest first, with the client's name. */
export async function listOAuthGrants(db: BinderyDb, userId: string, now: number) {
  return db
    .select({
      familyId: oauthTokensTable.familyId,
      clientId: oauthTokensTable.clientId,
      clientName: oauthClientsTable.name,
      createdAt: oauthTokensTable.createdAt,
    })
    .from(oauthTokensTable)
    .innerJoin(oauthClientsTable, eq(oauthClientsTable.id, oauthTokensTable.clientId))
    .where(
      and(
        eq(oauthTokensTable.userId, userId),
        eq(oauthTokensTable.kind, 'refresh'),
        isNull(oauthTokensTable.revokedAt),
        gt(oauthTokensTable.expiresAt, now),
      ),
    )
    .orderBy(desc(oauthTokensTable.createdAt))
    .all();
}

/** Revokes a family only when it belongs to this user (the grants page); returns how many tokens. */
export async function revokeUserOAuthFamily(db: BinderyDb, userId: string, familyId: string, now: number): Promise<number> {
  const rows = await db
    .update(oauthTokensTable)
    .set({ revokedAt: now })
    .where(and(eq(oauthTokensTable.familyId, familyId), eq(oauthTokensTable.userId, userId), isNull(oauthTokensTable.revokedAt)))
    .returning({ id: oauthTokensTable.id });
  return rows.length;
}
