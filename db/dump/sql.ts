import type { Client } from '@libsql/client';
import { headingsOf } from '../store/fts-headings.ts';
import { blobBytes, DUMP_FORMAT, type DumpValue } from './format.ts';
import { snapshotRows } from './snapshot.ts';
import type { DumpProgress } from './write.ts';

// The dump as SQL for Cloudflare D1 (`bindery dump --sql`), applied with
// `wrangler d1 execute <db> --file dump.sql` to a D1 database migrated with db/migrations/*.sql and
// still empty. D1 takes plain INSERTs, no BEGIN/COMMIT (wrangler runs the file as one batch), and
// caps a statement at 100 KB: a long text is inserted empty and appended in chunks well under it.
// The search index is written too (D1 has no `bindery migrate` to rebuild it), one row per live
// binding, from the restored version row, with its headings computed here.

/** UTF-16 units per literal chunk: ≤ 3 bytes each, doubled quotes at worst, well under D1's 100 KB. */
const CHUNK = 15_000;
/** Tables whose long texts may need chunks, with their key column. */
const KEYED: Record<string, string> = {
  versions: 'id',
  comments: 'id',
  help_topics: 'topic',
  bindings: 'id',
  settings: 'key',
  oauth_clients: 'id',
};

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const literal = (v: DumpValue): string =>
  v === null
    ? 'NULL'
    : typeof v === 'number'
      ? String(v)
      : typeof v === 'object'
        ? `X'${hex(blobBytes(v))}'`
        : `'${v.replace(/'/g, "''")}'`;

/** Splits a text into chunks that never cut a surrogate pair. */
function chunks(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + CHUNK);
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/** SQL statements for one row: an INSERT, then UPDATEs appending any text longer than a chunk. */
function rowSql(table: string, columns: string[], row: DumpValue[]): string {
  const long = row.map((v, i) => typeof v === 'string' && v.length > CHUNK && KEYED[table] !== undefined && columns[i] !== KEYED[table]);
  const values = row.map((v, i) => (long[i] ? "''" : literal(v)));
  // A D1 database that has served a request may hold its own settings (the cursor secret): the dump's win.
  const conflict = table === 'settings' ? ' ON CONFLICT (key) DO UPDATE SET value = excluded.value' : '';
  let out = `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES (${values.join(', ')})${conflict};\n`;
  if (long.some(Boolean)) {
    const key = KEYED[table]!;
    const where = ` WHERE ${quote(key)} = ${literal(row[columns.indexOf(key)]!)};\n`;
    row.forEach((v, i) => {
      if (!long[i]) return;
      for (const part of chunks(v as string))
        out += `UPDATE ${quote(table)} SET ${quote(columns[i]!)} = ${quote(columns[i]!)} || ${literal(part)}${where}`;
    });
  }
  return out;
}

/** The statement indexing a live binding's current version, from its restored row. */
function ftsSql(bindingId: string, versionId: string, content: string): string {
  const headings = headingsOf(content).slice(0, CHUNK);
  return `INSERT INTO bindings_fts (rowid, name, summary, key_points, headings, content) SELECT b.rowid, v.name, v.summary, (SELECT group_concat(value, char(10)) FROM json_each(v.key_points)), ${literal(headings)}, v.content FROM bindings b JOIN versions v ON v.binding_id = b.id WHERE b.id = ${literal(bindingId)} AND v.id = ${literal(versionId)};\n`;
}

/** The dump as SQL text chunks, from the same one-transaction snapshot as the JSON Lines form. */
export async function* dumpSql(client: Client, opts: { sessions?: boolean; progress?: DumpProgress } = {}): AsyncGenerator<string> {
  // Live bindings' current version numbers (bindings come before versions), to index each one once.
  const current = new Map<string, number>();
  let done = 0;
  let columns: string[] = [];
  for await (const ev of snapshotRows(client, { sessions: opts.sessions })) {
    if (ev.kind === 'start') {
      opts.progress?.start?.(ev.tables);
      yield `-- Bindery dump, format ${DUMP_FORMAT}, schema ${ev.schema}: for an empty D1 database migrated with db/migrations/*.sql\n-- apply with: wrangler d1 execute <database> --file <this file>\nDELETE FROM help_topics;\nDELETE FROM bindings_fts;\n`;
    } else if (ev.kind === 'table') {
      columns = ev.columns;
      yield `-- ${ev.table}\n`;
    } else {
      let text = '';
      for (const row of ev.rows) {
        text += rowSql(ev.table, columns, row);
        if (ev.table === 'bindings') {
          const get = (c: string) => row[columns.indexOf(c)];
          if (get('deleted_at') === null) current.set(get('id') as string, get('current_version') as number);
        } else if (ev.table === 'versions') {
          const get = (c: string) => row[columns.indexOf(c)];
          const binding = get('binding_id') as string;
          if (current.get(binding) === get('number')) text += ftsSql(binding, get('id') as string, get('content') as string);
        }
      }
      done += ev.rows.length;
      yield text;
      opts.progress?.rows?.(done);
    }
  }
  yield `INSERT INTO settings (key, value) VALUES ('fts_v2_built', '1') ON CONFLICT (key) DO NOTHING;\n`;
}
