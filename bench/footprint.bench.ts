// Bindery's own footprint: tools/list tokens per mode (eager vs lazy vs proxy), list_available_tools
// latency warm and cold, and `bindery measure` tables for server-memory and Bindery itself (saved
// under bench/results/).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createDatabase, migrate } from '../db/index.ts';
import {
  createBinderyServer,
  createRegistry,
  createTiktokenCounter,
  parseConfig,
  SERVER_NAME,
  SERVER_VERSION,
  type ToolMode,
} from '../core/index.ts';
import { ensureCaller } from '../core/services/prepare.ts';
import { countEntry } from '../core/footprint/definition.ts';
import { binderyMeasureInput, foreignMeasureInput, formatMeasureReport, measureTools } from '../core/footprint/measure.ts';
import { listRemoteTools } from '../core/footprint/remote.ts';
import { percentiles, round, type BenchSection } from './types.ts';

const root = join(import.meta.dir, '..');
const results = join(import.meta.dir, 'results');

async function world() {
  const config = parseConfig({ BINDERY_DB_URL: ':memory:' });
  const database = createDatabase({ url: config.dbUrl });
  await migrate(database.db);
  const tokens = createTiktokenCounter(config.tokenizer);
  await tokens.load();
  const deps = { db: database.db, tokens, config, now: () => Date.now() };
  const caller = await ensureCaller(deps, 'bench');
  const connect = async (mode: ToolMode, alwaysTools = config.alwaysTools) => {
    const server = createBinderyServer({ ...deps, config: { ...config, alwaysTools } }, { caller, mode });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(a);
    return client;
  };
  return { deps, connect, close: () => database.close() };
}

/** A fresh process: everything loaded, then the first list_available_tools call timed (ms). */
const COLD_SCRIPT = `
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createDatabase, migrate } from './db/index.ts';
import { createBinderyServer, createTiktokenCounter, parseConfig } from './core/index.ts';
import { ensureCaller } from './core/services/prepare.ts';
const config = parseConfig({ BINDERY_DB_URL: ':memory:' });
const database = createDatabase({ url: config.dbUrl });
await migrate(database.db);
const tokens = createTiktokenCounter(config.tokenizer);
await tokens.load();
const deps = { db: database.db, tokens, config, now: () => Date.now() };
const server = createBinderyServer(deps, { caller: await ensureCaller(deps, 'bench'), mode: 'eager' });
const [a, b] = InMemoryTransport.createLinkedPair();
await server.connect(b);
const client = new Client({ name: 'bench', version: '1' });
await client.connect(a);
const t0 = performance.now();
await client.callTool({ name: 'list_available_tools', arguments: {} });
console.log(performance.now() - t0);
process.exit(0);
`;

