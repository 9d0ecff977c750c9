// First impression: a client spawns the server over stdio, initializes and calls one tool; the clock
// stops at that tool's answer. Bindery, started as `bindery connect` configures it (`bun
// adapters/cli.ts stdio`, on a database and in a home folder an earlier launch made, as on a user's
// machine: Bun keeps its transpiled copies of large modules there), is timed against the reference
// memory server (@modelcontextprotocol/server-memory under Node, search_nodes) in the same run,
// alternating, so all see the same machine load; with the tokenizer's table built on a worker thread
// (the default) and on the main thread (BINDERY_TOKENIZER_THREAD=0); and once more with a fresh home
// folder per launch (no transpiler cache: a first launch). Later calls are timed too: the one right
// after the first, and one a second later, so a head start for the first call that costs later ones
// would show.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
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
 * spawn → initialize → first tool answer: Bindery (tokenizer table on a worker thread, the default; on
 * the main thread; and with a fresh home per launch) against server-memory. The load average is recorded so a
 * run on a saturated machine reads as one.
 */
export async function run(): Promise<BenchSection> {
  const mainThread: Timing[] = [];
  const threaded: Timing[] = [];
  const freshHome: Timing[] = [];
  const memory: Timing[] = [];
  const memoryBin = join(root, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
  const bindery = [join(root, 'adapters', 'cli.ts'), 'stdio'];
  const dbDir = mkdtempSync(join(tmpdir(), 'bindery-first-db-'));
  const homes = { bindery: join(dbDir, 'home-bindery'), memory: join(dbDir, 'home-memory') };
  const db = { BINDERY_DB_URL: `file:${join(dbDir, 'bindery.db')}`, BINDERY_TOOL_MODE: 'eager' };
  const search = { query: 'getting started' };
  try {
    // The earlier launches: the database, and each home folder as a user's machine has it.
    await timeServer(process.execPath, bindery, db, 'search_bindings', search, homes.bindery);
    await timeServer('node', [memoryBin], {}, 'search_nodes', search, homes.memory);
    for (let i = 0; i < RUNS; i++) {
      threaded.push(await timeServer(process.execPath, bindery, db, 'search_bindings', search, homes.bindery));
      memory.push(await timeServer('node', [memoryBin], {}, 'search_nodes', search, homes.memory));
      mainThread.push(
        await timeServer(process.execPath, bindery, { ...db, BINDERY_TOKENIZER_THREAD: '0' }, 'search_bindings', search, homes.bindery),
      );
      freshHome.push(await timeServer(process.execPath, bindery, db, 'search_bindings', search));
    }
  } finally {
    rmSync(dbDir, { recursive: true, force: true });
  }
  const p50 = (xs: Timing[], k: keyof Timing) => percentiles(xs.map((t) => t[k])).p50;
  const ratio = (xs: Timing[], k: keyof Timing) => round(p50(xs, k) / p50(memory, k), 2);
  const ms = (xs: Timing[], k: keyof Timing, digits = 0) => round(p50(xs, k), digits);
  return {
    title: 'first impression (stdio, fresh process)',
    rows: [
      {
        metric: `server-memory: spawn → initialize / → first tool answer (search_nodes), p50 of ${RUNS}`,
        value: `${ms(memory, 'initialize')} / ${ms(memory, 'first')}`,
        unit: 'ms',
      },
      {
        metric: 'bindery (default: tokenizer table built on a worker thread): spawn → initialize / → first answer (search_bindings)',
        value: `${ms(threaded, 'initialize')} / ${ms(threaded, 'first')}`,
        unit: 'ms',
      },
      {
        metric: 'bindery, tokenizer table on the main thread (BINDERY_TOKENIZER_THREAD=0): spawn → initialize / → first answer',
        value: `${ms(mainThread, 'initialize')} / ${ms(mainThread, 'first')}`,
        unit: 'ms',
      },
      {
        metric:
          'bindery, a fresh home folder per launch (no Bun transpiler cache, as on a first launch): spawn → initialize / → first answer',
        value: `${ms(freshHome, 'initialize')} / ${ms(freshHome, 'first')}`,
        unit: 'ms',
      },
      {
        metric: 'ratio bindery / server-memory, first tool answer (default)',
        value: ratio(threaded, 'first'),
        unit: '×',
        goal: '≤ 1.0×',
        met: ratio(threaded, 'first') <= 1,
      },
      {
        metric: 'ratio bindery / server-memory, first tool answer: main thread / fresh home',
        value: `${ratio(mainThread, 'first')} / ${ratio(freshHome, 'first')}`,
        unit: '×',
      },
      {
        metric: 'ratio bindery / server-memory, initialize: default / main thread / fresh home',
        value: `${ratio(threaded, 'initialize')} / ${ratio(mainThread, 'initialize')} / ${ratio(freshHome, 'initialize')}`,
        unit: '×',
      },
      {
        metric: 'bindery second call (right after the first) / a second later, default, p50',
        value: `${ms(threaded, 'second', 2)} / ${ms(threaded, 'later', 2)}`,
        unit: 'ms',
      },
      {
        metric: 'bindery second call / a second later, main thread, p50',
        value: `${ms(mainThread, 'second', 2)} / ${ms(mainThread, 'later', 2)}`,
        unit: 'ms',
      },
      {
        metric: 'server-memory second call / a second later, p50',
        value: `${ms(memory, 'second', 2)} / ${ms(memory, 'later', 2)}`,
        unit: 'ms',
      },
      { metric: 'machine: cores / 1-minute load average at the end', value: `${availableParallelism()} / ${round(loadavg()[0] ?? 0, 1)}` },
    ],
    extra: { mainThread, threaded, freshHome, memory, loadAverage: loadavg(), cores: availableParallelism() },
  };
}
