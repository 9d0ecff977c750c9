// /metrics, /readyz and the JSON request log on the real HTTP app: what is counted matches what the
// tools answered, the token guards the endpoint, and no secret ever reaches a log line.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Database from 'libsql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpApp, type HttpApp } from '../../core/http/app.ts';
import { parseConfig } from '../../core/index.ts';
import { Metrics, DURATION_BUCKETS } from '../../core/observe/metrics.ts';
import { routeTemplate } from '../../core/observe/http.ts';
import { createTelemetry, type RequestRecord } from '../../core/observe/telemetry.ts';
import { createDatabase, migrate, type Database as Db } from '../../db/index.ts';
import { EmbeddedClient } from '../../db/embedded-client.ts';
import { seedWorld, type Seed } from '../../support/targets.ts';
import { testCounter } from '../helpers.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const BASE = 'http://localhost:8787';
let database: Db;
let seed: Seed;
let app: HttpApp;
let metrics: Metrics;
const lines: string[] = [];

/** Parses exposition text into `name{labels}` → value, checking every line's shape on the way. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.trimEnd().split('\n')) {
    if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const m = /^([a-z_]+)(\{(?:[a-z_]+="(?:[^"\\\n]|\\["\\n])*",?)*\})? (\S+)$/.exec(line);
    expect(m, line).not.toBeNull();
    out.set(`${m![1]}${m![2] ?? ''}`, Number(m![3]));
  }
  return out;
}

async function scrape(token = TOKEN): Promise<Response> {
  return app.fetch(new Request(`${BASE}/metrics`, { headers: { Authorization: `Bearer ${token}` } }));
}

async function client(key: string): Promise<Client> {
  const c = new Client({ name: 'metrics-test', version: '1.0.0' });
  const fetchApp = (url: string | URL, init?: RequestInit) => app.fetch(new Request(url, init));
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
      fetch: fetchApp as typeof fetch,
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return c;
}

beforeAll(async () => {
  database = createDatabase({ url: ':memory:' });
  await migrate(database.db);
  seed = await seedWorld(database.db, BASE);
  metrics = new Metrics();
  const storage = new AsyncLocalStorage<RequestRecord>();
  const telemetry = createTelemetry({
    metrics,
    scope: { run: (r, fn) => storage.run(r, fn), current: () => storage.getStore() },
    writeLine: (l) => lines.push(l),
  });
  const config = parseConfig({
    BINDERY_DB_URL: ':memory:',
    BINDERY_METRICS_TOKEN: TOKEN,
    BINDERY_LOG_FORMAT: 'json',
    BINDERY_TOOL_MODE: 'eager',
  });
  app = createHttpApp({ deps: { db: database.db, tokens: await testCounter(), config, telemetry, now: Date.now } });
});

afterAll(async () => {
  await app.close();
  database.close();
});

describe('GET /metrics', () => {
  test('unset token: 404, as if there were no such route', async () => {
    const config = parseConfig({ BINDERY_DB_URL: ':memory:' });
    const plain = createHttpApp({ deps: { db: database.db, tokens: await testCounter(), config, now: Date.now } });
    const res = await plain.fetch(new Request(`${BASE}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } }));
    expect(res.status).toBe(404);
    await plain.close();
  });

  test('wrong, missing or API-key token: 401 that tells nothing more', async () => {
    for (const headers of <Record<string, string>[]>[
      { Authorization: 'Bearer wrong-token-0123456789abcdef' },
      {},
      { Authorization: `Bearer ${seed.aliceKey}` },
      { Authorization: `Basic ${btoa(`x:${TOKEN}`)}` },
    ]) {
      const res = await app.fetch(new Request(`${BASE}/metrics`, { headers }));
      expect(res.status).toBe(401);
      const text = await res.text();
      expect(text).not.toContain('bindery_');
      expect(text).toBe('{"error":{"code":"UNAUTHORIZED","message":"unauthorized"}}');
    }
  });

  test('counts match the answers: calls by outcome, exact response tokens, histogram, omissions, sessions', async () => {
    const alice = await client(seed.aliceKey);
    let tokens = 0;
    const results = [
      await alice.callTool({ name: 'list_bindings', arguments: { limit: 5 } }),
      await alice.callTool({ name: 'get_binding', arguments: { id: 'bnd_nope000000000000' } }),
      await alice.callTool({
        name: 'create_binding',
        arguments: { name: 'Metrics one', content: '# One\n\nFirst body.\n', summary: 'One.' },
      }),
      await alice.callTool({
        name: 'create_binding',
        arguments: { name: 'Metrics two', content: `# Two\n\n${'words '.repeat(300)}\n`, summary: 'Two.' },
      }),
    ];
    const budgeted = await alice.callTool({ name: 'list_bindings', arguments: { tier: '2', maxTokens: 90 } });
    results.push(budgeted);
    for (const r of results) tokens += (r._meta as any).context.response.tokens;
    const omitted = ((budgeted._meta as any).context.budget?.omitted ?? []).length;
    expect(omitted).toBeGreaterThan(0);

    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const s = samples(await res.text());
    expect(s.get('bindery_tool_calls_total{tool="list_bindings",outcome="ok"}')).toBe(2);
    expect(s.get('bindery_tool_calls_total{tool="get_binding",outcome="not_found"}')).toBe(1);
    expect(s.get('bindery_tool_calls_total{tool="create_binding",outcome="ok"}')).toBe(2);
    const sumTokens = [...s].filter(([k]) => k.startsWith('bindery_response_tokens_total')).reduce((n, [, v]) => n + v, 0);
    expect(sumTokens).toBe(tokens);
    expect(s.get('bindery_tool_duration_seconds_count{tool="list_bindings"}')).toBe(2);
    expect(s.get('bindery_tool_duration_seconds_bucket{tool="list_bindings",le="+Inf"}')).toBe(2);
    let prev = 0;
    for (const b of DURATION_BUCKETS) {
      const v = s.get(`bindery_tool_duration_seconds_bucket{tool="create_binding",le="${b}"}`)!;
      expect(v).toBeGreaterThanOrEqual(prev);
      prev = v;
    }
    expect(s.get('bindery_budget_omissions_total{tool="list_bindings"}')).toBe(1);
    expect(s.get('bindery_budget_omitted_items_total{tool="list_bindings"}')).toBe(omitted);
    expect(s.get('bindery_sessions_open')).toBe(1);
    expect(s.get('bindery_http_requests_total{method="POST",route="/mcp",status="200"}')).toBeGreaterThanOrEqual(5);
    expect(s.has('bindery_db_busy_retries_total')).toBe(true);
    await alice.close();
  });

  test('label values are escaped; histogram is cumulative and ends at +Inf = count', () => {
    const m = new Metrics();
    m.observeTool('we"ird\\tool\nx', { tokens: 3, dataTokens: 1, isError: false, ms: 3 });
    m.observeTool('t', { tokens: 5, dataTokens: 5, isError: true, code: 'INVALID_INPUT', ms: 20_000 });
    const text = m.render();
    expect(text).toContain('bindery_tool_calls_total{tool="we\\"ird\\\\tool\\nx",outcome="ok"} 1');
    expect(text).toContain('bindery_tool_calls_total{tool="t",outcome="invalid_input"} 1');
    const s = samples(text);
    expect(s.get('bindery_tool_duration_seconds_bucket{tool="t",le="10"}')).toBe(0);
    expect(s.get('bindery_tool_duration_seconds_bucket{tool="t",le="+Inf"}')).toBe(1);
    expect(s.get('bindery_tool_duration_seconds_sum{tool="t"}')).toBe(20);
  });
});

describe('GET /readyz and /healthz', () => {
  test('readyz: 200 when the database answers and is migrated; 503 on an unmigrated one', async () => {
    const res = await app.fetch(new Request(`${BASE}/readyz`));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, db: 'ok', migrations: 'current' });
    const bare = createDatabase({ url: ':memory:' });
    const config = parseConfig({ BINDERY_DB_URL: ':memory:' });
    const other = createHttpApp({ deps: { db: bare.db, tokens: await testCounter(), config, now: Date.now } });
    const r = await other.fetch(new Request(`${BASE}/readyz`));
    expect(r.status).toBe(503);
    expect(await r.json()).toMatchObject({ ok: false, migrations: 'pending' });
    await other.close();
    bare.close();
  });

  test('healthz keeps its fields', async () => {
    expect(await (await app.fetch(new Request(`${BASE}/healthz`))).json()).toMatchObject({ ok: true, db: 'ok', migrations: 'current' });
  });
});

describe('JSON request log', () => {
  test('one line per request with route template, tools and tokens; no secrets, slugs, bodies or query strings', async () => {
    lines.length = 0;
    const secretWord = 'quetzalcoatl-secret-body';
    const shareSecret = 'shs_' + 'x'.repeat(40);
    const cookie = 'bindery_session=cookie-secret-value';
    const alice = await client(seed.aliceKey);
    const made = await alice.callTool({
      name: 'create_binding',
      arguments: { name: 'Log secret', content: `# Hidden\n\n${secretWord}\n`, summary: `about ${secretWord}` },
    });
    const id = (made.structuredContent as any).binding?.id ?? (made._meta as any).context.binding.id;
    await app.fetch(
      new Request(`${BASE}/api/bindings/${id}?tier=2`, { headers: { Authorization: `Bearer ${seed.aliceKey}`, Cookie: cookie } }),
    );
    await app.fetch(new Request(`${BASE}/@alice/log-secret?share=${shareSecret}`, { headers: { Cookie: cookie } }));
    await app.fetch(
      new Request(`${BASE}/api/bindings`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${seed.bobKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'x', content: secretWord, summary: secretWord }),
      }),
    );
    await app.fetch(new Request(`${BASE}/no/such/${secretWord}`));
    await app.fetch(new Request(`${BASE}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } }));
    await alice.close();
    const parsed = lines.map((l) => JSON.parse(l));
    for (const p of parsed) {
      expect(Object.keys(p).sort()).toEqual([
        'level',
        'method',
        'ms',
        'msg',
        'outcome',
        'requestId',
        'responseTokens',
        'route',
        'status',
        'time',
        'tools',
      ]);
    }
    const all = lines.join('\n');
    for (const secret of [secretWord, shareSecret, 'cookie-secret-value', seed.aliceKey, seed.bobKey, TOKEN, id, 'log-secret', '?'])
      expect(all).not.toContain(secret);
    const call = parsed.find((p) => p.tools.includes('create_binding'))!;
    expect(call).toMatchObject({ method: 'POST', route: '/mcp', status: 200, outcome: 'ok' });
    expect(call.responseTokens).toBe((made._meta as any).context.response.tokens);
    expect(parsed.some((p) => p.route === '/api/bindings/:id' && p.status === 200)).toBe(true);
    expect(parsed.some((p) => p.route === '/@:space/:slug')).toBe(true);
    expect(parsed.some((p) => p.route === 'unmatched' && p.status === 404)).toBe(true);
    expect(parsed.some((p) => p.route === '/metrics' && p.status === 200)).toBe(true);
  });

  test('route templates come from the route table: no ids or slugs, one label for anything unknown', () => {
    expect(routeTemplate('/api/bindings/bnd_abc')).toBe('/api/bindings/:id');
    expect(routeTemplate('/api/zzz')).toBe('unmatched');
    expect(routeTemplate('/api/junk/deeper/still')).toBe('unmatched');
    expect(routeTemplate('/@bob/plan')).toBe('/@:space/:slug');
    expect(routeTemplate('/@bob')).toBe('/@:space');
    expect(routeTemplate('/.well-known/oauth-authorization-server')).toBe('/.well-known/oauth-authorization-server');
    expect(routeTemplate('/.well-known/anything-else')).toBe('unmatched');
    expect(routeTemplate('/random-thing')).toBe('unmatched');
    // Web pages carry their route-table label (they were all "unmatched").
    expect(routeTemplate('/b/bnd_abc123abc123abc1/diff')).toBe('/b/:id/diff');
    expect(routeTemplate('/b/bnd_abc123abc123abc1/edit')).toBe('/b/:id/edit');
    expect(routeTemplate('/sets/set_x1x1x1x1x1x1x1x1')).toBe('/sets/:id');
    expect(routeTemplate('/login/some-secret-token')).toBe('/login/:id');
    expect(routeTemplate('/')).toBe('/');
    expect(routeTemplate('/web/app.css')).toBe('/web/app.css');
    expect(routeTemplate('/b/not-an-id/diff')).toBe('unmatched');
  });
});

describe('metrics cannot be blinded', () => {
  test('3,000 anonymous junk paths under /api/ add one series; real traffic after them is still counted', async () => {
    const m = new Metrics();
    const telemetry = createTelemetry({ metrics: m });
    const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_METRICS_TOKEN: TOKEN, BINDERY_TOOL_MODE: 'eager' });
    const flooded = createHttpApp({ deps: { db: database.db, tokens: await testCounter(), config, telemetry, now: Date.now } });
    for (let i = 0; i < 3_000; i++) await flooded.fetch(new Request(`${BASE}/api/junk-${i}`, { method: i % 2 ? 'GET' : 'PROPFIND' }));
    await flooded.fetch(new Request(`${BASE}/readyz`));
    await flooded.fetch(new Request(`${BASE}/api/me`, { headers: { Authorization: `Bearer ${seed.aliceKey}` } }));
    await flooded.fetch(new Request(`${BASE}/b/bnd_abc123abc123abc1/diff?from=1&to=2`));
    const text = await (await flooded.fetch(new Request(`${BASE}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } }))).text();
    const s = samples(text);
    const http = [...s.keys()].filter((k) => k.startsWith('bindery_http_requests_total'));
    expect(http.filter((k) => k.includes('junk'))).toEqual([]);
    expect(s.get('bindery_http_requests_total{method="GET",route="unmatched",status="401"}')).toBe(1_500);
    expect(s.get('bindery_http_requests_total{method="OTHER",route="unmatched",status="401"}')).toBe(1_500);
    expect(s.get('bindery_http_requests_total{method="GET",route="/readyz",status="200"}')).toBe(1);
    expect(s.get('bindery_http_requests_total{method="GET",route="/api/me",status="200"}')).toBe(1);
    expect(s.get('bindery_http_requests_total{method="GET",route="/b/:id/diff",status="401"}')).toBe(1);
    expect(http.length).toBeLessThanOrEqual(5);
    await flooded.close();
  });
});

describe('database events', () => {
  test('busy retries and failed calls reach the observer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-dbev-'));
    const path = join(dir, 'x.db');
    let retries = 0;
    const codes: (string | undefined)[] = [];
    const events = { busyRetry: () => void retries++, error: (c: string | undefined) => void codes.push(c) };
    const c = new EmbeddedClient(path, { busyTimeoutMs: 0, retryForMs: 150, events });
    await c.execute('CREATE TABLE t (x INTEGER PRIMARY KEY)');
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    await expect(c.execute('INSERT INTO t VALUES (1)')).rejects.toThrow();
    holder.exec('ROLLBACK');
    holder.close();
    expect(retries).toBeGreaterThan(0);
    expect(codes[0]).toMatch(/^SQLITE_BUSY/);
    await c.execute('INSERT INTO t VALUES (1)');
    await expect(c.execute('INSERT INTO t VALUES (1)')).rejects.toThrow();
    expect(codes[1]).toMatch(/^SQLITE_CONSTRAINT/);
    c.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('the real server (child process)', () => {
  test('BINDERY_LOG_FORMAT=json: every stderr line is JSON, request lines name their tools, no secret appears; /metrics counts them', async () => {
    const { mkdtempSync: mk, rmSync: rm } = await import('node:fs');
    const { createKey, httpClient, startServer } = await import('../../support/procs.ts');
    const dir = mk(join(tmpdir(), 'bindery-jsonlog-'));
    const env = {
      BINDERY_DB_URL: `file:${join(dir, 'b.db')}`,
      BINDERY_TOOL_MODE: 'eager',
      BINDERY_LOG_FORMAT: 'json',
      BINDERY_METRICS_TOKEN: TOKEN,
    };
    const key = await createKey(env, 'logger');
    const server = await startServer(env);
    try {
      const secret = 'xylophone-hidden-words';
      const c = await httpClient(server.url, key);
      const made = await c.callTool({
        name: 'create_binding',
        arguments: { name: 'Secret plan', content: `# Plan\n\n${secret}\n`, summary: secret },
      });
      expect(made.isError).toBeFalsy();
      await c.callTool({ name: 'search_bindings', arguments: { query: secret } });
      await fetch(`${server.url}/@logger/secret-plan?share=shs_${'y'.repeat(40)}`, { headers: { Cookie: 'sid=cookie-secret-zz' } });
      await fetch(`${server.url}/api/bindings`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: secret, content: secret, summary: secret }),
      });
      const scraped = await (await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
      expect(scraped).toContain('bindery_tool_calls_total{tool="create_binding",outcome="ok"} 1');
      expect(scraped).toContain('bindery_tool_calls_total{tool="search_bindings",outcome="ok"} 1');
      expect(scraped).toMatch(/bindery_sessions_open 1\n/);
      await c.close();
      await Bun.sleep(100);
      const lines = server.stderr().trim().split('\n');
      const parsed = lines.map((l) => JSON.parse(l));
      const requests = parsed.filter((p) => p.msg === 'http');
      expect(requests.find((p) => p.tools.includes('create_binding'))).toMatchObject({ route: '/mcp', status: 200, outcome: 'ok' });
      expect(requests.find((p) => p.tools.includes('search_bindings'))!.responseTokens).toBeGreaterThan(0);
      const all = server.stderr();
      for (const s of [secret, key, TOKEN, 'cookie-secret-zz', 'y'.repeat(40), 'secret-plan']) expect(all).not.toContain(s);
    } finally {
      await server.stop();
      rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
