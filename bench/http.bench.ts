// HTTP benchmarks on loopback. (1) `tools/call get_binding` tier 1 against `bun run serve`, stateless
// and with sessions, next to a trivial echo tool served by the same SDK transport on the same runtime
// (Bun + Elysia), each server in its own process, one bounded load client here: Bindery ÷ echo.
// (2) Edge handler cold start to first response under Deno and under workerd, and whether the
// tokenizer was loaded on that path (GET /healthz reports it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentiles, round, type BenchRow, type BenchSection } from './types.ts';

const ROOT = join(import.meta.dir, '..');
const CONCURRENCY = 8;
const WARMUP_MS = 500;
const MEASURE_MS = 3_000;
const MAX_REQUESTS = 200_000;
const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': '2025-06-18' };

/** `bun bench/http.bench.ts --echo-server <port> [--stateless]`: the echo baseline, built like core/http's /mcp. */
async function serveEcho(port: number, stateless: boolean): Promise<void> {
  const { Elysia } = await import('elysia');
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { WebStandardStreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js');
  const { z } = await import('zod');
  const make = () => {
    const mcp = new McpServer({ name: 'echo', version: '1.0.0' });
    mcp.registerTool('echo', { description: 'Echoes its text.', inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    return mcp;
  };
  const sessions = new Map<string, InstanceType<typeof WebStandardStreamableHTTPServerTransport>>();
  const handle = async (request: Request): Promise<Response> => {
    const body = await request.json();
    if (stateless) {
      const server = make();
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request, { parsedBody: body });
      } finally {
        void server.close();
      }
    }
    const sid = request.headers.get('mcp-session-id');
    if (sid) return sessions.get(sid)?.handleRequest(request, { parsedBody: body }) ?? new Response(null, { status: 404 });
    const transport: InstanceType<typeof WebStandardStreamableHTTPServerTransport> = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    await make().connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  };
  new Elysia().mount(handle).listen({ hostname: '127.0.0.1', port });
  console.error(`echo ready on ${port}`);
}

if (import.meta.main && process.argv.includes('--echo-server')) {
  await serveEcho(Number(process.argv[process.argv.indexOf('--echo-server') + 1]), process.argv.includes('--stateless'));
}

function freePort(): number {
  const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

async function waitFor(probe: () => Promise<boolean>, ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (await probe().catch(() => false)) return;
    await Bun.sleep(2);
  }
  throw new Error('server did not come up');
}

interface Load {
  rps: number;
  p50: number;
  p99: number;
  n: number;
  errors: number;
}

/** A bounded closed-loop load: CONCURRENCY workers, each its own session when `init` is given. */
async function load(url: string, headers: Record<string, string>, call: string, init: boolean): Promise<Load> {
  const workers = await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const h: Record<string, string> = { ...HEADERS, ...headers };
      if (init) {
        const res = await fetch(url, {
          method: 'POST',
          headers: h,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 0,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
          }),
        });
        await res.text();
        h['Mcp-Session-Id'] = res.headers.get('mcp-session-id') ?? '';
        await fetch(url, {
          method: 'POST',
          headers: h,
          body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        }).then((r) => r.text());
      }
      return h;
    }),
  );
  const samples: number[] = [];
  let errors = 0;
  let sent = 0;
  const start = performance.now();
  const warmEnd = start + WARMUP_MS;
  const end = warmEnd + MEASURE_MS;
  await Promise.all(
    workers.map(async (h) => {
      while (performance.now() < end && sent < MAX_REQUESTS) {
        sent++;
        const t0 = performance.now();
        const res = await fetch(url, { method: 'POST', headers: h, body: call });
        const text = await res.text();
        const t1 = performance.now();
        if (res.status !== 200 || text.includes('"isError":true') || text.includes('"error"')) errors++;
        if (t0 >= warmEnd) samples.push(t1 - t0);
      }
    }),
  );
  const p = percentiles(samples);
  return { rps: samples.length / (MEASURE_MS / 1000), p50: p.p50, p99: p.p99, n: samples.length, errors };
}

