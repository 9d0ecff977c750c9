import { fail } from './errors.ts';
import type { BinderyDb } from '../db/types.ts';
import { b64url, fromB64url } from './encoding.ts';
import { databaseSecret } from './services/secrets.ts';

const keys = new WeakMap<object, Promise<CryptoKey>>();

/** The database's cursor-signing key (a random secret kept in settings), imported once per db. */
function signingKey(db: BinderyDb): Promise<CryptoKey> {
  let key = keys.get(db);
  if (!key) {
    key = databaseSecret(db, 'cursor_secret').then((secret) =>
      crypto.subtle.importKey('raw', fromB64url(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']),
    );
    keys.set(db, key);
  }
  return key;
}

/** What a cursor remembers: which listing it belongs to and where the next page starts. */
export interface CursorState {
  scope: string;
  offset: number;
}

/** The signature of a listing's position: the first 12 bytes of HMAC-SHA-256 over [scope, offset]. */
async function signature(db: BinderyDb, scope: string, offset: number): Promise<Uint8Array> {
  const body = new TextEncoder().encode(JSON.stringify([scope, offset]));
  return new Uint8Array(await crypto.subtle.sign('HMAC', await signingKey(db), body)).slice(0, 12);
}

/**
 * An opaque, signed cursor: a client cannot forge one or reuse it for another query. It carries the
 * offset (base 36) and a signature over the listing's scope and that offset, not the scope itself:
 * the scope holds the query, and a cursor that spelled it out cost a long question ~60 tokens in every
 * paging line (a tier-0 page is 900 tokens). The reader knows its scope and checks the signature.
 */
export async function issueCursor(db: BinderyDb, state: CursorState): Promise<string> {
  return `${state.offset.toString(36)}~${b64url(await signature(db, state.scope, state.offset))}`;
}

/** Reads a cursor this server issued for `scope`; anything else is an INVALID_INPUT naming `cursor`. */
export async function readCursor(db: BinderyDb, cursor: string | undefined, scope: string): Promise<number> {
  if (cursor === undefined || cursor === '') return 0;
  const bad = () =>
    fail.invalid(
      'cursor',
      'was not issued by this server for this listing; pass the nextCursor of the previous page, or omit it for the first page',
    );
  const short = /^([0-9a-z]{1,10})~([A-Za-z0-9_-]{16})$/.exec(cursor);
  if (short) {
    const offset = parseInt(short[1]!, 36);
    if (!Number.isSafeInteger(offset) || !same(fromB64url(short[2]!), await signature(db, scope, offset))) throw bad();
    return offset;
  }
  // The earlier form (base64 of [scope, offset], a dot, the signature), still read for cursors issued before.
  const [bodyPart, sigPart] = cursor.split('.');
  if (!bodyPart || !sigPart) throw bad();
  let body: Uint8Array<ArrayBuffer>;
  let sig: Uint8Array;
  try {
    body = fromB64url(bodyPart);
    sig = fromB64url(sigPart);
  } catch {
    throw bad();
  }
  const expected = new Uint8Array(await crypto.subtle.sign('HMAC', await signingKey(db), body)).slice(0, 12);
  if (!same(sig, expected)) throw bad();
  let state: unknown;
  try {
    state = JSON.parse(new TextDecoder().decode(body));
  } catch {
    throw bad();
  }
  const [s, offset] = Array.isArray(state) ? (state as [unknown, unknown]) : [];
  if (s !== scope || !Number.isInteger(offset) || (offset as number) < 0) throw bad();
  return offset as number;
}

/** Constant-time comparison of two signatures. */
function same(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i]!;
  return diff === 0;
}

/** Pagination block for `_meta.context` plus the cursor for the next page, if any. */
export async function paginate(db: BinderyDb, scope: string, offset: number, shown: number, total: number) {
  const hasMore = offset + shown < total;
  const nextCursor = hasMore ? await issueCursor(db, { scope, offset: offset + shown }) : null;
  return { total, hasMore, nextCursor };
}