export async function run(): Promise<BenchSection[]> {
  const w = await world();
  const tokens = w.deps.tokens;

  // 1. tools/list per mode, counted over exactly what each session's tools/list returned.
  // Model-visible tokens (name, description, input schema: what clients put in the model's context)
  // come first; the full tools/list entry (with output schema) is shown beside.
  const perMode: Record<string, { tools: number; model: number; tokens: number }> = {};
  const cost = (tools: Parameters<typeof countEntry>[0][]) => {
    const each = tools.map((t) => countEntry(t, tokens));
    return { tools: tools.length, model: each.reduce((n, c) => n + c.modelTokens, 0), tokens: each.reduce((n, c) => n + c.tokens, 0) };
  };
  for (const mode of ['eager', 'lazy', 'proxy'] as const) {
    const client = await w.connect(mode);
    const { tools } = await client.listTools();
    perMode[mode] = cost(tools);
    await client.close();
  }
  // The contract's default always-listed set holds two of the largest tools; show the minimal set too.
  const minimal = await w.connect('lazy', ['search_tools', 'help']);
  const minimalTools = (await minimal.listTools()).tools;
  perMode['lazy-minimal'] = cost(minimalTools);
  await minimal.close();
  const eager = perMode.eager!.model;
  const reduction = (m: string) => round((1 - perMode[m]!.model / eager) * 100, 1);
  const both = (m: string) => `${perMode[m]!.model.toLocaleString('en-US')} / ${perMode[m]!.tokens.toLocaleString('en-US')}`;
  const modes: BenchSection = {
    title: 'tools/list tokens per mode',
    rows: [
      { metric: `eager (${perMode.eager!.tools} tools): model-visible / tools/list`, value: both('eager'), unit: 'tokens' },
      { metric: `lazy, default set (${perMode.lazy!.tools} tools): model-visible / tools/list`, value: both('lazy'), unit: 'tokens' },
      { metric: `proxy (${perMode.proxy!.tools} tools): model-visible / tools/list`, value: both('proxy'), unit: 'tokens' },
      {
        metric:
          'lazy default set: model-visible reduction vs eager (search_bindings, get_binding, search_tools; goal ≤ 250 model-visible tokens)',
        value: reduction('lazy'),
        unit: '%',
      },
      { metric: 'proxy: model-visible reduction vs eager', value: reduction('proxy'), unit: '%' },
      {
        metric: `lazy with BINDERY_ALWAYS_TOOLS=search_tools,help (${perMode['lazy-minimal']!.tools} tools): model-visible / tools/list`,
        value: both('lazy-minimal'),
        unit: 'tokens',
      },
      {
        metric: 'that lazy set: reduction vs eager',
        value: reduction('lazy-minimal'),
        unit: '%',
        goal: '≥ 90 %',
        met: reduction('lazy-minimal') >= 90,
      },
    ],
    extra: perMode,
  };

  // 2. list_available_tools: warm round trips in one session, cold first calls in fresh processes.
  const client = await w.connect('eager');
  const first = await client.callTool({ name: 'list_available_tools', arguments: {} });
  if (first.isError) throw new Error(`list_available_tools failed: ${JSON.stringify(first.content)}`);
  for (let i = 0; i < 20; i++) await client.callTool({ name: 'list_available_tools', arguments: {} });
  const warm: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    await client.callTool({ name: 'list_available_tools', arguments: {} });
    warm.push(performance.now() - t0);
  }
  await client.close();
  const cold: number[] = [];
  for (let i = 0; i < 5; i++) {
    const p = Bun.spawnSync(['bun', '-e', COLD_SCRIPT], { cwd: root });
    const ms = Number(p.stdout.toString().trim());
    if (!Number.isFinite(ms) || p.exitCode !== 0) throw new Error(`cold run failed: ${p.stderr.toString()}`);
    cold.push(ms);
  }
  const wp = percentiles(warm);
  const cp = percentiles(cold);
  const latency: BenchSection = {
    title: 'list_available_tools latency (client round trip, in memory)',
    rows: [
      { metric: 'warm p50', value: round(wp.p50), unit: 'ms', goal: '≤ 10 ms', met: wp.p50 <= 10 },
      { metric: 'warm p95', value: round(wp.p95), unit: 'ms', goal: '≤ 10 ms', met: wp.p95 <= 10 },
      { metric: 'cold (first call in a fresh process, median of 5)', value: round(cp.p50), unit: 'ms' },
    ],
    extra: { warm: wp, cold },
  };
  w.close();

  // 3. `bindery measure` on server-memory (over stdio) and on Bindery itself; the tables are saved.
  const registry = createRegistry();
  const transport = new StdioClientTransport({
    command: join(root, 'node_modules', '.bin', 'mcp-server-memory'),
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), MEMORY_FILE_PATH: join(tmpdir(), `bindery-bench-memory-${process.pid}.jsonl`) },
  });
  const remote = await listRemoteTools(transport, { timeoutMs: 15_000, label: 'mcp-server-memory' });
  const memory = measureTools(foreignMeasureInput(remote.server, remote.tools, registry), tokens);
  const self = measureTools(
    { ...binderyMeasureInput(registry, w.deps.config), server: { name: SERVER_NAME, version: SERVER_VERSION } },
    tokens,
  );
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'measure-server-memory.md'), formatMeasureReport(memory));
  writeFileSync(join(results, 'measure-bindery.md'), formatMeasureReport(self));
  const measured: BenchSection = {
    title: 'bindery measure',
    rows: [
      { metric: `server-memory: ${memory.toolCount} tools`, value: memory.totalTokens, unit: 'tokens' },
      { metric: 'server-memory: largest tool', value: `${memory.largest[0]?.name} (${memory.largest[0]?.tokens})` },
      { metric: `bindery: ${self.toolCount} tools (eager)`, value: self.totalTokens, unit: 'tokens' },
      { metric: 'bindery: lazy / proxy', value: `${self.modes.lazy.tokens} / ${self.modes.proxy.tokens} tokens` },
      { metric: 'bindery: largest tool', value: `${self.largest[0]?.name} (${self.largest[0]?.tokens})` },
      { metric: 'tables', value: 'bench/results/measure-server-memory.md, measure-bindery.md' },
    ],
  };
  return [modes, latency, measured];
}
