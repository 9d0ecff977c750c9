// The logical dump format (`bindery dump`), shared by the writer, the reader and the SQL form.
//
// JSON Lines, UTF-8, one value per line:
//   {"bindery":"dump","format":1,"schema":"0007_web_oauth","sessions":false}      header
//   {"table":"users","columns":["id","handle","created_at"]}                         a table begins
//   ["usr_…","alice",1759276800000]                                                  one row, in column order
//   …
//   {"end":true,"rows":{"users":2,…},"sha256":"…"}                                   trailer
// The trailer's SHA-256 covers every byte before it (header included), so a truncated file (no
// trailer) and an edited or damaged one (hash or counts differ) are both refused. Tables come
// parents first (foreign keys hold at every row), rows in rowid order (insertion order, which a
// restore reproduces), so dump → restore → dump is byte-identical.

/** Bumped when a reader of an older format could not restore what this writer writes. */
export const DUMP_FORMAT = 1;

/** Tables written, parents first. Everything a person or a client made, and the secrets' hashes; the sync state too (which folder pairs with which space, and what each file held when last in step), so a moved database keeps syncing without a conflict or a duplicate. */
export const DUMP_TABLES = [
  'users',
  'spaces',
  'bindings',
  'versions',
  'binding_vectors',
  'sets',
  'set_items',
  'shares',
  'comments',
  'help_topics',
  'api_keys',
  'settings',
  'oauth_clients',
  'sync_roots',
  'sync_files',
] as const;

/**
 * Live sign-ins, written only with `--with-sessions`: web sessions, one-time login links, OAuth codes
 * and access/refresh tokens. Left out by default because they belong to a running deployment: they
 * expire within minutes to weeks, a dump is kept longer than that, and moving stores is a natural
 * moment to sign everyone out (people sign in again; OAuth clients keep their registration, which is
 * dumped, and authorize again). Only their SHA-256 hashes are stored, so including them exposes no
 * usable secret either way.
 */
export const SESSION_TABLES = ['login_links', 'web_sessions', 'oauth_codes', 'oauth_tokens'] as const;

/** Never written: the migration ledger (restore migrates), the search index and SQLite's own tables (rebuilt). */
export const DERIVED_TABLE = /^(__bindery_migrations$|bindings_fts($|_)|sqlite_|_cf_|d1_)/;

/** Settings rows that are derived data (markers of a rebuild): left out, so a restore rebuilds. */
export const DERIVED_SETTINGS = ['fts_v2_built', 'fts_v2_progress'];

export interface DumpHeader {
  bindery: 'dump';
  format: number;
  /** The last schema migration applied to the dumped database. */
  schema: string;
  sessions: boolean;
}

export interface DumpTrailer {
  end: true;
  rows: Record<string, number>;
  sha256: string;
}

/** A dump that cannot be restored: truncated, corrupt, from a newer Bindery, or a target that is not empty. */
export class DumpError extends Error {
  override name = 'DumpError';
}

/**
 * A value as it appears in a row: SQLite's text, integer, real and NULL, and a blob (only embedding
 * vectors are blobs) as `{"blob": base64}`: vectors came from a paid or slow provider, so a dump keeps them.
 */
export type DumpValue = string | number | null | { blob: string };

/** True for a JSON value that is a dumped blob. */
export function isBlobValue(v: unknown): v is { blob: string } {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.keys(v).length === 1 &&
    typeof (v as { blob?: unknown }).blob === 'string'
  );
}

/** A dumped blob's bytes. */
export function blobBytes(v: { blob: string }): Uint8Array {
  return Uint8Array.from(atob(v.blob), (c) => c.charCodeAt(0));
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Checks and converts one value read from the database. */
export function dumpValue(value: unknown, where: string): DumpValue {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'bigint' && value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER) return Number(value);
  if (value instanceof ArrayBuffer) return { blob: toBase64(new Uint8Array(value)) };
  if (value instanceof Uint8Array) return { blob: toBase64(value) };
  throw new DumpError(`${where}: a value of type ${typeof value} cannot be dumped (text, numbers, blobs and NULL only)`);
}
