import type { Client, Transaction } from '@libsql/client';
import { DERIVED_SETTINGS, DERIVED_TABLE, DUMP_TABLES, DumpError, dumpValue, SESSION_TABLES, type DumpValue } from './format.ts';

/** Rows read per query: memory stays flat however large the database (a page is a few hundred KB). */
const PAGE = 256;

export interface SnapshotTable {
  table: string;
  columns: string[];
  rows: number;
}

export type SnapshotEvent =
  | { kind: 'start'; schema: string; tables: SnapshotTable[] }
  | { kind: 'table'; table: string; columns: string[] }
  | { kind: 'rows'; table: string; rows: DumpValue[][] };

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Reads every dumped table inside ONE read transaction (a consistent snapshot while a server writes
 * beside it: WAL on an embedded file, `transaction('read')` on remote libSQL), page by page in rowid
 * order. Refuses a database holding a table this format does not know, rather than leave it out.
 */
export async function* snapshotRows(client: Client, opts: { sessions?: boolean } = {}): AsyncGenerator<SnapshotEvent> {
  const tx: Transaction = await client.transaction('read');
  try {
    const q = async (sql: string, args: (string | number)[] = []) => (await tx.execute({ sql, args })).rows;
    const names = (await q(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)).map((r) => String(r[0]));
    const known = new Set<string>([...DUMP_TABLES, ...SESSION_TABLES]);
    const unknown = names.filter((n) => !known.has(n) && !DERIVED_TABLE.test(n));
    if (unknown.length)
      throw new DumpError(`table ${unknown.join(', ')} is not known to this version of bindery dump; nothing was written`);
    const ledger = await q(`SELECT max(tag) FROM __bindery_migrations`).catch(() => []);
    const schema = ledger[0]?.[0];
    if (typeof schema !== 'string') throw new DumpError('the database is not migrated (no migration ledger): run bindery migrate first');
    const wanted = [...DUMP_TABLES, ...(opts.sessions ? SESSION_TABLES : [])].filter((t) => names.includes(t));
    const filter = (t: string) => (t === 'settings' ? ` WHERE key NOT IN (${DERIVED_SETTINGS.map(() => '?').join(', ')})` : '');
    const filterArgs = (t: string) => (t === 'settings' ? DERIVED_SETTINGS : []);
    const tables: SnapshotTable[] = [];
    for (const table of wanted) {
      const columns = (await q(`SELECT name FROM pragma_table_info(?) ORDER BY cid`, [table])).map((r) => String(r[0]));
      const count = await q(`SELECT count(*) FROM ${quote(table)}${filter(table)}`, filterArgs(table));
      tables.push({ table, columns, rows: Number(count[0]![0]) });
    }
    yield { kind: 'start', schema, tables };
    for (const { table, columns } of tables) {
      yield { kind: 'table', table, columns };
      const select = `SELECT rowid, ${columns.map(quote).join(', ')} FROM ${quote(table)} WHERE rowid > ?${filter(table).replace(' WHERE', ' AND')} ORDER BY rowid LIMIT ${PAGE}`;
      for (let after = -Infinity; ; ) {
        const page = await q(select, [after === -Infinity ? Number.MIN_SAFE_INTEGER : after, ...filterArgs(table)]);
        if (!page.length) break;
        after = Number(page[page.length - 1]![0]);
        yield { kind: 'rows', table, rows: page.map((r) => columns.map((c, i) => dumpValue(r[i + 1], `${table}.${c}`))) };
        if (page.length < PAGE) break;
      }
    }
  } finally {
    await tx.rollback().catch(() => {});
    tx.close();
  }
}
