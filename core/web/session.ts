import type { BinderyDeps, Caller } from '../context.ts';
import { b64url, constantTimeEqual } from '../encoding.ts';
import { sha256Hex } from '../ids.ts';
import { CSRF_FIELD } from './views/layout.ts';
import { endWebSession, liveSession, loginLinkOpen, openWebSession, storeLoginLink, useLoginLink } from '../services/web-sessions.ts';

// Sign-in for people (the web app, and the OAuth consent page). A one-time login link, printed by
// `bindery login-link --user <handle>` (what self-hosted tools without a mail server do), opens a
// session whose random secret rides in an HttpOnly, SameSite=Lax cookie; only its SHA-256 is stored,
// and it is checked against the database on every request, so sign-out and revocation apply at once.
// Every state-changing form carries the session's CSRF secret (synchronizer token), and the request's
// Origin must be ours: SameSite alone does not cover same-site subdomains or old browsers.

/** How long a login link stays usable. */
export const LOGIN_LINK_TTL_MS = 15 * 60_000;
/** A session ends after this long without a request (sliding). */
export const SESSION_IDLE_MS = 14 * 24 * 3600_000;
/** The expiry slides forward at most this often (one write a minute per session, not per request). */
const TOUCH_EVERY_MS = 60_000;

// The form field that carries the CSRF secret is named where forms are written (views/layout.ts).
export { CSRF_FIELD };

const secret = () => b64url(crypto.getRandomValues(new Uint8Array(32)));
const isSecret = (v: string) => /^[A-Za-z0-9_-]{43}$/.test(v);

/** The session cookie's name: the `__Host-` prefix (no Domain, Path=/, Secure) when served over https. */
export function cookieName(deps: BinderyDeps): string {
  return secure(deps) ? '__Host-bindery_session' : 'bindery_session';
}
const secure = (deps: BinderyDeps) => deps.config.publicUrl.startsWith('https:');

/** Mints a one-time login link for a user; returns the URL to open (shown once) and when it expires. */
export async function createLoginLink(deps: BinderyDeps, userId: string): Promise<{ url: string; expiresAt: number }> {
  const now = deps.now();
  const token = secret();
  const expiresAt = now + LOGIN_LINK_TTL_MS;
  await storeLoginLink(deps.db, userId, await sha256Hex(token), now, expiresAt);
  return { url: `${deps.config.publicUrl}/login/${token}`, expiresAt };
}

/** Whether a login link's token can still sign someone in (for the confirm page; does not use it). */
export async function loginLinkValid(deps: BinderyDeps, token: string): Promise<boolean> {
  return isSecret(token) && loginLinkOpen(deps.db, await sha256Hex(token), deps.now());
}

/**
 * Uses a login link and opens a session: returns the `Set-Cookie` value, or undefined when the link is
 * unknown, used or expired (one use: of two racing uses, one signs in).
 */
export async function signIn(deps: BinderyDeps, token: string): Promise<{ setCookie: string; userId: string } | undefined> {
  if (!isSecret(token)) return undefined;
  const now = deps.now();
  const link = await useLoginLink(deps.db, await sha256Hex(token), now);
  if (!link) return undefined;
  const cookie = secret();
  await openWebSession(deps.db, {
    tokenHash: await sha256Hex(cookie),
    userId: link.userId,
    csrfSecret: secret(),
    now,
    idleMs: SESSION_IDLE_MS,
  });
  return { setCookie: serializeCookie(deps, cookie, SESSION_IDLE_MS / 1000), userId: link.userId };
}

export interface WebUser {
  caller: Caller;
  sessionId: string;
  /** Put in every state-changing form as the `csrf` field. */
  csrf: string;
}

/** The signed-in person behind a request's session cookie, or undefined. */
export async function webUser(deps: BinderyDeps, request: Request): Promise<WebUser | undefined> {
  const token = readCookie(request.headers.get('cookie'), cookieName(deps));
  if (!token || !isSecret(token)) return undefined;
  const now = deps.now();
  const row = await liveSession(deps.db, await sha256Hex(token), now, { idleMs: SESSION_IDLE_MS, touchEveryMs: TOUCH_EVERY_MS });
  if (!row) return undefined;
  return { caller: { id: row.userId, handle: row.handle }, sessionId: row.id, csrf: row.csrfSecret };
}

/**
 * Whether a state-changing request may proceed: its Origin (or, lacking one, Referer) is this server's
 * public origin, and the CSRF secret it carries equals the session's.
 */
export function csrfOk(deps: BinderyDeps, request: Request, user: WebUser, sent: string | null | undefined): boolean {
  const origin = request.headers.get('origin') ?? refererOrigin(request.headers.get('referer'));
  if (origin !== new URL(deps.config.publicUrl).origin) return false;
  return typeof sent === 'string' && constantTimeEqual(sent, user.csrf);
}

/** Ends the session and returns the `Set-Cookie` value that clears the cookie. */
export async function signOut(deps: BinderyDeps, user: WebUser): Promise<string> {
  await endWebSession(deps.db, user.sessionId, deps.now());
  return serializeCookie(deps, '', 0);
}

function serializeCookie(deps: BinderyDeps, value: string, maxAgeSeconds: number): string {
  const parts = [`${cookieName(deps)}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${Math.floor(maxAgeSeconds)}`];
  if (secure(deps)) parts.push('Secure');
  return parts.join('; ');
}

/** One cookie's value from a Cookie header (RFC 6265 §5.4 pairs; the first of a repeated name wins). */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    if (pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

function refererOrigin(referer: string | null): string | null {
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}
