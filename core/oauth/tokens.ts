import { insertOAuthTokens, liveAccessToken } from '../services/oauth.ts';
import type { BinderyDb } from '../../db/types.ts';
import type { Caller } from '../context.ts';
import { b64url, constantTimeEqual } from '../encoding.ts';
import { newId, sha256Hex } from '../ids.ts';

// Tokens are opaque random strings, stored only as their SHA-256, like API keys. Not JWTs: this
// server is its own authorization server, and every request must see a revocation at once, so each
// request reads the token's row anyway; a signature would add key management and buy nothing.
// Prefixes tell the kinds apart (and let secret scanners find leaked ones): `bda_` access, `bdr_`
// refresh, `bdc_` authorization code.

/** An access token lives an hour; the client refreshes it. */
export const ACCESS_TTL_MS = 3600_000;
/** A refresh token lives 30 days; each use replaces it. */
export const REFRESH_TTL_MS = 30 * 24 * 3600_000;
/** An authorization code must be exchanged within five minutes. */
export const CODE_TTL_MS = 5 * 60_000;

const SECRET_RE = /^[A-Za-z0-9_-]{43}$/;

/** A new opaque secret with a kind prefix (256 random bits). */
export const newSecret = (prefix: 'bda' | 'bdr' | 'bdc'): string => `${prefix}_${b64url(crypto.getRandomValues(new Uint8Array(32)))}`;

/** Whether a string has the shape of one of our secrets of this kind (anything else is never looked up). */
export function isSecret(prefix: 'bda' | 'bdr' | 'bdc', value: string): boolean {
  return value.startsWith(`${prefix}_`) && SECRET_RE.test(value.slice(4));
}

export interface Grant {
  familyId: string;
  clientId: string;
  userId: string;
  resource: string;
  scope: string | null;
}

/** The RFC 6749 §5.1 token response body. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

type TokenRow = Parameters<typeof insertOAuthTokens>[1][number];

/** A fresh access and refresh token for a grant: the rows to store (hashes only) and the answer to send. */
export async function mintTokens(grant: Grant, now: number): Promise<{ rows: TokenRow[]; response: TokenResponse }> {
  const access = newSecret('bda');
  const refresh = newSecret('bdr');
  const common = {
    familyId: grant.familyId,
    clientId: grant.clientId,
    userId: grant.userId,
    resource: grant.resource,
    scope: grant.scope,
    createdAt: now,
  };
  const rows: TokenRow[] = [
    { ...common, id: newId('oat'), tokenHash: await sha256Hex(access), kind: 'access', expiresAt: now + ACCESS_TTL_MS },
    { ...common, id: newId('ort'), tokenHash: await sha256Hex(refresh), kind: 'refresh', expiresAt: now + REFRESH_TTL_MS },
  ];
  return { rows, response: { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TTL_MS / 1000, refresh_token: refresh } };
}

/** Issues an access token and a refresh token for a grant, stored (hashed) in one batch. */
export async function issueTokens(db: BinderyDb, grant: Grant, now: number): Promise<TokenResponse> {
  const { rows, response } = await mintTokens(grant, now);
  await insertOAuthTokens(db, rows);
  return response;
}

/**
 * The caller a bearer access token stands for at `resource`, or undefined when it is malformed,
 * unknown, expired, revoked or bound to another resource. Read from the database on every request.
 */
export async function callerForAccessToken(db: BinderyDb, token: string, resource: string, now: number): Promise<Caller | undefined> {
  if (!isSecret('bda', token)) return undefined;
  const row = await liveAccessToken(db, await sha256Hex(token), resource, now);
  return row ? { id: row.userId, handle: row.handle } : undefined;
}

/** PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA-256(ASCII(verifier))) equals the challenge. */
export async function pkceMatches(verifier: string, challenge: string): Promise<boolean> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return constantTimeEqual(b64url(new Uint8Array(digest)), challenge);
}

/** RFC 7636 §4.1: 43–128 unreserved characters. */
export const VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/;
/** An S256 challenge: 43 base64url characters. */
export const CHALLENGE_RE = /^[A-Za-z0-9_-]{43}$/;
