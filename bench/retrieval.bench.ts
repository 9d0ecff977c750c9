// The retrieval benchmark. Third-party Markdown from node_modules is imported into a fresh
// Bindery as `bindery import` does; each task is a distinctive phrase deep in one long document with a
// keyword query for it (bench/retrieval-tasks.ts). Agents (bench/retrieval-agents.ts) each drive a real
// MCP Client and are charged every token their model would read. Then the corpus is padded to 1,000+
// bindings and search_bindings is scored on a question set (success@1, success@5, MRR).
// Sizes: BENCH_RETRIEVAL_TASKS (40), BENCH_RANKING_BINDINGS (1000), BENCH_RANKING_QUERIES (80);
// BENCH_RETRIEVAL_PEERS=0 skips the server-filesystem and server-memory agents.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { importDocument } from '../core/services/import.ts';
import type { TokenCounter } from '../core/tokens/counter.ts';
import { benchWorld } from './world.ts';
import { round, type BenchRow, type BenchSection } from './types.ts';
import { buildRetrievalTasks, retrievalCorpus, type CorpusDoc, type RetrievalTask } from './retrieval-tasks.ts';
import { binderyBest, binderyToday, knowsTheFile, memoryAgent, type TaskOutcome } from './retrieval-agents.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const root = join(import.meta.dir, '..');
const nodeModules = join(root, 'node_modules');

/** The goal (README, Benchmarks): at most this many tokens per successful task, at this success rate. */
const GOAL_TOKENS = 2_000;
const GOAL_SUCCESS = 0.975;

async function binderyWorld() {
  const { deps, tokens, caller, connect, close } = await benchWorld({ BINDERY_TOOL_MODE: 'lazy' });
  const ids = new Map<string, string>();
  /** Imports files as `bindery import` does (same service, source path relative to node_modules). */
  const importDocs = async (docs: CorpusDoc[]) => {
    for (const d of docs) {
      const out = await importDocument(deps, caller, {
        sourcePath: relative(nodeModules, d.path),
        bytes: new TextEncoder().encode(d.text),
      });
      if (out.status !== 'skipped') ids.set(d.path, out.id);
    }
  };
  /** A new MCP session in lazy mode, as a client that applies tools/list_changed would get. */
  const session = () => connect('bench-retrieval', 'lazy');
  return { tokens, ids, importDocs, session, close };
}

async function stdioClient(script: string, args: string[], extraEnv: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(nodeModules, script), ...args],
    env: { ...(process.env as Record<string, string>), ...extraEnv },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-retrieval', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

interface AgentResult {
  agent: string;
  outcomes: TaskOutcome[];
}

function summarize(r: AgentResult) {
  const ok = r.outcomes.filter((o) => o.ok);
  const spent = r.outcomes.reduce((n, o) => n + o.tokens, 0);
  return {
    agent: r.agent,
    success: ok.length / r.outcomes.length,
    // Cost per success charges the failed tasks too; the mean over successes alone is shown beside it.
    perSuccess: ok.length ? spent / ok.length : Infinity,
    meanOfSuccesses: ok.length ? ok.reduce((n, o) => n + o.tokens, 0) / ok.length : Infinity,
    toolList: r.outcomes[0]?.toolList ?? 0,
    calls: r.outcomes.reduce((n, o) => n + o.calls, 0) / r.outcomes.length,
  };
}

