import type { BinderyDb } from '../../db/types.ts';
import type { Caller } from '../context.ts';
import { b64url, constantTimeEqual, randomIdChars } from '../encoding.ts';
import { sha256Hex } from '../ids.ts';
import { callerForAccessToken } from '../oauth/tokens.ts';
import { liveKey, storeApiKey } from '../services/api-keys.ts';

/**
 * API keys look like `bdk_<16 id chars>_<43 secret chars>`: the id part finds the row, the SHA-256 of
 * the whole key is compared in constant time. Only the hash is stored.
 */
const KEY_RE = /^bdk_([0-9a-z]{16})_([A-Za-z0-9_-]{43})$/;

/** Reserved caller for requests without a key: owns nothing, so it reads only public things. */
export const ANONYMOUS: Caller = { id: 'anonymous', handle: 'anonymous' };

/** A fresh key, its row id and the SHA-256 to store (for `keys create --print-sql`, which writes no row itself). */
export async function mintApiKey(): Promise<{ id: string; key: string; keyHash: string }> {
  const idPart = randomIdChars(16);
  const key = `bdk_${idPart}_${b64url(crypto.getRandomValues(new Uint8Array(32)))}`;
  return { id: `key_${idPart}`, key, keyHash: await sha256Hex(key) };
}

/** Mints a key for a user: returns the key (shown once) and its id; stores only the hash. */
export async function createApiKey(db: BinderyDb, userId: string, now: number, label?: string): Promise<{ id: string; key: string }> {
  const { id, key, keyHash } = await mintApiKey();
  await storeApiKey(db, { id, userId, keyHash, label: label ?? null, createdAt: now });
  return { id, key };
}

const DUMMY_HASH = '0'.repeat(64);

/**
 * SHA-256 of recently seen keys (Web Crypto's digest is a measurable share of a cheap request).
 * Only the hashing is memoised: every request still checks the key's row, so revocation is immediate.
 */
const hashes = new Map<string, string>();
async function keyHash(key: string): Promise<string> {
  let hash = hashes.get(key);
  if (hash === undefined) {
    hash = await sha256Hex(key);
    if (hashes.size >= 1024) hashes.clear();
    hashes.set(key, hash);
  }
  return hash;
}

/** The caller a bearer key stands for, or undefined for a malformed, unknown or revoked key. */
export async function callerForKey(db: BinderyDb, key: string): Promise<Caller | undefined> {
  const m = KEY_RE.exec(key);
  const hash = m ? await keyHash(key) : await sha256Hex(key);
  const row = m ? await liveKey(db, `key_${m[1]}`) : undefined;
  const match = constantTimeEqual(hash, row?.keyHash ?? DUMMY_HASH);
  return row && match ? { id: row.userId, handle: row.handle } : undefined;
}

export type AuthResult = { kind: 'none' } | { kind: 'bad' } | { kind: 'ok'; caller: Caller };

/**
 * Reads `Authorization: Bearer <key>`: none given, a bad one, or the caller. With `oauth`, a live
 * OAuth access token (`bda_…`) bound to that resource is accepted too; static `bdk_` keys always are.
 */
export async function authenticate(db: BinderyDb, request: Request, oauth?: { resource: string; now: number }): Promise<AuthResult> {
  const header = request.headers.get('authorization');
  if (header === null) return { kind: 'none' };
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!m) return { kind: 'bad' };
  const caller = m[1]!.startsWith('bda_')
    ? oauth && (await callerForAccessToken(db, m[1]!, oauth.resource, oauth.now))
    : await callerForKey(db, m[1]!);
  return caller ? { kind: 'ok', caller } : { kind: 'bad' };
}