async function seed(dbUrl: string, publicUrl: string): Promise<{ key: string; id: string }> {
  const { createDatabase, migrate } = await import('../db/index.ts');
  const { parseConfig, createTiktokenCounter } = await import('../core/index.ts');
  const { ensureCaller, ensureStoredCountsOnce } = await import('../core/services/prepare.ts');
  const { createBinding } = await import('../core/services/bindings.ts');
  const { createApiKey } = await import('../core/http/auth.ts');
  const database = createDatabase({ url: dbUrl });
  await migrate(database.db);
  const tokens = createTiktokenCounter('o200k_base');
  await tokens.load();
  const deps = { db: database.db, tokens, config: parseConfig({ BINDERY_PUBLIC_URL: publicUrl }), now: () => Date.now() };
  const caller = await ensureCaller(deps, 'bench');
  const content = `# Benchmark note\n\n${'Some realistic paragraph text about a topic. '.repeat(60)}\n`;
  const row = await createBinding(
    deps,
    caller,
    { name: 'Benchmark note', content, summary: 'A note read by the benchmark.', keyPoints: ['one', 'two'] },
    { source: 'human', model: null },
  );
  const { key } = await createApiKey(database.db, caller.id, Date.now());
  // As `bindery migrate` does on a deploy: record which tokenizer and URL the stored counts are for.
  await ensureStoredCountsOnce(deps);
  database.close();
  return { key, id: row.bindingId };
}

async function spawnAndLoad(
  cmd: string[],
  env: Record<string, string>,
  port: number,
  headers: Record<string, string>,
  call: string,
  init: boolean,
): Promise<Load> {
  const proc = Bun.spawn(cmd, {
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), ...env },
    stdout: 'ignore',
    stderr: 'ignore',
  });
  try {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status > 0, 20_000);
    return await load(`http://127.0.0.1:${port}/mcp`, headers, call, init);
  } finally {
    proc.kill();
    await proc.exited;
  }
}

async function throughput(dir: string): Promise<BenchSection> {
  const rows: BenchRow[] = [];
  const extra: Record<string, Load> = {};
  const dbUrl = `file:${join(dir, 'bench.db')}`;
  const publicPort = freePort();
  const { key, id } = await seed(dbUrl, `http://127.0.0.1:${publicPort}`);
  const getBinding = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_binding', arguments: { id, tier: '1' } },
  });
  const echo = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } });
  for (const mode of ['stateless', 'sessions'] as const) {
    const stateless = mode === 'stateless';
    const port = freePort();
    const env = {
      BINDERY_DB_URL: dbUrl,
      BINDERY_PUBLIC_URL: `http://127.0.0.1:${publicPort}`,
      PORT: String(port),
      BINDERY_HTTP_STATELESS: stateless ? '1' : '0',
      BINDERY_TOOL_MODE: 'eager',
    };
    const b = await spawnAndLoad(['bun', 'adapters/bun-http.ts'], env, port, { Authorization: `Bearer ${key}` }, getBinding, !stateless);
    const echoPort = freePort();
    const e = await spawnAndLoad(
      ['bun', 'bench/http.bench.ts', '--echo-server', String(echoPort), ...(stateless ? ['--stateless'] : [])],
      {},
      echoPort,
      {},
      echo,
      !stateless,
    );
    extra[`bindery-${mode}`] = b;
    extra[`echo-${mode}`] = e;
    const ratio = b.rps / e.rps;
    rows.push(
      { metric: `${mode}: Bindery get_binding tier 1 throughput`, value: Math.round(b.rps), unit: 'req/s' },
      { metric: `${mode}: Bindery p50 / p99`, value: `${round(b.p50)} / ${round(b.p99)}`, unit: 'ms' },
      { metric: `${mode}: echo tool throughput`, value: Math.round(e.rps), unit: 'req/s' },
      { metric: `${mode}: echo p50 / p99`, value: `${round(e.p50)} / ${round(e.p99)}`, unit: 'ms' },
      { metric: `${mode}: Bindery ÷ echo`, value: round(ratio), goal: '≥ 0.5', met: ratio >= 0.5 },
    );
    if (b.errors || e.errors) rows.push({ metric: `${mode}: errors (Bindery, echo)`, value: `${b.errors}, ${e.errors}` });
  }
  return { title: `HTTP loopback (${CONCURRENCY} clients, ${MEASURE_MS / 1000} s each)`, rows, extra };
}

interface Cold {
  firstMs: number;
  tokenizerLoaded: boolean;
}

