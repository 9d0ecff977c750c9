import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { loginLinksTable, usersTable, webSessionsTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';

/** Stores a one-time login link (its hash only). */
export async function insertLoginLink(db: BinderyDb, row: typeof loginLinksTable.$inferInsert): Promise<void> {
  await db.insert(loginLinksTable).values(row);
}

/**
 * Uses a login link: marks it used and returns its user, or undefined when it is unknown, used or
 * expired. One statement, so of two racing uses exactly one signs in.
 */
export async function consumeLoginLink(db: BinderyDb, tokenHash: string, now: number): Promise<{ userId: string } | undefined> {
  const rows = await db
    .update(loginLinksTable)
    .set({ usedAt: now })
    .where(and(eq(loginLinksTable.tokenHash, tokenHash), isNull(loginLinksTable.usedAt), gt(loginLinksTable.expiresAt, now)))
    .returning({ userId: loginLinksTable.userId });
  return rows[0];
}

/** Whether a login link is still usable (shown before the person confirms; does not use it). */
export async function loginLinkUsable(db: BinderyDb, tokenHash: string, now: number): Promise<boolean> {
  const row = await db
    .select({ id: loginLinksTable.id })
    .from(loginLinksTable)
    .where(and(eq(loginLinksTable.tokenHash, tokenHash), isNull(loginLinksTable.usedAt), gt(loginLinksTable.expiresAt, now)))
    .get();
  return !!row;
}

/** Stores a web session (the cookie secret's hash only). */
export async function insertWebSession(db: BinderyDb, row: typeof webSessionsTable.$inferInsert): Promise<void> {
  await db.insert(webSessionsTable).values(row);
}

export interface LiveWebSession {
  id: string;
  userId: string;
  handle: string;
  csrfSecret: string;
  expiresAt: number;
  lastSeenAt: number;
}

/** A live (unrevoked, unexpired) session by its cookie hash, with its user's handle. */
export async function liveWebSession(db: BinderyDb, tokenHash: string, now: number): Promise<LiveWebSession | undefined> {
  return db
    .select({
      id: webSessionsTable.id,
      userId: webSessionsTable.userId,
      handle: usersTable.handle,
      csrfSecret: webSessionsTable.csrfSecret,
      expiresAt: webSessionsTable.expiresAt,
      lastSeenAt: webSessionsTable.lastSeenAt,
    })
    .from(webSessionsTable)
    .innerJoin(usersTable, eq(usersTable.id, webSessionsTable.userId))
    .where(and(eq(webSessionsTable.tokenHash, tokenHash), isNull(webSessionsTable.revokedAt), gt(webSessionsTable.expiresAt, now)))
    .get();
}

/** Slides a session's expiry forward (done at most once a minute per session by the caller). */
export async function touchWebSession(db: BinderyDb, id: string, now: number, expiresAt: number): Promise<void> {
  await db.update(webSessionsTable).set({ lastSeenAt: now, expiresAt }).where(eq(webSessionsTable.id, id));
}

/** Ends a session (sign-out). */
export async function revokeWebSession(db: BinderyDb, id: string, now: number): Promise<void> {
  await db
    .update(webSessionsTable)
    .set({ revokedAt: now })
    .where(and(eq(webSessionsTable.id, id), isNull(webSessionsTable.revokedAt)));
}

/** Removes expired sessions and links older than `before` (upkeep). */
export async function pruneWebSessions(db: BinderyDb, before: number): Promise<void> {
  await db.batch([
    db.delete(webSessionsTable).where(sql`${webSessionsTable.expiresAt} < ${before} OR ${webSessionsTable.revokedAt} < ${before}`),
    db.delete(loginLinksTable).where(sql`${loginLinksTable.expiresAt} < ${before}`),
  ]);
}
