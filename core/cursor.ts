import { fail } from './errors.ts';
import type { BinderyDb } from '../db/types.ts';
import { getOrCreateSetting } from '../db/store/settings.ts';
import { b64url, fromB64url } from './encoding.ts';

const keys = new WeakMap<object, Promise<CryptoKey>>();

/** The database's cursor-signing key (a random secret kept in settings), imported once per db. */
function signingKey(db: BinderyDb): Promise<CryptoKey> {
  let key = keys.get(db);
  if (!key) {
    key = getOrCreateSetting(db, 'cursor_secret', () => b64url(crypto.getRandomValues(new Uint8Array(32)))).then((secret) =>
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

/** An opaque, signed cursor: a client cannot forge one or reuse it for another query. */
export async function issueCursor(db: BinderyDb, state: CursorState): Promise<string> {
  const body = new TextEncoder().encode(JSON.stringify([state.scope, state.offset]));
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', await signingKey(db), body));
  return `${b64url(body)}.${b64url(sig.slice(0, 12))}`;
}

/** Reads a cursor this server issued for `scope`; anything else is an INVALID_INPUT naming `cursor`. */
export async function readCursor(db: BinderyDb, cursor: string | undefined, scope: string): Promise<number> {
  if (cursor === undefined || cursor === '') return 0;
  const bad = () => fail.invalid('cursor', 'was not issued by this server for this listing; pass the nextCursor of the previous page, or omit it for the first page');
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
  let diff = sig.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (sig[i] ?? 0) ^ expected[i]!;
  if (diff !== 0) throw bad();
  const [s, offset] = JSON.parse(new TextDecoder().decode(body)) as [string, number];
  if (s !== scope || !Number.isInteger(offset) || offset < 0) throw bad();
  return offset;
}

/** Pagination block for `_meta.context` plus the cursor for the next page, if any. */
export async function paginate(db: BinderyDb, scope: string, offset: number, shown: number, total: number) {
  const hasMore = offset + shown < total;
  const nextCursor = hasMore ? await issueCursor(db, { scope, offset: offset + shown }) : null;
  return { total, hasMore, nextCursor };
}