/** Time from start to the first answer of `body`, then whether /healthz says the tokenizer loaded. */
async function firstAnswer(base: string, key: string, body: string, started: number): Promise<Cold> {
  let firstMs = NaN;
  await waitFor(async () => {
    const res = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...HEADERS, Authorization: `Bearer ${key}` }, body });
    const text = await res.text();
    if (res.status !== 200 || text.includes('"isError":true')) return false;
    firstMs = performance.now() - started;
    return true;
  }, 30_000);
  const health = (await (await fetch(`${base}/healthz`)).json()) as { tokenizerLoaded?: boolean };
  return { firstMs, tokenizerLoaded: !!health.tokenizerLoaded };
}

async function coldStarts(dir: string): Promise<BenchSection> {
  const rows: BenchRow[] = [];
  const bodies = {
    'tools/list': JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    'get_binding tier 1': '',
  };
  // Deno: spawn → Deno.serve → first answer (a local libSQL file through npm:@libsql/client).
  const { denoBinary } = await import('../support/targets.ts');
  const denoBin = denoBinary();
  if (!denoBin) throw new Error('deno is not installed (bun add -d deno)');
  const denoDb = `file:${join(dir, 'deno.db')}`;
  for (const what of Object.keys(bodies) as (keyof typeof bodies)[]) {
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    const dbFile = `${denoDb}-${what.replace(/\W/g, '')}`;
    const { key, id } = await seed(dbFile, base);
    const body =
      bodies[what] ||
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_binding', arguments: { id, tier: '1' } } });
    const started = performance.now();
    const proc = Bun.spawn([denoBin, 'run', '-A', '--no-lock', 'adapters/deno.ts'], {
      cwd: ROOT,
      env: {
        ...(process.env as Record<string, string>),
        BINDERY_DB_URL: dbFile,
        BINDERY_PUBLIC_URL: base,
        PORT: String(port),
        DENO_NO_UPDATE_CHECK: '1',
      },
      stdout: 'ignore',
      stderr: 'ignore',
    });
    try {
      const c = await firstAnswer(base, key, body, started);
      rows.push(
        { metric: `Deno: process start → first ${what}`, value: round(c.firstMs, 0), unit: 'ms' },
        { metric: `Deno: tokenizer loaded after first ${what}`, value: c.tokenizerLoaded ? 'yes' : 'no' },
      );
    } finally {
      proc.kill();
      await proc.exited;
    }
  }
  // workerd: the bundle is built once; Miniflare boot + isolate start + first answer is timed (D1 seeded beforehand, persisted).
  const { Miniflare } = await import('miniflare');
  const { createD1Database } = await import('../db/client-web.ts');
  const { migrate } = await import('../db/index.ts');
  const { buildWorker } = await import('../support/targets.ts');
  const out = join(dir, 'worker');
  const built = performance.now();
  const { modules } = await buildWorker(out);
  rows.push({ metric: 'workerd: bundle build (not part of cold start)', value: round(performance.now() - built, 0), unit: 'ms' });
  for (const what of Object.keys(bodies) as (keyof typeof bodies)[]) {
    const persist = join(dir, `d1-${what.replace(/\W/g, '')}`);
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    const options = {
      modulesRoot: out,
      modules,
      d1Databases: ['DB'],
      d1Persist: persist,
      compatibilityDate: '2025-09-01',
      host: '127.0.0.1',
      port,
      bindings: { BINDERY_PUBLIC_URL: base },
    };
    const seeding = new Miniflare(options);
    await seeding.ready;
    const db = createD1Database((await seeding.getD1Database('DB')) as never);
    await migrate(db);
    const { seedWorld } = await import('../support/targets.ts');
    const s = await seedWorld(db, base);
    await seeding.dispose();
    const body =
      bodies[what] ||
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_binding', arguments: { id: s.bobPrivate.id, tier: '1' } },
      });
    const started = performance.now();
    const mf = new Miniflare(options);
    try {
      await mf.ready;
      const c = await firstAnswer(base, s.bobKey, body, started);
      rows.push(
        { metric: `workerd: Miniflare start → first ${what}`, value: round(c.firstMs, 0), unit: 'ms' },
        { metric: `workerd: tokenizer loaded after first ${what}`, value: c.tokenizerLoaded ? 'yes' : 'no' },
      );
    } finally {
      await mf.dispose();
    }
  }
  return { title: 'Edge handler cold start', rows };
}

export async function run(): Promise<BenchSection[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-httpbench-'));
  try {
    return [await throughput(dir), await coldStarts(dir)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
