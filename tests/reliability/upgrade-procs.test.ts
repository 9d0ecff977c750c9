// Upgrades with real processes (tests/db/upgrade.test.ts in process): two `bindery migrate` starting at once on a fresh or an old
// database migrate it once, both succeeding; a `bindery migrate` killed (-9) mid-backfill on a large
// database leaves it consistent, and a rerun finishes every derived row exactly.
import { afterAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createDatabase } from '../../db/index.ts';
import { migrations } from '../../db/migrations/bundle.ts';
import { parseConfig } from '../../core/index.ts';
import { renderKey } from '../../core/services/counts.ts';
import { buildScale } from '../../bench/scale.bench.ts';
import { cli, cliChild, independentCount } from '../../support/procs.ts';

const dir = mkdtempSync(join(tmpdir(), 'bindery-upgrade-procs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function rows<T = Record<string, unknown>>(url: string, query: string): Promise<T[]> {
  const d = createDatabase({ url });
  try {
    return (await d.client.execute(query)).rows as unknown as T[];
  } finally {
    d.close();
  }
}
const one = async (url: string, query: string) => Number(Object.values((await rows(url, query))[0]!)[0]);

/** Integrity, and the index holding exactly live bindings (a prefix of them while a rebuild is unfinished). */
async function checkIndex(url: string, complete: boolean): Promise<void> {
  expect(await rows(url, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  expect(
    await one(
      url,
      'SELECT count(*) FROM bindings_fts f LEFT JOIN bindings b ON b.rowid = f.rowid AND b.deleted_at IS NULL WHERE b.rowid IS NULL',
    ),
  ).toBe(0);
  if (complete)
    expect(await one(url, 'SELECT count(*) FROM bindings_fts')).toBe(
      await one(url, 'SELECT count(*) FROM bindings WHERE deleted_at IS NULL'),
    );
}

describe('two processes migrating at once', () => {
  const cases: [string, string | undefined][] = [
    ['a fresh database', undefined],
    ['a v0.1.0 database', 'v0.1.0.db'],
    ['a v0.2.0 database', 'v0.2.0.db'],
  ];
  for (const [name, fixture] of cases) {
    test(`${name}: both succeed, every migration applied once, everything derived current`, async () => {
      for (let round = 0; round < 3; round++) {
        const file = join(dir, `twice-${fixture ?? 'fresh'}-${round}.db`);
        if (fixture) copyFileSync(join(import.meta.dir, '../fixtures/db', fixture), file);
        const env = { BINDERY_DB_URL: `file:${file}` };
        const [a, b] = await Promise.all([cli(['migrate'], env), cli(['migrate'], env)]);
        expect([a.code, a.stderr.replace(/\[bindery\] recounted[^\n]*\n/, '')]).toEqual([0, '']);
        expect([b.code, b.stderr.replace(/\[bindery\] recounted[^\n]*\n/, '')]).toEqual([0, '']);
        const tags = (await rows<{ tag: string }>(env.BINDERY_DB_URL, 'SELECT tag FROM __bindery_migrations ORDER BY tag')).map(
          (r) => r.tag,
        );
        expect(tags).toEqual(migrations.map((m) => m.tag));
        await checkIndex(env.BINDERY_DB_URL, true);
        const key = renderKey({ config: parseConfig(env) });
        expect(await one(env.BINDERY_DB_URL, `SELECT count(*) FROM versions WHERE counts_key != '${key}' OR sections = ''`)).toBe(0);
        expect(await one(env.BINDERY_DB_URL, `SELECT count(*) FROM help_topics`)).toBeGreaterThan(3);
      }
    }, 120_000);
  }
});

describe('kill -9 mid-backfill', () => {
  test('a large database whose index and counts need rebuilding: consistent after each kill, exact after a rerun', async () => {
    const n = 6000;
    const url = `file:${join(dir, 'large.db')}`;
    const { database } = await buildScale(n, url);
    // What upkeep must bring back: the counts and sections as written now, exactly.
    const db = database.db;
    await db.run(sql`DROP TABLE bindings_fts_v1`);
    // Every version counted for another configuration, without sections; the index never built.
    await db.run(
      sql`UPDATE versions SET counts_key = 'r0|old', sections = '', content_token_count = 0, head_block_tokens = 0, outline_block_tokens = 0`,
    );
    await db.run(sql`DELETE FROM bindings_fts`);
    await db.run(sql`DELETE FROM settings WHERE key IN ('fts_v2_built', 'fts_v2_progress')`);
    database.close();

    const env = { BINDERY_DB_URL: url };
    const key = renderKey({ config: parseConfig(env) });
    const stale = () => one(url, `SELECT count(*) FROM versions WHERE counts_key != '${key}'`);
    let midway = 0;
    for (const after of [700, 1400, 2200, 3200]) {
      const child = cliChild(['migrate'], env);
      await Bun.sleep(after + Math.floor(Math.random() * 200));
      child.kill('SIGKILL');
      await child.exited;
      await checkIndex(url, false);
      const indexed = await one(url, 'SELECT count(*) FROM bindings_fts');
      const left = await stale();
      // Versions are recounted in whole batches: every row is either old or wholly current.
      expect(
        await one(url, `SELECT count(*) FROM versions WHERE counts_key = '${key}' AND (sections = '' OR content_token_count = 0)`),
      ).toBe(0);
      if ((indexed > 0 && indexed < n + 1) || (left > 0 && left < n + 1)) midway++;
    }
    // At least one kill landed inside a backfill, or the test proves nothing.
    expect(midway).toBeGreaterThan(0);
    const rerun = await cli(['migrate'], env);
    expect(rerun.code).toBe(0);
    await checkIndex(url, true);
    expect(await stale()).toBe(0);
    expect(await one(url, `SELECT count(*) FROM settings WHERE key = 'fts_v2_progress'`)).toBe(0);
    // Exact against js-tiktoken, on a sample spread over the whole table.
    const sample = await rows<{ content: string; content_token_count: number; sections: string }>(
      url,
      'SELECT content, content_token_count, sections FROM versions WHERE rowid % 97 = 0',
    );
    expect(sample.length).toBeGreaterThan(50);
    for (const r of sample) {
      expect(Number(r.content_token_count)).toBe(await independentCount(r.content));
      expect(r.sections).not.toBe('');
    }
    // Search finds a word of a binding at the end of the table.
    expect(
      await one(url, `SELECT count(*) FROM bindings_fts WHERE bindings_fts MATCH 'zq${Math.floor(((n - 1) * 7) % (n / 4))}x'`),
    ).toBeGreaterThan(0);
  }, 240_000);
});
