import type { BinderyDb } from '../../db/types.ts';
import {
  consumeLoginLink,
  insertLoginLink,
  insertWebSession,
  liveWebSession,
  loginLinkUsable,
  pruneWebSessions,
  revokeWebSession,
  touchWebSession,
  type LiveWebSession,
} from '../../db/store/web-sessions.ts';
import { newId } from '../ids.ts';

// The stored side of people's sign-in (core/web/session.ts has the cookies, CSRF and the rules): login
// links and sessions are found only by the SHA-256 of their secret, never by the secret itself.

/** Stores a one-time login link for a user (the hash of its token only). */
export function storeLoginLink(db: BinderyDb, userId: string, tokenHash: string, now: number, expiresAt: number): Promise<void> {
  return insertLoginLink(db, { id: newId('lnk'), tokenHash, userId, createdAt: now, expiresAt });
}

/** Whether a login link is unused and unexpired (does not use it). */
export function loginLinkOpen(db: BinderyDb, tokenHash: string, now: number): Promise<boolean> {
  return loginLinkUsable(db, tokenHash, now);
}

/** Uses a login link: its user, or undefined when unknown, used or expired (of two racing uses, one wins). */
export function useLoginLink(db: BinderyDb, tokenHash: string, now: number): Promise<{ userId: string } | undefined> {
  return consumeLoginLink(db, tokenHash, now);
}

/** Stores a new web session (the hash of its cookie secret, and its CSRF secret) ending after `idleMs` without use. */
export function openWebSession(
  db: BinderyDb,
  s: { tokenHash: string; userId: string; csrfSecret: string; now: number; idleMs: number },
): Promise<void> {
  return insertWebSession(db, {
    id: newId('wss'),
    tokenHash: s.tokenHash,
    userId: s.userId,
    csrfSecret: s.csrfSecret,
    createdAt: s.now,
    lastSeenAt: s.now,
    expiresAt: s.now + s.idleMs,
  });
}

/**
 * The live session whose cookie hashes to `tokenHash`, or undefined. Its expiry slides to `idleMs`
 * from now, written at most once every `touchEveryMs`.
 */
export async function liveSession(
  db: BinderyDb,
  tokenHash: string,
  now: number,
  slide: { idleMs: number; touchEveryMs: number },
): Promise<LiveWebSession | undefined> {
  const row = await liveWebSession(db, tokenHash, now);
  if (row && now - row.lastSeenAt > slide.touchEveryMs) await touchWebSession(db, row.id, now, now + slide.idleMs);
  return row;
}

/** Ends a session at once (sign-out). */
export function endWebSession(db: BinderyDb, id: string, now: number): Promise<void> {
  return revokeWebSession(db, id, now);
}

/** Removes sign-ins (sessions and login links) that ended before `before`: start-up upkeep. */
export function pruneSignIns(db: BinderyDb, before: number): Promise<void> {
  return pruneWebSessions(db, before);
}
