// The foundation's numbers: token counting throughput of our TokenCounter against
// gpt-tokenizer on the same text in the same run (with identical counts) and the encoders' cold load;
// search_bindings / get_binding latency over 10,000 bindings built from the Markdown under
// node_modules; and stdio cold start to the first tools/list answer.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { clearMergeCache, countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { createDatabase, migrate } from '../db/index.ts';
import { createBinderyServer, createTiktokenCounter, parseConfig } from '../core/index.ts';
import { ensureCaller } from '../core/services/prepare.ts';
import { createBinding } from '../core/services/bindings.ts';
import { parseMarkdownDoc } from '../core/services/import.ts';
import { readableBindingVersion } from '../db/store/bindings.ts';
import { ftsQuery, searchBindingRows } from '../db/store/search.ts';
import { percentiles, round, type BenchRow, type BenchSection } from './types.ts';
import { markdownCorpus } from './corpus.ts';

const root = join(import.meta.dir, '..');
const BINDINGS = 10_000;

const median = (xs: number[]) => percentiles(xs).p50;

/** Runs a script in a fresh `bun` process (cwd: the repo) and returns its stdout as a number. */
function freshProcess(script: string): number {
  const p = Bun.spawnSync([process.execPath, '-e', script], { cwd: root });
  const out = p.stdout.toString().trim();
  if (p.exitCode !== 0 || !out) throw new Error(`bench subprocess failed: ${p.stderr.toString().slice(0, 500)}`);
  return Number(out);
}

const LOAD_OURS = (encoding: string) => `
const t0 = performance.now();
const { createTiktokenCounter } = await import('./core/tokens/counter.ts');
const c = createTiktokenCounter('${encoding}');
await c.load();
c.count('hello world');
console.log(performance.now() - t0);`;

const LOAD_GPT = `
const t0 = performance.now();
const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
countTokens('hello world');
console.log(performance.now() - t0);`;

async function tokenCounting(corpus: { text: string }[]): Promise<BenchSection> {
  const texts = corpus.map((c) => c.text);
  const bytes = texts.reduce((n, t) => n + new TextEncoder().encode(t).length, 0);
  const noSpecial = { disallowedSpecial: new Set<string>() };
  const mbps = (ms: number) => bytes / 1e6 / (ms / 1000);
  const time = (fn: () => number) => {
    const t0 = performance.now();
    const total = fn();
    return { ms: performance.now() - t0, total };
  };

  // Identical counts, text by text.
  const check = createTiktokenCounter('o200k_base');
  await check.load();
  const mismatches = texts.filter((t) => check.count(t) !== countTokens(t, noSpecial)).length;

  const samples = { oursCold: [] as number[], oursWarm: [] as number[], gptCold: [] as number[], gptWarm: [] as number[] };
  let totals = { ours: 0, gpt: 0 };
  for (let round = 0; round < 5; round++) {
    const ours = createTiktokenCounter('o200k_base');
    await ours.load();
    clearMergeCache();
    const runOurs = () => {
      const cold = time(() => texts.reduce((n, t) => n + ours.count(t), 0));
      const warm = time(() => texts.reduce((n, t) => n + ours.count(t), 0));
      samples.oursCold.push(cold.ms);
      samples.oursWarm.push(warm.ms);
      totals.ours = cold.total;
    };
    const runGpt = () => {
      const cold = time(() => texts.reduce((n, t) => n + countTokens(t, noSpecial), 0));
      const warm = time(() => texts.reduce((n, t) => n + countTokens(t, noSpecial), 0));
      samples.gptCold.push(cold.ms);
      samples.gptWarm.push(warm.ms);
      totals.gpt = cold.total;
    };
    // Alternate who goes first so neither always gets the warmer machine.
    if (round % 2 === 0) {
      runOurs();
      runGpt();
    } else {
      runGpt();
      runOurs();
    }
  }
  const ours = { cold: mbps(median(samples.oursCold)), warm: mbps(median(samples.oursWarm)) };
  const gpt = { cold: mbps(median(samples.gptCold)), warm: mbps(median(samples.gptWarm)) };
  const loads = {
    o200k: median([0, 1, 2].map(() => freshProcess(LOAD_OURS('o200k_base')))),
    cl100k: median([0, 1, 2].map(() => freshProcess(LOAD_OURS('cl100k_base')))),
    gpt: median([0, 1, 2].map(() => freshProcess(LOAD_GPT))),
  };
  const ratio = ours.cold / gpt.cold;
  const rows: BenchRow[] = [
    { metric: `corpus: ${texts.length} Markdown files from node_modules`, value: round(bytes / 1e6, 2), unit: 'MB' },
    { metric: 'TokenCounter o200k, first pass (empty chunk cache)', value: round(ours.cold, 2), unit: 'MB/s' },
    { metric: 'gpt-tokenizer countTokens o200k, first pass (merge cache cleared)', value: round(gpt.cold, 2), unit: 'MB/s' },
    { metric: 'ratio TokenCounter / gpt-tokenizer, first pass', value: round(ratio, 2), goal: '≥ 1.0', met: ratio >= 1 },
    { metric: 'TokenCounter o200k, second pass (warm cache)', value: round(ours.warm, 2), unit: 'MB/s' },
    { metric: 'gpt-tokenizer countTokens, second pass (warm cache)', value: round(gpt.warm, 2), unit: 'MB/s' },
    {
      metric: 'ratio TokenCounter / gpt-tokenizer, second pass',
      value: round(ours.warm / gpt.warm, 2),
      goal: '≥ 1.0',
      met: ours.warm >= gpt.warm,
    },
    {
      metric: 'counts identical (texts differing; corpus totals)',
      value: `${mismatches} differ; ${totals.ours.toLocaleString('en-US')} vs ${totals.gpt.toLocaleString('en-US')}`,
      goal: 'identical',
      met: mismatches === 0 && totals.ours === totals.gpt,
    },
    { metric: 'encoder load, fresh process: TokenCounter o200k (import + load + first count)', value: round(loads.o200k, 1), unit: 'ms' },
    { metric: 'encoder load, fresh process: TokenCounter cl100k', value: round(loads.cl100k, 1), unit: 'ms' },
    { metric: 'encoder load, fresh process: gpt-tokenizer o200k (import + first count)', value: round(loads.gpt, 1), unit: 'ms' },
  ];
  return { title: 'token counting', rows, extra: { samplesMs: samples, bytes, loadsMs: loads } };
}

