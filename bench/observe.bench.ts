// The cost of observability on a request: `tools/call get_binding` (tier 1) through the whole HTTP app
// in-process (no socket, so the instrumentation's share is not hidden by network time), on three apps
// over one database: no telemetry; /metrics counting (with the AsyncLocalStorage request scope); and
// counting plus the JSON request log (to a sink that drops it). Rounds alternate between the apps so
// drift hits all three alike; the ratios are the figures.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHttpApp, type HttpApp } from '../core/http/app.ts';
import { createTiktokenCounter, parseConfig } from '../core/index.ts';
import { Metrics } from '../core/observe/metrics.ts';
import { createTelemetry, type RequestRecord, type Telemetry } from '../core/observe/telemetry.ts';
import { createBinding } from '../core/services/bindings.ts';
import { ensureCaller } from '../core/services/prepare.ts';
import { createApiKey } from '../core/http/auth.ts';
import { createDatabase, migrate } from '../db/index.ts';
import { percentiles, round, type BenchSection } from './types.ts';

const BASE = 'http://localhost:8787';
const ROUNDS = 40;
const PER_ROUND = 100;
const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': '2025-06-18' };

async function session(app: HttpApp, key: string): Promise<(body: unknown) => Promise<Response>> {
  const auth = { ...HEADERS, Authorization: `Bearer ${key}` };
  const init = await app.fetch(
    new Request(`${BASE}/mcp`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      }),
    }),
  );
  const sid = init.headers.get('mcp-session-id')!;
  await init.text();
  const headers = { ...auth, 'Mcp-Session-Id': sid };
  await (
    await app.fetch(
      new Request(`${BASE}/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      }),
    )
  ).text();
  return (body) => app.fetch(new Request(`${BASE}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) }));
}

export async function run(): Promise<BenchSection> {
  const database = createDatabase({ url: ':memory:' });
  await migrate(database.db);
  const tokens = createTiktokenCounter('o200k_base');
  await tokens.load();
  const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager' });
  const deps = { db: database.db, tokens, config, now: () => Date.now() };
  const user = await ensureCaller(deps, 'bench');
  const row = await createBinding(
    deps,
    user,
    {
      name: 'Bench note',
      content: `# Bench\n\n${'Some words here. '.repeat(80)}\n`,
      summary: 'A note to read.',
      keyPoints: ['one', 'two'],
    },
    { source: 'human', model: null },
  );
  const key = (await createApiKey(database.db, user.id, Date.now())).key;
  const storage = new AsyncLocalStorage<RequestRecord>();
  const scope = { run: <T>(r: RequestRecord, fn: () => T) => storage.run(r, fn), current: () => storage.getStore() };
  const variants: { name: string; telemetry?: Telemetry; config: typeof config }[] = [
    { name: 'off', config },
    {
      name: 'metrics',
      telemetry: createTelemetry({ metrics: new Metrics(), scope }),
      config: { ...config, observe: { metricsToken: 'x'.repeat(32), logFormat: 'text' } },
    },
    {
      name: 'metrics+json log',
      telemetry: createTelemetry({ metrics: new Metrics(), scope, writeLine: () => {} }),
      config: { ...config, observe: { metricsToken: 'x'.repeat(32), logFormat: 'json' } },
    },
  ];
  const apps = variants.map((v) => createHttpApp({ deps: { ...deps, config: v.config, telemetry: v.telemetry } }));
  const calls = await Promise.all(apps.map((a) => session(a, key)));
  const samples: number[][] = variants.map(() => []);
  /** Per round, each variant's median: their ratios are immune to a GC pause or a busy neighbour in one round. */
  const roundMedians: number[][] = variants.map(() => []);
  const body = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'get_binding', arguments: { id: row.bindingId, tier: '1' } },
  });
  let id = 1;
  // Warm-up: every path JIT-compiled before anything is measured.
  for (const call of calls) for (let i = 0; i < 300; i++) await (await call(body(id++))).text();
  for (let r = 0; r < ROUNDS; r++) {
    for (let v = 0; v < variants.length; v++) {
      const k = (v + r) % variants.length;
      const mine: number[] = [];
      for (let i = 0; i < PER_ROUND; i++) {
        const t = performance.now();
        const res = await calls[k]!(body(id++));
        await res.text();
        mine.push(performance.now() - t);
      }
      samples[k]!.push(...mine);
      roundMedians[k]!.push(percentiles(mine).p50);
    }
  }
  const stats = samples.map((s) => ({ ...percentiles(s), mean: s.reduce((a, b) => a + b, 0) / s.length }));
  const scrape = await apps[1]!.fetch(new Request(`${BASE}/metrics`, { headers: { Authorization: `Bearer ${'x'.repeat(32)}` } }));
  const counted = /bindery_tool_calls_total\{tool="get_binding",outcome="ok"\} (\d+)/.exec(await scrape.text())?.[1];
  for (const a of apps) await a.close();
  database.close();
  const median = (xs: number[]) => percentiles(xs).p50;
  const ratio = (k: number) => round(median(roundMedians[k]!.map((m, r) => m / roundMedians[0]![r]!)), 3);
  const meanRatio = (k: number) => round(stats[k]!.mean / stats[0]!.mean, 3);
  return {
    title: 'Observability cost (get_binding tier 1, in-process HTTP app, sessions)',
    rows: [
      { metric: 'mean per request, telemetry off', value: round(stats[0]!.mean * 1000, 1), unit: 'µs' },
      { metric: 'mean per request, /metrics on', value: round(stats[1]!.mean * 1000, 1), unit: 'µs' },
      { metric: 'mean per request, /metrics + JSON log', value: round(stats[2]!.mean * 1000, 1), unit: 'µs' },
      { metric: 'p50 off / metrics / metrics+log', value: stats.map((s) => round(s.p50 * 1000, 0)).join(' / '), unit: 'µs' },
      { metric: 'ratio /metrics on ÷ off (median of per-round p50 ratios)', value: ratio(1), goal: '≤ 1.10', met: ratio(1) <= 1.1 },
      { metric: 'ratio /metrics + JSON log ÷ off (same)', value: ratio(2), goal: '≤ 1.15', met: ratio(2) <= 1.15 },
      { metric: 'ratio of means on ÷ off, +log ÷ off (noisy: pauses)', value: `${meanRatio(1)} / ${meanRatio(2)}` },
      {
        metric: 'calls counted by /metrics (check)',
        value: Number(counted ?? 0),
        goal: `= ${300 + ROUNDS * PER_ROUND}`,
        met: Number(counted) === 300 + ROUNDS * PER_ROUND,
      },
    ],
    extra: { rounds: ROUNDS, perRound: PER_ROUND, stats },
  };
}
