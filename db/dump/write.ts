import { createHash } from 'node:crypto';
import type { Client } from '@libsql/client';
import { DUMP_FORMAT, type DumpHeader, type DumpTrailer } from './format.ts';
import { snapshotRows, type SnapshotTable } from './snapshot.ts';

export interface DumpProgress {
  /** Called once, before any row, with every table and its row count. */
  start?(tables: SnapshotTable[]): void;
  /** Called after each page with the rows written so far. */
  rows?(done: number): void;
}

/**
 * The dump as text chunks (each a few whole lines), for a caller to write as they come: nothing is
 * held beyond one page. Ends with the trailer (row counts and the SHA-256 of everything before it).
 */
export async function* dumpLines(client: Client, opts: { sessions?: boolean; progress?: DumpProgress } = {}): AsyncGenerator<string> {
  const hash = createHash('sha256');
  const counts: Record<string, number> = {};
  let done = 0;
  const emit = (text: string) => {
    hash.update(text);
    return text;
  };
  for await (const ev of snapshotRows(client, { sessions: opts.sessions })) {
    if (ev.kind === 'start') {
      opts.progress?.start?.(ev.tables);
      const header: DumpHeader = { bindery: 'dump', format: DUMP_FORMAT, schema: ev.schema, sessions: Boolean(opts.sessions) };
      yield emit(`${JSON.stringify(header)}\n`);
    } else if (ev.kind === 'table') {
      counts[ev.table] = 0;
      yield emit(`${JSON.stringify({ table: ev.table, columns: ev.columns })}\n`);
    } else {
      counts[ev.table]! += ev.rows.length;
      done += ev.rows.length;
      yield emit(ev.rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
      opts.progress?.rows?.(done);
    }
  }
  const trailer: DumpTrailer = { end: true, rows: counts, sha256: hash.digest('hex') };
  yield `${JSON.stringify(trailer)}\n`;
}
