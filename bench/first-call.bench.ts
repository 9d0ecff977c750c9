// First impression (issue 21): a client spawns the server over stdio, initializes and calls one
// tool; the clock stops at that tool's answer. Bindery (`bun adapters/stdio.ts`, fresh database,
// search_bindings) is timed against the reference memory server (@modelcontextprotocol/server-memory
// under Node, search_nodes) in the same run, alternating, so both see the same machine load. Then the
// second call in the same process, so a head start for the first call that cost the later ones shows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
}

async function timeServer(command: string, args: string[], env: Record<string, string>, tool: string, toolArgs: Record<string, unknown>): Promise<Timing> {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-first-'));
  try {
    const t0 = performance.now();
    const transport = new StdioClientTransport({
      command,
      args,
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...env, ...(env.BINDERY_DB_URL ? { BINDERY_DB_URL: `file:${join(dir, 'data', 'bindery.db')}` } : { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }) },
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
    await client.callTool({ name: tool, arguments: toolArgs });
    const second = performance.now() - t1;
    await client.close();
    return { initialize, first, second };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** spawn → initialize → first tool answer, Bindery against server-memory. */
export async function run(): Promise<BenchSection> {
  const bindery: Timing[] = [];
  const memory: Timing[] = [];
  const memoryBin = join(root, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
  for (let i = 0; i < RUNS; i++) {
    bindery.push(await timeServer(process.execPath, [join(root, 'adapters', 'stdio.ts')], { BINDERY_DB_URL: 'x' }, 'search_bindings', { query: 'getting started' }));
    memory.push(await timeServer('node', [memoryBin], {}, 'search_nodes', { query: 'getting started' }));
  }
  const p50 = (xs: Timing[], k: keyof Timing) => percentiles(xs.map((t) => t[k])).p50;
  const ratio = (k: keyof Timing) => round(p50(bindery, k) / p50(memory, k), 2);
  return {
    title: 'first impression (stdio, fresh process)',
    rows: [
      { metric: `bindery: spawn → initialize, p50 of ${RUNS}`, value: round(p50(bindery, 'initialize'), 0), unit: 'ms' },
      { metric: `bindery: spawn → first tool answer (search_bindings), p50 of ${RUNS}`, value: round(p50(bindery, 'first'), 0), unit: 'ms' },
      { metric: 'bindery: second call, same process, p50', value: round(p50(bindery, 'second'), 2), unit: 'ms' },
      { metric: `server-memory: spawn → initialize, p50 of ${RUNS}`, value: round(p50(memory, 'initialize'), 0), unit: 'ms' },
      { metric: 'server-memory: spawn → first tool answer (search_nodes), p50', value: round(p50(memory, 'first'), 0), unit: 'ms' },
      { metric: 'server-memory: second call, same process, p50', value: round(p50(memory, 'second'), 2), unit: 'ms' },
      { metric: 'ratio bindery / server-memory: initialize', value: ratio('initialize'), unit: '×' },
      { metric: 'ratio bindery / server-memory: first tool answer', value: ratio('first'), unit: '×', goal: '≤ 1.0×', met: ratio('first') <= 1 },
    ],
    extra: { bindery, memory },
  };
}
