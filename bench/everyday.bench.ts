// Search asked in the user's own words. The third-party Markdown of the retrieval bench
// (bench/retrieval-tasks.ts retrievalCorpus, no padding) is imported as `bindery import` does, and each
// question of bench/fixtures/everyday-questions.json (written in everyday words, one target document
// each) is asked through a real MCP Client:
// - ranking: search_bindings {query, tier "1", limit 5}: success@1, success@5, MRR, on the tuning half
//   (odd-numbered questions) and the held-out half (even-numbered, never looked at while tuning);
// - recall per token: search_bindings {query, tier "0"} (no limit: a page as full as 900 tokens hold): the target in the first
//   response, and that response's exact tokens (goal: ≥ 90 % at ≤ 900 tokens);
// - passage (issue 20): the default search_bindings {query} call: the target among its hits, its exact tokens;
// - BM25 top-50 recall: plain FTS5 bm25 over every word, the candidate pool a re-ranker starts from;
// - keyword lookups on the same corpus (distinctive phrases, as bench/retrieval.bench.ts builds them).
// BENCH_EVERYDAY_SHOW=tune prints the rank of each tuning question on stderr (the held-out half never).
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sql } from 'drizzle-orm';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { importDocument } from '../core/services/import.ts';
import { embedMissing } from '../core/services/embed.ts';
import { benchWorld } from './world.ts';
import { round, type BenchRow, type BenchSection } from './types.ts';
import { buildRetrievalTasks, retrievalCorpus } from './retrieval-tasks.ts';

const root = join(import.meta.dir, '..');
const nodeModules = join(root, 'node_modules');

export interface EverydayQuestion {
  n: number;
  question: string;
  /** Path under node_modules of the document that answers it. */
  target: string;
  /** Documents that answer it equally (a fork, a twin package). */
  also?: string[];
}

/** The question set; odd `n` is the tuning half, even `n` the held-out half. */
export function everydayQuestions(): EverydayQuestion[] {
  return (
    JSON.parse(readFileSync(join(import.meta.dir, 'fixtures', 'everyday-questions.json'), 'utf8')) as { questions: EverydayQuestion[] }
  ).questions;
}

/** The corpus imported into a fresh in-memory Bindery, with a client factory. */
export async function everydayWorld() {
  // The optional embedding re-ranker, when the environment configures one (README: measuring a model).
  const embeddings = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('BINDERY_EMBEDDINGS_')));
  const { deps, caller, connect, close } = await benchWorld(embeddings);
  const { docs } = retrievalCorpus(0);
  const ids = new Map<string, string>();
  for (const d of docs) {
    const path = relative(nodeModules, d.path);
    const out = await importDocument(deps, caller, { sourcePath: path, bytes: new TextEncoder().encode(d.text) });
    if (out.status !== 'skipped') ids.set(path, out.id);
  }
  // Writes embed as they go; this fills any the provider missed (and fails loudly if it is down).
  await embedMissing(deps);
  const client = () => connect('bench-everyday', 'eager');
  return { deps, docs, ids, client, close };
}

type World = Awaited<ReturnType<typeof everydayWorld>>;
type Stats = { n: number; at1: number; at5: number; mrr: number };

function stats(ranks: number[]): Stats {
  const n = ranks.length || 1;
  return {
    n: ranks.length,
    at1: ranks.filter((r) => r === 1).length / n,
    at5: ranks.filter((r) => r >= 1 && r <= 5).length / n,
    mrr: ranks.reduce((s, r) => s + (r >= 1 ? 1 / r : 0), 0) / n,
  };
}

/** 1-based rank of the first result that is one of the question's documents, 0 when absent. */
function rankOf(w: World, q: EverydayQuestion, ids: string[]): number {
  const want = new Set([q.target, ...(q.also ?? [])].map((p) => w.ids.get(p)).filter(Boolean));
  return ids.findIndex((id) => want.has(id)) + 1;
}

/** Plain BM25 (every word, OR, the index's column weights) top 50: the pool a re-ranker starts from. */
async function bm25Top50(w: World, text: string): Promise<string[]> {
  const words = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  if (!words.length) return [];
  const match = words.map((x) => `"${x}"`).join(' OR ');
  const rows = await w.deps.db.all<{
    id: string;
  }>(sql`SELECT bindings.id AS id FROM bindings_fts JOIN bindings ON bindings.rowid = bindings_fts.rowid
    WHERE bindings_fts MATCH ${match} ORDER BY bm25(bindings_fts, 10.0, 5.0, 3.0, 6.0, 1.0) LIMIT 50`);
  return rows.map((r) => r.id);
}

interface Measured {
  ranks: number[];
  tier0: { found: boolean; tokens: number }[];
  bm25: number[];
  tier1Tokens: number[];
  /** The default call (tier "passage", issue 20): target among its hits, and its exact tokens. */
  passage: { found: boolean; tokens: number }[];
}