async function peers(tasks: RetrievalTask[], docs: CorpusDoc[], tokens: TokenCounter): Promise<AgentResult[]> {
  const out: AgentResult[] = [];
  const fs = await stdioClient('@modelcontextprotocol/server-filesystem/dist/index.js', [nodeModules]);
  try {
    const tools = (await fs.listTools()).tools;
    const outcomes: TaskOutcome[] = [];
    for (const t of tasks) outcomes.push(await knowsTheFile(fs, tools, tokens, t));
    out.push({ agent: 'knows the file (server-filesystem read_text_file)', outcomes });
  } finally {
    await fs.close();
  }
  const dir = mkdtempSync(join(tmpdir(), 'bindery-memory-'));
  const memory = await stdioClient('@modelcontextprotocol/server-memory/dist/index.js', [], {
    MEMORY_FILE_PATH: join(dir, 'memory.jsonl'),
  });
  try {
    // One entity per document, one observation per paragraph (whitespace folded): how an agent would file it.
    const entities = docs.map((d) => ({
      name: relative(nodeModules, d.path),
      entityType: 'document',
      observations: d.text
        .split(/\n\s*\n/)
        .map((p) => p.replace(/\s+/g, ' ').trim())
        .filter(Boolean),
    }));
    for (let i = 0; i < entities.length; i += 50)
      await memory.callTool({ name: 'create_entities', arguments: { entities: entities.slice(i, i + 50) } });
    const tools = (await memory.listTools()).tools;
    const outcomes: TaskOutcome[] = [];
    for (const t of tasks) outcomes.push(await memoryAgent(memory, tools, tokens, t));
    out.push({ agent: '@modelcontextprotocol/server-memory (search_nodes)', outcomes });
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** success@1, success@5 and MRR (over the top 5) of search_bindings on the question set. */
async function ranking(w: Awaited<ReturnType<typeof binderyWorld>>, questions: RetrievalTask[]) {
  const client = await w.session();
  let at1 = 0;
  let at5 = 0;
  let mrr = 0;
  const misses: { query: string; path: string }[] = [];
  for (const q of questions) {
    const r = (await client.callTool({ name: 'search_bindings', arguments: { query: q.query, tier: '1', limit: 5 } })) as {
      structuredContent?: any;
    };
    const rank = (r.structuredContent?.results ?? []).findIndex((h: { id: string }) => h.id === w.ids.get(q.path)) + 1;
    if (rank === 1) at1++;
    if (rank >= 1) {
      at5++;
      mrr += 1 / rank;
    } else misses.push({ query: q.query, path: relative(nodeModules, q.path) });
  }
  await client.close();
  const n = questions.length;
  return { n, at1: at1 / n, at5: at5 / n, mrr: mrr / n, misses };
}

/** Runs the agents on the tasks and search_bindings on the question set. */
export async function run(): Promise<BenchSection[]> {
  const enc = new Tiktoken(o200k);
  const { docs, padding } = retrievalCorpus(env('BENCH_RANKING_BINDINGS', 1000));
  const universe = [...docs, ...padding];
  const tasks = buildRetrievalTasks(docs, enc, { count: env('BENCH_RETRIEVAL_TASKS', 40), minTokens: 2_000, universe });
  const questions = buildRetrievalTasks(universe, enc, { count: env('BENCH_RANKING_QUERIES', 80), minTokens: 800 });
  const w = await binderyWorld();
  try {
    await w.importDocs(docs);
    const corpusSize = w.ids.size;
    const results: AgentResult[] = [];
    const paths = new Map<string, number>();
    for (const [agent, policy] of [
      ['Bindery, best policy (feature-detected)', binderyBest],
      ['Bindery today (search tier 1 → get_bindings tier 2)', binderyToday],
    ] as const) {
      const outcomes: TaskOutcome[] = [];
      for (const t of tasks) {
        const client = await w.session();
        const o: TaskOutcome & { path?: string } = await policy(client, w.tokens, t);
        if (o.path) paths.set(o.path, (paths.get(o.path) ?? 0) + 1);
        outcomes.push(o);
        await client.close();
      }
      results.push({ agent, outcomes });
    }
    if (process.env.BENCH_RETRIEVAL_PEERS !== '0') results.push(...(await peers(tasks, docs, w.tokens)));
    const fileOnly = tasks.reduce((n, t) => n + t.docTokens, 0) / tasks.length;
    await w.importDocs(padding);
    const rank = await ranking(w, questions);

    const sums = results.map(summarize);
    const baseline = sums.find((s) => s.agent.startsWith('knows the file'));
    const rows: BenchRow[] = [
      {
        metric: 'corpus / tasks',
        value: `${corpusSize} third-party .md docs from node_modules; ${tasks.length} tasks (phrase in the 2nd half of a doc ≥ 2,000 tokens, unique in ${universe.length} docs)`,
      },
      { metric: 'reading the right file, content alone (no tool list), mean', value: Math.round(fileOnly), unit: 'tokens' },
    ];
    for (const s of sums) {
      const best = s.agent.startsWith('Bindery, best');
      rows.push({
        metric: `${s.agent}: success`,
        value: `${round(s.success * 100, 1)} %`,
        ...(best ? { goal: '≥ 97.5 %', met: s.success >= GOAL_SUCCESS } : {}),
      });
      rows.push({
        metric: `${s.agent}: tokens per successful task (all spent ÷ successes; mean of successes ${Math.round(s.meanOfSuccesses).toLocaleString('en-US')}; tool list ${s.toolList}; ${round(s.calls, 1)} calls/task)`,
        value: Math.round(s.perSuccess),
        unit: baseline ? `tokens (${round(s.perSuccess / baseline.perSuccess, 2)}× knows the file)` : 'tokens',
        ...(best ? { goal: `≤ ${GOAL_TOKENS}`, met: s.perSuccess <= GOAL_TOKENS } : {}),
      });
    }
    rows.push({ metric: 'Bindery best policy: how tasks were served', value: [...paths].map(([p, n]) => `${p} ${n}`).join(', ') });
    const rankRows: BenchRow[] = [
      {
        metric: 'corpus / questions',
        value: `${w.ids.size} bindings (.md + bun-types .mdx); ${rank.n} keyword queries for unique phrases in the 2nd half of docs ≥ 800 tokens`,
      },
      { metric: 'success@1', value: `${round(rank.at1 * 100, 1)} %` },
      { metric: 'success@5', value: `${round(rank.at5 * 100, 1)} %`, goal: '≥ 97 %', met: rank.at5 >= 0.97 },
      { metric: 'MRR (top 5)', value: round(rank.mrr, 3) },
    ];
    const perTask = tasks.map((t, i) => ({
      path: relative(nodeModules, t.path),
      phrase: t.phrase,
      query: t.query,
      depth: round(t.depth, 2),
      docTokens: t.docTokens,
      ...Object.fromEntries(results.map((r) => [r.agent, r.outcomes[i]])),
    }));
    return [
      { title: 'retrieval tasks (issue 9)', rows, extra: { summaries: sums, perTask } },
      {
        title: 'search ranking (issue 9)',
        rows: rankRows,
        extra: {
          misses: rank.misses,
          questions: questions.map((q) => ({ path: relative(nodeModules, q.path), query: q.query, phrase: q.phrase })),
        },
      },
    ];
  } finally {
    w.close();
  }
}
