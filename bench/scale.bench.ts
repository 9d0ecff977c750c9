// Search at scale (tests/db/search-scope.test.ts keeps its results exact): search tier 1 limit 10 at 10,000 bindings (and 100,000 with
// BINDERY_BENCH_SCALE=100k), p50 for a rare and a common word, the growth ratio between the sizes,
// and the index's bytes per binding. Timings: "before" is the previous query path (every match scored
// and access-checked, exact count) on the same index, in the same run; bytes: "before" is the previous
// index (a second copy of every text), built beside the current one from the same rows.
import { sql } from 'drizzle-orm';
import { createDatabase, migrate } from '../db/index.ts';
import { parseConfig } from '../core/index.ts';
import { ensureCaller } from '../core/services/prepare.ts';
import { createBinding, type CoreDeps } from '../core/services/bindings.ts';
import { rebuildSearchIndex } from '../db/store/fts.ts';
import { ftsQuery, searchBindingRows } from '../db/store/search.ts';
import { defaultScopeSql } from '../db/store/access.ts';
import { createTiktokenCounter } from '../core/tokens/counter.ts';
import { percentiles, round, type BenchSection } from './types.ts';

const COMMON = ['system', 'data', 'value', 'service', 'request', 'update', 'config', 'error', 'client', 'server'];
const FILLER = 'the of and to in is for with on that by this be are from as it an or at which can use'.split(' ');

/** A pseudo-random document: common words in most, two rare words shared by ~4 documents. */
function doc(i: number, n: number, rnd: () => number): string {
  const words: string[] = [];
  for (let k = 0; k < 300; k++)
    words.push(rnd() < 0.08 ? COMMON[Math.floor(rnd() * COMMON.length)]! : FILLER[Math.floor(rnd() * FILLER.length)]!);
  words.push(`zq${Math.floor((rnd() * n) / 4)}x`, `zq${(i * 7) % Math.max(1, Math.floor(n / 4))}x`);
  return `## Part ${i}\n\n${words.join(' ')}.\n`;
}

/** Builds a database of `n` cloned bindings (plus the v1 index for the "before" column); `url` defaults to memory. */
export async function buildScale(n: number, url = ':memory:') {
  const config = parseConfig({ BINDERY_DB_URL: url });
  const database = createDatabase({ url: config.dbUrl });
  const { db } = database;
  await migrate(db);
  const tokens = createTiktokenCounter(config.tokenizer);
  await tokens.load();
  const deps: CoreDeps = { db, tokens, config, now: () => Date.now() };
  const caller = await ensureCaller(deps, 'scale');
  const tpl = await createBinding(deps, caller, { name: 'Template', content: 'x', summary: 'Template.' }, { source: 'human', model: null });
  // Rows are cloned from one written binding (counts are not what is measured here), then indexed.
  const vcols = (await db.all<{ name: string }>(sql`SELECT name FROM pragma_table_info('versions')`)).map((c) => c.name);
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < n; i += 500) {
    const stmts = [];
    for (let j = i; j < Math.min(n, i + 500); j++) {
      const id = `bnd_scale${j}`;
      stmts.push(
        db.run(sql`INSERT INTO bindings (id, space_id, slug, current_version, source_path, created_by, created_at, updated_at)
        SELECT ${id}, space_id, ${`s-${j}`}, 1, NULL, created_by, created_at, updated_at FROM bindings WHERE id = ${tpl.bindingId}`),
      );
      const set: Record<string, unknown> = {
        id: `ver_scale${j}`,
        binding_id: id,
        name: `Note ${j} ${COMMON[j % COMMON.length]}`,
        content: doc(j, n, rnd),
        summary: `Summary of note ${j}.`,
      };
      const cols = vcols.map((c) => (c in set ? sql`${set[c]}` : sql.identifier(c)));
      stmts.push(
        db.run(
          sql`INSERT INTO versions (${sql.join(
            vcols.map((c) => sql.identifier(c)),
            sql`, `,
          )}) SELECT ${sql.join(cols, sql`, `)} FROM versions WHERE id = ${tpl.versionId}`,
        ),
      );
    }
    await db.batch(stmts as never);
  }
  await db.run(sql`DELETE FROM settings WHERE key = 'fts_v2_built'`);
  await db.run(sql`DELETE FROM bindings_fts`);
  await rebuildSearchIndex(db);
  // The previous index, for comparison: external text copy, binding id column, no headings.
  await db.run(
    sql.raw(
      `CREATE VIRTUAL TABLE bindings_fts_v1 USING fts5(binding_id UNINDEXED, name, summary, key_points, content, tokenize = 'porter unicode61')`,
    ),
  );
  await db.run(sql`INSERT INTO bindings_fts_v1 (rowid, binding_id, name, summary, key_points, content) SELECT bindings.rowid, bindings.id, versions.name, versions.summary, '', versions.content
    FROM bindings JOIN versions ON versions.binding_id = bindings.id AND versions.number = bindings.current_version WHERE bindings.deleted_at IS NULL`);
  return { database, db, caller };
}