async function measure(w: World, qs: EverydayQuestion[], show: boolean): Promise<Measured> {
  const c = await w.client();
  const out: Measured = { ranks: [], tier0: [], bm25: [], tier1Tokens: [], passage: [] };
  for (const q of qs) {
    const r = (await c.callTool({ name: 'search_bindings', arguments: { query: q.question, tier: '1', limit: 5 } })) as any;
    const rank = rankOf(
      w,
      q,
      (r.structuredContent?.results ?? []).map((h: { id: string }) => h.id),
    );
    out.ranks.push(rank);
    out.tier1Tokens.push(r._meta?.context?.response?.tokens ?? 0);
    const z = (await c.callTool({ name: 'search_bindings', arguments: { query: q.question, tier: '0' } })) as any;
    const zIds = z.isError ? [] : (z.structuredContent?.results ?? []).map((h: { id: string }) => h.id);
    out.tier0.push({ found: rankOf(w, q, zIds) > 0, tokens: z.isError ? 0 : (z._meta?.context?.response?.tokens ?? 0) });
    const p = (await c.callTool({ name: 'search_bindings', arguments: { query: q.question } })) as any;
    out.passage.push({
      found:
        rankOf(
          w,
          q,
          (p.structuredContent?.results ?? []).map((h: { id: string }) => h.id),
        ) > 0,
      tokens: p._meta?.context?.response?.tokens ?? 0,
    });
    out.bm25.push(rankOf(w, q, await bm25Top50(w, q.question)));
    if (show)
      process.stderr.write(
        `#${q.n} rank ${rank || '-'} tier0 ${out.tier0.at(-1)!.found ? 'yes' : 'no'} bm25 ${out.bm25.at(-1) || '-'}: ${q.question}\n`,
      );
  }
  await c.close();
  return out;
}

/** Keyword lookups (distinctive phrases' content words) on the same corpus: success@5 must not drop. */
async function keywords(w: World): Promise<Stats> {
  const enc = new Tiktoken(o200k);
  const tasks = buildRetrievalTasks(w.docs, enc, { count: Number(process.env.BENCH_RANKING_QUERIES ?? 80), minTokens: 800 });
  const c = await w.client();
  const ranks: number[] = [];
  for (const t of tasks) {
    const r = (await c.callTool({ name: 'search_bindings', arguments: { query: t.query, tier: '1', limit: 5 } })) as any;
    const id = w.ids.get(relative(nodeModules, t.path));
    ranks.push((r.structuredContent?.results ?? []).findIndex((h: { id: string }) => h.id === id) + 1);
  }
  await c.close();
  return stats(ranks);
}

const pct = (x: number) => `${round(x * 100, 1)} %`;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export async function run(): Promise<BenchSection> {
  const w = await everydayWorld();
  try {
    const all = everydayQuestions();
    const tune = all.filter((q) => q.n % 2 === 1);
    const held = all.filter((q) => q.n % 2 === 0);
    const mt = await measure(w, tune, process.env.BENCH_EVERYDAY_SHOW === 'tune');
    const mh = await measure(w, held, false);
    const both = {
      ranks: [...mt.ranks, ...mh.ranks],
      tier0: [...mt.tier0, ...mh.tier0],
      bm25: [...mt.bm25, ...mh.bm25],
      tier1Tokens: [...mt.tier1Tokens, ...mh.tier1Tokens],
      passage: [...mt.passage, ...mh.passage],
    };
    const kw = await keywords(w);
    const rows: BenchRow[] = [
      {
        metric: 'corpus / questions',
        value: `${w.ids.size} third-party .md docs; ${all.length} everyday questions (${tune.length} tuning, ${held.length} held out)`,
      },
    ];
    const e = w.deps.config.embeddings;
    rows.push({
      metric: 'embedding re-ranker',
      value: e ? `${e.model} at ${e.url} (weight ${e.weight})` : 'off (BINDERY_EMBEDDINGS_URL unset)',
    });
    for (const [label, m] of [
      ['all', both],
      ['tuning half', mt],
      ['held-out half', mh],
    ] as const) {
      const s = stats(m.ranks);
      rows.push({
        metric: `${label}: tier 1 limit 5 success@1 / success@5 / MRR`,
        value: `${pct(s.at1)} / ${pct(s.at5)} / ${round(s.mrr, 3)}`,
        ...(label === 'all' ? { goal: '@5 ≥ 75 %', met: s.at5 >= 0.75 } : {}),
      });
      const within = m.tier0.filter((t) => t.found && t.tokens <= 900).length / (m.tier0.length || 1);
      rows.push({
        metric: `${label}: tier 0 (default limit) target in first response ≤ 900 tokens; mean tokens`,
        value: `${pct(within)}; ${Math.round(mean(m.tier0.map((t) => t.tokens)))}`,
        ...(label === 'all' ? { goal: '≥ 90 %', met: within >= 0.9 } : {}),
      });
      rows.push({
        metric: `${label}: passage (default call) target among its hits; mean tokens`,
        value: `${pct(m.passage.filter((x) => x.found).length / (m.passage.length || 1))}; ${Math.round(mean(m.passage.map((x) => x.tokens)))}`,
      });
      rows.push({ metric: `${label}: plain BM25 top-50 recall`, value: pct(m.bm25.filter((r) => r > 0).length / (m.bm25.length || 1)) });
    }
    rows.push({ metric: 'tier 1 limit 5 response, mean', value: Math.round(mean(both.tier1Tokens)), unit: 'tokens' });
    rows.push({
      metric: `keyword lookups on the same corpus (${kw.n}): success@1 / success@5 / MRR`,
      value: `${pct(kw.at1)} / ${pct(kw.at5)} / ${round(kw.mrr, 3)}`,
      goal: '@5 ≥ 97.5 %',
      met: kw.at5 >= 0.975,
    });
    return { title: 'everyday questions (issue 15)', rows, extra: { perQuestion: all.map((q) => ({ ...q })) } };
  } finally {
    w.close();
  }
}
