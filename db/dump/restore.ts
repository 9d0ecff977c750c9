import type { Client, InStatement, Transaction } from '@libsql/client';
import type { Database } from '../client.ts';
import { migrate } from '../migrate.ts';
import { migrations } from '../migrations/bundle.ts';
import { rebuildSearchIndex } from '../store/fts.ts';
import { blobBytes, DERIVED_SETTINGS, DUMP_TABLES, DumpError, isBlobValue, SESSION_TABLES, type DumpHeader } from './format.ts';
import { readDump, type DumpEvent } from './read.ts';
import type { RowCheck } from './validate.ts';

export interface RestoreOptions {
  /**
   * Read the whole dump once before touching the database (a re-openable file): a truncated or
   * corrupt dump is then refused without even creating the schema. Without it (a stream read once),
   * the rows are checked as they are written, and the transaction rolls back on any fault.
   */
  verifyFirst?: boolean;
  /** Rules of the running code a row must keep besides the column types (the core's field limits). */
  checkRow?: RowCheck;
  /** Called with the total row count once known (after a verifying pass), then with rows written so far. */
  progress?: { total?(rows: number): void; rows?(done: number): void };
}

export interface RestoreResult {
  header: DumpHeader;
  rows: Record<string, number>;
}

const TAGS = migrations.map((m) => m.tag);
/** Tables that must be empty for a restore; help topics may hold only the bundled seed. */
const MUST_BE_EMPTY = [
  'users',
  'spaces',
  'bindings',
  'versions',
  'sets',
  'set_items',
  'shares',
  'comments',
  'api_keys',
  'oauth_clients',
  'sync_roots',
  'sync_files',
  ...SESSION_TABLES,
];
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Restores a dump into an EMPTY database (a fresh file, `:memory:`, or remote libSQL): refuses a
 * database with data in it, and a truncated, corrupt or newer dump, writing nothing. The rows go in
 * one write transaction that commits only after the trailer's counts and SHA-256 are checked; then
 * the search index is rebuilt from them. Stored token counts are restored as dumped (with the key
 * they were counted for): the caller brings them to its configuration (`ensureCountsCurrent`).
 */
export async function restoreDump(
  database: Database,
  open: () => AsyncIterable<string>,
  opts: RestoreOptions = {},
): Promise<RestoreResult> {
  if (opts.verifyFirst) {
    let total = 0;
    for await (const ev of readDump(open(), TAGS, opts.checkRow))
      if (ev.kind === 'end') total = Object.values(ev.trailer.rows).reduce((a, b) => a + b, 0);
    opts.progress?.total?.(total);
  }
  // The stream is opened once more (a file) or only now (stdin, which cannot be opened twice), and
  // its header read before the database is touched: a newer format or schema writes nothing.
  const events = readDump(open(), TAGS, opts.checkRow);
  const first = await events.next();
  await assertEmpty(database.client).catch(async (err) => {
    await events.return(undefined);
    throw err;
  });
  await migrate(database.db);

  const tx = await database.client.transaction('write');
  const header = first.done ? undefined : (first.value as Extract<DumpEvent, { kind: 'header' }>).header;
  let rows: Record<string, number> = {};
  try {
    // A fresh database holds the seeded help topics and the index-built marker: the dump's own replace them.
    await tx.batch([
      `DELETE FROM help_topics`,
      `DELETE FROM bindings_fts`,
      { sql: `DELETE FROM settings WHERE key IN (${DERIVED_SETTINGS.map(() => '?').join(', ')})`, args: DERIVED_SETTINGS },
    ]);
    let done = 0;
    let insert = '';
    for await (const ev of events) {
      if (ev.kind === 'table') insert = await insertSql(tx, ev.table, ev.columns);
      else if (ev.kind === 'rows') {
        await tx.batch(ev.rows.map((row): InStatement => ({ sql: insert, args: row.map((v) => (isBlobValue(v) ? blobBytes(v) : v)) })));
        done += ev.rows.length;
        opts.progress?.rows?.(done);
      } else if (ev.kind === 'end') rows = ev.trailer.rows;
    }
    await tx.commit();
  } catch (err) {
    await tx.rollback().catch(() => {});
    throw err;
  } finally {
    tx.close();
  }
  try {
    await rebuildSearchIndex(database.db);
  } catch (err) {
    // Every row was checked, so this is not the dump's data (a full disk, a lost connection): the rows
    // go again, so the database is left empty and restorable, never half-usable.
    await emptyRestored(database.client).catch(() => {});
    throw new DumpError(
      `the search index could not be built (${err instanceof Error ? err.message : String(err)}); the restored rows were removed, the database is empty: restore again`,
    );
  }
  return { header: header!, rows };
}

/** The INSERT for one table's rows, after checking that this schema has every dumped column. */
async function insertSql(tx: Transaction, table: string, columns: string[]): Promise<string> {
  const have = new Set((await tx.execute({ sql: `SELECT name FROM pragma_table_info(?)`, args: [table] })).rows.map((r) => String(r[0])));
  const missing = columns.filter((c) => !have.has(c));
  if (missing.length) throw new DumpError(`the dump has ${table}.${missing.join(`, ${table}.`)}, which this schema lacks`);
  const conflict = table === 'settings' ? ' ON CONFLICT (key) DO UPDATE SET value = excluded.value' : '';
  return `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})${conflict}`;
}

/** Removes every restored row (children first) and the search index, in one batch. */
async function emptyRestored(client: Client): Promise<void> {
  const tables = [...DUMP_TABLES, ...SESSION_TABLES].reverse();
  await client.batch([...tables.map((t) => `DELETE FROM ${quote(t)}`), `DELETE FROM bindings_fts`], 'write');
}

/** Refuses a database holding anything but a fresh one's seed (help topics, settings). */
async function assertEmpty(client: Client): Promise<void> {
  const tables = new Set((await client.execute(`SELECT name FROM sqlite_schema WHERE type = 'table'`)).rows.map((r) => String(r[0])));
  const full: string[] = [];
  for (const t of MUST_BE_EMPTY) {
    if (!tables.has(t)) continue;
    const r = await client.execute(`SELECT count(*) FROM ${quote(t)}`);
    if (Number(r.rows[0]![0]) > 0) full.push(`${t} (${Number(r.rows[0]![0])})`);
  }
  if (tables.has('help_topics')) {
    const cols = (await client.execute(`SELECT name FROM pragma_table_info('help_topics')`)).rows.map((r) => String(r[0]));
    if (cols.includes('origin')) {
      const r = await client.execute(`SELECT count(*) FROM help_topics WHERE origin != 'seed'`);
      if (Number(r.rows[0]![0]) > 0) full.push(`help_topics set with bindery help set (${Number(r.rows[0]![0])})`);
    }
  }
  if (full.length)
    throw new DumpError(`the target database is not empty (${full.join(', ')}); restore only into an empty database, nothing was written`);
}
