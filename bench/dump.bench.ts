// Dump and restore at scale (tests/db/dump.test.ts for fidelity): `bindery dump` and `bindery restore` as their own processes on
// a database of 10,000 bindings (and 100,000 with BINDERY_BENCH_SCALE=100k): rows per second, peak
// RSS of each process (flat across sizes: both stream page by page), and the dump's bytes.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildScale } from './scale.bench.ts';
import { round, type BenchSection } from './types.ts';

const ROOT = join(import.meta.dir, '..');

const TIME = '/usr/bin/time';
const haveTime = Bun.spawnSync(['test', '-x', TIME]).exitCode === 0;

/**
 * Runs `bindery <args>` as a child: wall time and its peak resident memory. Measured by
 * /usr/bin/time (%M, KiB) where present: on Linux a child's own rusage maxRSS starts at its parent's
 * (this process, which built the database) because fork copies the high-water mark.
 */
async function timed(args: string[], env: Record<string, string>): Promise<{ ms: number; rssMiB: number }> {
  const started = performance.now();
  const cmd = ['bun', 'adapters/cli.ts', ...args];
  const proc = Bun.spawn(haveTime ? [TIME, '-f', 'peak-rss-kib %M', ...cmd] : cmd, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const stderr = await new Response(proc.stderr).text();
  if ((await proc.exited) !== 0) throw new Error(`bindery ${args.join(' ')} failed: ${stderr}`);
  const ms = performance.now() - started;
  const kib = /peak-rss-kib (\d+)/.exec(stderr)?.[1];
  return { ms, rssMiB: kib ? Number(kib) / 1024 : Number(proc.resourceUsage()?.maxRSS ?? 0) / 2 ** 20 };
}

async function sized(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-bench-dump-'));
  try {
    const source = `file:${join(dir, 'source.db')}`;
    const { database } = await buildScale(n, source);
    // The comparison index scale.bench adds is not Bindery's: a dump refuses tables it does not know.
    await database.db.run(sql`DROP TABLE bindings_fts_v1`);
    const rows = Number(
      (
        await database.client.execute(
          `SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM spaces) + (SELECT count(*) FROM bindings) + (SELECT count(*) FROM versions) + (SELECT count(*) FROM help_topics) + (SELECT count(*) FROM settings WHERE key NOT LIKE 'fts_v2_%')`,
        )
      ).rows[0]![0],
    );
    database.close();
    const file = join(dir, 'dump.jsonl');
    const dump = await timed(['dump', file], { BINDERY_DB_URL: source });
    const restore = await timed(['restore', file], { BINDERY_DB_URL: `file:${join(dir, 'target.db')}` });
    return { n, rows, bytes: statSync(file).size, dump, restore };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchSection> {
  const sizes = [10_000, ...(process.env.BINDERY_BENCH_SCALE === '100k' ? [100_000] : [])];
  const results = [];
  for (const n of sizes) results.push(await sized(n));
  const rows: BenchSection['rows'] = [];
  for (const r of results) {
    const k = `${r.n / 1000}k`;
    rows.push({
      metric: `dump at ${k} bindings (${r.rows.toLocaleString('en-US')} rows, ${round(r.bytes / 2 ** 20, 1)} MiB)`,
      value: Math.round(r.rows / (r.dump.ms / 1000)),
      unit: 'rows/s',
    });
    rows.push({ metric: `dump peak RSS at ${k}`, value: round(r.dump.rssMiB, 0), unit: 'MiB' });
    rows.push({
      metric: `restore at ${k} bindings (index rebuilt, counts checked)`,
      value: Math.round(r.rows / (r.restore.ms / 1000)),
      unit: 'rows/s',
    });
    rows.push({ metric: `restore peak RSS at ${k}`, value: round(r.restore.rssMiB, 0), unit: 'MiB' });
  }
  if (results.length === 2) {
    const [a, b] = results as [(typeof results)[0], (typeof results)[0]];
    for (const step of ['dump', 'restore'] as const) {
      const ratio = b[step].rssMiB / a[step].rssMiB;
      rows.push({ metric: `${step} peak RSS growth 10k → 100k`, value: `${round(ratio)}×`, goal: '≤ 1.5× (flat)', met: ratio <= 1.5 });
    }
  }
  return {
    title: 'dump and restore',
    rows,
    extra: results.map(({ dump, restore, ...r }) => ({
      ...r,
      dump: { ms: dump.ms, rssMiB: dump.rssMiB },
      restore: { ms: restore.ms, rssMiB: restore.rssMiB },
    })),
  };
}