/** Search queries: common README words and phrases, then words drawn from the corpus itself. */
function queries(corpus: { text: string }[]): string[] {
  const fixed = [
    'install',
    'typescript types',
    'server',
    'schema validation',
    'websocket',
    'error handling',
    'stream',
    'json',
    'license',
    'cli options',
    'database',
    'http request',
    'buffer',
    'async iterator',
    'parser',
    'encoding',
    'test',
    'plugin',
    'source map',
    'token',
  ];
  const words = corpus.flatMap((c) => c.text.match(/\b[a-z]{6,12}\b/g)?.slice(0, 50) ?? []);
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const drawn = Array.from({ length: 180 }, () => words[Math.floor(rand() * words.length)]!);
  return [...fixed, ...drawn];
}

async function tenThousand(corpus: { path: string; text: string }[]): Promise<BenchSection> {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-bench-'));
  const url = `file:${join(dir, 'bench.db')}`;
  const config = parseConfig({ BINDERY_DB_URL: url, BINDERY_TOOL_MODE: 'eager' });
  const database = createDatabase({ url });
  try {
    await database.client.execute('PRAGMA journal_mode=WAL');
    await database.client.execute('PRAGMA synchronous=NORMAL');
    await migrate(database.db);
    const tokens = createTiktokenCounter(config.tokenizer);
    await tokens.load();
    const deps = { db: database.db, tokens, config, now: () => Date.now() };
    const caller = await ensureCaller(deps, 'bench');
    const docs = corpus.map((c) => parseMarkdownDoc(c.text, c.path)).filter((d) => d.content.length <= config.maxContentBytes);

    const t0 = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < BINDINGS; i++) {
      const d = docs[i % docs.length]!;
      const row = await createBinding(
        deps,
        caller,
        { name: `${d.name} #${i}`, content: d.content, summary: d.summary, keyPoints: d.keyPoints },
        { source: 'human', model: null },
      );
      ids.push(row.bindingId);
    }
    const buildMs = performance.now() - t0;

    const server = createBinderyServer(deps, { caller });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(a);

    const qs = queries(corpus);
    const timed = async (fn: () => Promise<unknown>) => {
      const s = performance.now();
      await fn();
      return performance.now() - s;
    };
    // Warm-up: first calls load statements and pages.
    for (const q of qs.slice(0, 20)) await client.callTool({ name: 'search_bindings', arguments: { query: q, tier: '1', limit: 10 } });
    for (const id of ids.slice(0, 50)) await client.callTool({ name: 'get_binding', arguments: { id, tier: '1' } });

    const search: number[] = [];
    const hits: number[] = [];
    for (const q of qs) {
      let total = 0;
      search.push(
        await timed(async () => {
          const r = (await client.callTool({ name: 'search_bindings', arguments: { query: q, tier: '1', limit: 10 } })) as {
            isError?: boolean;
            structuredContent?: { pagination: { total: number } };
          };
          if (r.isError) throw new Error(`search "${q}" failed`);
          total = r.structuredContent!.pagination.total;
        }),
      );
      hits.push(total);
    }
    let seed = 7;
    const pick = () => ids[(seed = (seed * 48271) % 2147483647) % ids.length]!;
    const get: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const id = pick();
      get.push(await timed(() => client.callTool({ name: 'get_binding', arguments: { id, tier: '1' } })));
    }
    // The store queries alone (no MCP, no validation, no rendering).
    const rawSearch: number[] = [];
    for (const q of qs)
      rawSearch.push(await timed(() => searchBindingRows(deps.db, ftsQuery(q)!, { userId: caller.id, offset: 0, limit: 10 })));
    const rawGet: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const id = pick();
      rawGet.push(await timed(() => readableBindingVersion(deps.db, caller.id, id)));
    }
    await client.close();

    const s = percentiles(search);
    const g = percentiles(get);
    const size = statSync(join(dir, 'bench.db')).size;
    const rows: BenchRow[] = [
      {
        metric: `build ${BINDINGS.toLocaleString('en-US')} bindings from ${docs.length} Markdown files (createBinding, file DB, WAL)`,
        value: round(buildMs / 1000, 1),
        unit: 's',
      },
      { metric: 'database size', value: round(size / 2 ** 20, 1), unit: 'MiB' },
      {
        metric: `search_bindings tier 1 limit 10, p50 (MCP in-process, ${search.length} queries, median ${median(hits)} matches)`,
        value: round(s.p50, 2),
        unit: 'ms',
        goal: '≤ 5 ms',
        met: s.p50 <= 5,
      },
      { metric: 'search_bindings tier 1 limit 10, p95', value: round(s.p95, 2), unit: 'ms' },
      {
        metric: 'get_binding tier 1, p50 (MCP in-process, 1,000 reads)',
        value: round(g.p50, 3),
        unit: 'ms',
        goal: '≤ 1 ms',
        met: g.p50 <= 1,
      },
      { metric: 'get_binding tier 1, p95', value: round(g.p95, 3), unit: 'ms' },
      {
        metric: 'store only: searchBindingRows p50 / p95',
        value: `${round(percentiles(rawSearch).p50, 2)} / ${round(percentiles(rawSearch).p95, 2)}`,
        unit: 'ms',
      },
      {
        metric: 'store only: readableBindingVersion p50 / p95',
        value: `${round(percentiles(rawGet).p50, 3)} / ${round(percentiles(rawGet).p95, 3)}`,
        unit: 'ms',
      },
    ];
    return { title: '10,000 bindings', rows, extra: { searchMs: search, getMs: get, hits, queries: qs } };
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function stdioColdStart(): Promise<BenchSection> {
  const runs: number[] = [];
  for (let i = 0; i < 7; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-cold-'));
    const t0 = performance.now();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(root, 'adapters', 'stdio.ts')],
      env: { PATH: process.env.PATH ?? '', BINDERY_DB_URL: `file:${join(dir, 'data', 'bindery.db')}` },
      cwd: dir,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    runs.push(performance.now() - t0);
    if (tools.length === 0) throw new Error('no tools listed');
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const p = percentiles(runs);
  return {
    title: 'stdio cold start',
    rows: [
      { metric: 'spawn → initialize → first tools/list answer, fresh DB (7 runs), p50', value: round(p.p50, 0), unit: 'ms' },
      { metric: 'min / max', value: `${round(Math.min(...runs), 0)} / ${round(p.max, 0)}`, unit: 'ms' },
    ],
    extra: { runsMs: runs },
  };
}

/** The foundation benchmarks: token counting, 10,000-binding latency, stdio cold start. */
export async function run(): Promise<BenchSection[]> {
  const corpus = markdownCorpus();
  return [await tokenCounting(corpus), await tenThousand(corpus), await stdioColdStart()];
}
