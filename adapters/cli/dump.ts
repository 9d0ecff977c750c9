// `bindery dump <file>` (`-`: stdout) writes a logical, full-fidelity dump of BINDERY_DB_URL (format:
// db/dump/format.ts), from one read transaction, streamed page by page. `--sql` writes it as INSERT
// statements for Cloudflare D1 (`wrangler d1 execute --file`); `--with-sessions` includes live sign-ins.
// A file is written beside its name and renamed when complete, so a killed dump leaves no partial file.
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { dumpLines, type DumpProgress } from '../../db/dump/write.ts';
import { dumpSql } from '../../db/dump/sql.ts';
import { openRuntime } from '../runtime.ts';
import { createProgress, type ProgressSink } from './progress.ts';
import { parseCommand, usageError } from './args.ts';

const USAGE = 'usage: bindery dump <file>|- [--sql] [--with-sessions]';

/**
 * The shared progress display (./progress.ts) fed absolute row counts, as the dump and restore code
 * report them. Its summary goes to stderr: stdout may be carrying the dump itself (`-`).
 */
export function rowProgress(sink: ProgressSink = process.stderr, now: () => number = () => performance.now()) {
  const started = now();
  const progress = createProgress({ unit: 'rows', sink, summarySink: sink, now });
  let seen = 0;
  return {
    total: (n: number) => progress.setTotal(n),
    update(n: number) {
      progress.tick(n - seen);
      seen = n;
    },
    /** Clears the line and prints the summary with the time taken and the rate. */
    finish(summary: string) {
      const seconds = Math.max(0.001, (now() - started) / 1000);
      progress.done(`${summary} in ${seconds.toFixed(1)} s (${Math.round(seen / seconds).toLocaleString('en-US')} rows/s)`);
    },
  };
}

/** Writes chunks to a stream, waiting whenever it asks (memory stays flat on a slow disk or pipe). */
async function pipeTo(chunks: AsyncIterable<string>, out: Writable): Promise<void> {
  for await (const chunk of chunks) {
    if (!out.write(chunk)) await new Promise<void>((resolve, reject) => out.once('drain', resolve).once('error', reject));
  }
}

export async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('dump', USAGE, args, { sql: { type: 'boolean' }, 'with-sessions': { type: 'boolean' } });
  if (positionals.length !== 1)
    usageError('dump', USAGE, positionals.length ? `unexpected argument "${positionals[1]}"` : 'give the file to write, or - for stdout');
  const target = positionals[0]!;
  const { database } = await openRuntime();
  const progress = rowProgress();
  let tables: { table: string; rows: number }[] = [];
  const hooks: DumpProgress = {
    start: (t) => {
      tables = t;
      progress.total(t.reduce((a, b) => a + b.rows, 0));
    },
    rows: (n) => progress.update(n),
  };
  const opts = { sessions: values['with-sessions'] === true, progress: hooks };
  const chunks = values.sql ? dumpSql(database.client, opts) : dumpLines(database.client, opts);
  const partial = `${target}.partial`;
  try {
    if (target === '-') await pipeTo(chunks, process.stdout);
    else {
      const out = createWriteStream(partial);
      await pipeTo(chunks, out);
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
      renameSync(partial, target);
    }
  } catch (err) {
    if (target !== '-') rmSync(partial, { force: true });
    throw err;
  } finally {
    database.close();
  }
  const count = (t: string) => tables.find((x) => x.table === t)?.rows ?? 0;
  const rows = tables.reduce((a, b) => a + b.rows, 0);
  progress.finish(
    `dumped ${rows.toLocaleString('en-US')} rows (${count('bindings').toLocaleString('en-US')} bindings, ${count('versions').toLocaleString('en-US')} versions) to ${target === '-' ? 'stdout' : target}`,
  );
  return 0;
}