async function sized(n: number) {
  const { database, db, caller } = await buildScale(n);
  const bytes = async (table: string) =>
    Number(
      (
        await db.get<{ b: number }>(
          sql`SELECT sum(pgsize) AS b FROM dbstat WHERE name IN (${table}, ${`${table}_data`}, ${`${table}_idx`}, ${`${table}_content`}, ${`${table}_docsize`}, ${`${table}_config`})`,
        )
      )?.b ?? 0,
    );
  const live = n + 1;
  const p50 = async (q: () => Promise<unknown>) => {
    const t: number[] = [];
    for (let k = 0; k < 5; k++) await q();
    for (let k = 0; k < 25; k++) {
      const s = performance.now();
      await q();
      t.push(performance.now() - s);
    }
    return percentiles(t).p50;
  };
  const now = (word: string) => p50(() => searchBindingRows(db, ftsQuery(word)!, { userId: caller.id, offset: 0, limit: 10 }));
  const old = (word: string) =>
    p50(async () => {
      const hits = sql`FROM bindings_fts JOIN bindings ON bindings.rowid = bindings_fts.rowid JOIN spaces ON spaces.id = bindings.space_id
        WHERE bindings_fts MATCH ${ftsQuery(word)!} AND bindings.deleted_at IS NULL AND ${defaultScopeSql(caller.id)}`;
      // The previous query path: every match scored and access-checked, an exact count of all matches.
      await db.all(sql`SELECT versions.*, hit.rank FROM (SELECT bindings.rowid AS rid, bm25(bindings_fts, 10.0, 5.0, 3.0, 6.0, 1.0) AS rank ${hits} ORDER BY rank, bindings.id LIMIT 10) AS hit
        JOIN bindings ON bindings.rowid = hit.rid JOIN versions ON versions.binding_id = bindings.id AND versions.number = bindings.current_version`);
      await db.get(sql`SELECT count(*) AS n ${hits}`);
    });
  const rare = `zq${Math.floor(n / 8)}x`;
  const out = {
    n,
    after: { rare: await now(rare), common: await now('system'), bytesPerBinding: (await bytes('bindings_fts')) / live },
    before: { rare: await old(rare), common: await old('system'), bytesPerBinding: (await bytes('bindings_fts_v1')) / live },
  };
  database.close();
  return out;
}

export async function run(): Promise<BenchSection> {
  const sizes = [10_000, ...(process.env.BINDERY_BENCH_SCALE === '100k' ? [100_000] : [])];
  const results = [];
  for (const n of sizes) results.push(await sized(n));
  const rows: BenchSection['rows'] = [];
  for (const r of results) {
    const k = `${r.n / 1000}k`;
    rows.push({ metric: `p50 rare word at ${k} (before → after)`, value: `${round(r.before.rare)} → ${round(r.after.rare)}`, unit: 'ms' });
    rows.push({
      metric: `p50 common word at ${k} (before → after)`,
      value: `${round(r.before.common)} → ${round(r.after.common)}`,
      unit: 'ms',
    });
    rows.push({
      metric: `index bytes per binding at ${k} (before → after)`,
      value: `${Math.round(r.before.bytesPerBinding)} → ${Math.round(r.after.bytesPerBinding)}`,
      goal: '≤ half',
      met: r.after.bytesPerBinding <= r.before.bytesPerBinding / 2,
    });
  }
  if (results.length === 2) {
    const [a, b] = results as [(typeof results)[0], (typeof results)[0]];
    for (const w of ['rare', 'common'] as const) {
      const ratio = b.after[w] / a.after[w];
      rows.push({
        metric: `growth 10k → 100k, ${w} word (before → after)`,
        value: `${round(b.before[w] / a.before[w])}× → ${round(ratio)}×`,
        goal: '≤ 2×',
        met: ratio <= 2,
      });
    }
  }
  return { title: 'search at scale', rows, extra: results };
}
