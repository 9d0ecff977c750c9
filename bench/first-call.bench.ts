// First impression: a client spawns the server over stdio, initializes and calls one tool; the clock
// stops at that tool's answer. Bindery, started as `bindery connect` configures it (`bun
// adapters/cli.ts stdio`, which runs the pre-built bundle in dist/stdio/ that install builds; the bench
// builds it first if it is missing or stale), on a database and in a home folder an earlier launch
// made, as on a user's machine, is timed against the reference memory server
// (@modelcontextprotocol/server-memory under Node, search_nodes) in the same run, alternating, so all
// see the same machine load; then the sources (`bun adapters/stdio.ts`: what runs when the bundle does
// not match them, and what ran before there was one, Bun's transpiler cache in the home folder warm);
// and both once more with a fresh home folder per launch (a first launch). Later calls are timed too:
// the one right after the first, and one a second later, so a head start for the first call that costs
// later ones would show.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { freshStdioBundle } from '../adapters/stdio-bundle.ts';
import { buildStdioBundle } from '../scripts/build-stdio.ts';
import { percentiles, round, type BenchSection } from './types.ts';

const root = join(import.meta.dir, '..');
const RUNS = Number(process.env.BENCH_FIRST_CALL_RUNS ?? 9);

interface Timing {
  initialize: number;
  first: number;
  second: number;
  later: number;
}

/** One launch: spawn → initialize → first call → a second call → one a second later. `home` undefined: a fresh one. */
async function timeServer(
  command: string,
  args: string[],
  env: Record<string, string>,
  tool: string,
  toolArgs: Record<string, unknown>,
  home?: string,
): Promise<Timing> {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-first-'));
  try {
    const t0 = performance.now();
    const transport = new StdioClientTransport({
      command,
      args,
      env: { PATH: process.env.PATH ?? '', HOME: home ?? dir, MEMORY_FILE_PATH: join(dir, 'memory.jsonl'), ...env },
      cwd: dir,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(transport);
    const initialize = performance.now() - t0;
    const result = await client.callTool({ name: tool, arguments: toolArgs });
    const first = performance.now() - t0;
    if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`);
    const t1 = performance.now();
    await client.callTool({ name: tool, arguments: { query: 'second question' } });
    const second = performance.now() - t1;
    await new Promise((r) => setTimeout(r, 1000));
    const t2 = performance.now();
    await client.callTool({ name: tool, arguments: { query: 'a later question' } });
    const later = performance.now() - t2;
    await client.close();
    return { initialize, first, second, later };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * spawn → initialize → first tool answer: Bindery (the pre-built bundle, the default; the sources; each
 * with a fresh home per launch too) against server-memory. The load average is recorded so a run on a
 * saturated machine reads as one.
 */
export async function run(): Promise<BenchSection> {
  const bundled: Timing[] = [];
  const sources: Timing[] = [];
  const bundledFresh: Timing[] = [];
  const sourcesFresh: Timing[] = [];
  const memory: Timing[] = [];
  if (!freshStdioBundle(root)) await buildStdioBundle();
  const memoryBin = join(root, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
  const bindery = [join(root, 'adapters', 'cli.ts'), 'stdio'];
  const fromSources = [join(root, 'adapters', 'stdio.ts')];
  const dbDir = mkdtempSync(join(tmpdir(), 'bindery-first-db-'));
  const homes = { bindery: join(dbDir, 'home-bindery'), memory: join(dbDir, 'home-memory') };
  const db = { BINDERY_DB_URL: `file:${join(dbDir, 'bindery.db')}`, BINDERY_TOOL_MODE: 'eager' };
  const search = { query: 'getting started' };
  try {
    // The earlier launches: the database, and each home folder as a user's machine has it.
    await timeServer(process.execPath, bindery, db, 'search_bindings', search, homes.bindery);
    await timeServer(process.execPath, fromSources, db, 'search_bindings', search, homes.bindery);
    await timeServer('node', [memoryBin], {}, 'search_nodes', search, homes.memory);
    for (let i = 0; i < RUNS; i++) {
      bundled.push(await timeServer(process.execPath, bindery, db, 'search_bindings', search, homes.bindery));
      memory.push(await timeServer('node', [memoryBin], {}, 'search_nodes', search, homes.memory));
      sources.push(await timeServer(process.execPath, fromSources, db, 'search_bindings', search, homes.bindery));
      bundledFresh.push(await timeServer(process.execPath, bindery, db, 'search_bindings', search));
      sourcesFresh.push(await timeServer(process.execPath, fromSources, db, 'search_bindings', search));
    }
  } finally {
    rmSync(dbDir, { recursive: true, force: true });
  }
  const p50 = (xs: Timing[], k: keyof Timing) => percentiles(xs.map((t) => t[k])).p50;
  const ratio = (xs: Timing[], k: keyof Timing) => round(p50(xs, k) / p50(memory, k), 2);
  const ms = (xs: Timing[], k: keyof Timing, digits = 0) => round(p50(xs, k), digits);
  const launch = (xs: Timing[]) => `${ms(xs, 'initialize')} / ${ms(xs, 'first')}`;
  return {
    title: 'first impression (stdio, fresh process)',
    rows: [
      {
        metric: `server-memory: spawn → initialize / → first tool answer (search_nodes), p50 of ${RUNS}`,
        value: launch(memory),
        unit: 'ms',
      },
      {
        metric: 'bindery stdio (default: the pre-built bundle, dist/stdio/): spawn → initialize / → first answer (search_bindings)',
        value: launch(bundled),
        unit: 'ms',
      },
      {
        metric: 'bindery from the sources (bun adapters/stdio.ts, transpiler cache warm): spawn → initialize / → first answer',
        value: launch(sources),
        unit: 'ms',
      },
      {
        metric: 'a fresh home folder per launch (a first launch): bundle / sources, → first answer',
        value: `${ms(bundledFresh, 'first')} / ${ms(sourcesFresh, 'first')}`,
        unit: 'ms',
      },
      {
        metric: 'ratio bindery / server-memory, first tool answer (default)',
        value: ratio(bundled, 'first'),
        unit: '×',
        goal: '≤ 1.0×',
        met: ratio(bundled, 'first') <= 1,
      },
      {
        metric: 'ratio bindery / server-memory, first tool answer: sources / fresh home, bundle / fresh home, sources',
        value: `${ratio(sources, 'first')} / ${ratio(bundledFresh, 'first')} / ${ratio(sourcesFresh, 'first')}`,
        unit: '×',
      },
      {
        metric: 'ratio bindery / server-memory, initialize: default / sources',
        value: `${ratio(bundled, 'initialize')} / ${ratio(sources, 'initialize')}`,
        unit: '×',
      },
      {
        metric: 'bindery second call (right after the first) / a second later, default, p50',
        value: `${ms(bundled, 'second', 2)} / ${ms(bundled, 'later', 2)}`,
        unit: 'ms',
      },
      {
        metric: 'bindery second call / a second later, sources, p50',
        value: `${ms(sources, 'second', 2)} / ${ms(sources, 'later', 2)}`,
        unit: 'ms',
      },
      {
        metric: 'server-memory second call / a second later, p50',
        value: `${ms(memory, 'second', 2)} / ${ms(memory, 'later', 2)}`,
        unit: 'ms',
      },
      { metric: 'machine: cores / 1-minute load average at the end', value: `${availableParallelism()} / ${round(loadavg()[0] ?? 0, 1)}` },
    ],
    extra: { bundled, sources, bundledFresh, sourcesFresh, memory, loadAverage: loadavg(), cores: availableParallelism() },
  };
}
