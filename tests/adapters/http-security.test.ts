// The HTTP surface under attack and misuse, on the real Bun adapter (127.0.0.1, real port): keys,
// another user's private data by every path, DNS rebinding, body limits, malformed and huge JSON-RPC,
// sessions, public pages and inert Markdown. After every attack the server must still serve.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { startHttp, type RunningHttp } from '../../adapters/bun-http.ts';
import { createHttpApp } from '../../core/http/app.ts';
import { parseConfig } from '../../core/index.ts';
import { createBinding } from '../../core/services/bindings.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { newLinkSecret, sha256Hex } from '../../core/ids.ts';
import { createDatabase, migrate, type Database } from '../../db/index.ts';
import { setItemsTable, setsTable, sharesTable, spacesTable } from '../../db/schema/index.ts';
import { err, ok, testCounter } from '../helpers.ts';
import { freePort, httpClient, seedWorld, ROOT, type Seed } from '../../support/targets.ts';

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const EVIL_MD = [
  '# Hello',
  '',
  '<script>window.__xss = 1; alert(1)</script>',
  '',
  '[click me](javascript:alert(document.cookie)) and [vb](vbscript:msgbox) and [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '',
  '<img src="x" onerror="window.__xss = 2">',
  '',
  '<a href="javascript:alert(2)">raw link</a> <iframe src="https://example.com"></iframe>',
  '',
  '![pic](javascript:alert(3))',
  '',
  '[ok link](https://example.com/docs)',
  '',
].join('\n');

let dir: string;
let running: RunningHttp;
let url: string;
let seed: Seed;
let database: Database;
let alice: Client;
const ids: Record<string, string> = {};
const slugs: Record<string, string> = {};
/** The secrets of bob's live and revoked public links (only their hashes are in the database). */
const linkSecret = newLinkSecret();
const revokedLinkSecret = newLinkSecret();

async function rpc(body: string | unknown, headers: Record<string, string> = {}) {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, Authorization: `Bearer ${seed.aliceKey}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The server still answers an authenticated tool call and its health check. */
async function stillServing() {
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  const r = await ok(alice, 'list_bindings', { limit: 1 });
  expect(r.pagination.total).toBeGreaterThanOrEqual(1);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bindery-sec-'));
  const dbUrl = `file:${join(dir, 'bindery.db')}`;
  const port = freePort();
  url = `http://127.0.0.1:${port}`;
  database = createDatabase({ url: dbUrl });
  await migrate(database.db);
  seed = await seedWorld(database.db, url);
  // Bob's other things: a public space, a public link, a revoked public link, sets shared with alice.
  const db = database.db;
  const deps = { db, tokens: await testCounter(), config: parseConfig({ BINDERY_PUBLIC_URL: url }), now: () => Date.now() };
  const bob = await ensureCaller(deps, 'bob');
  const alice0 = await ensureCaller(deps, 'alice');
  const now = Date.now();
  await db
    .insert(spacesTable)
    .values({ id: 'spc_pub0000000000000', slug: 'bob-pub', name: 'Bob public', visibility: 'public', ownerId: bob.id, createdAt: now });
  const make = async (key: string, space: string | undefined, content: string) => {
    const row = await createBinding(
      deps,
      bob,
      { space, name: `Bob ${key}`, content, summary: `Summary of ${key}.`, keyPoints: [`point of ${key}`] },
      { source: 'human', model: null },
    );
    ids[key] = row.bindingId;
    slugs[key] = `@${row.spaceSlug}/${row.bindingSlug}`;
  };
  await make('public', 'bob-pub', '# Public\n\nAnyone may read this.\n');
  await make('evil', 'bob-pub', EVIL_MD);
  await make('linked', undefined, '# Linked\n\nShared by public link.\n');
  await make('unlinked', undefined, '# Unlinked\n\nLink revoked.\n');
  await make('inSet', undefined, '# In set\n\nShared through a live set share.\n');
  await make('inRevokedSet', undefined, '# In revoked set\n\nSet share revoked.\n');
  const share = async (
    id: string,
    type: 'binding' | 'set',
    target: string,
    opts: { secret?: string; grantee?: string; revoked?: boolean },
  ) =>
    db.insert(sharesTable).values({
      id,
      targetType: type,
      targetId: target,
      granteeId: opts.grantee ?? null,
      public: !!opts.secret,
      linkHash: opts.secret ? await sha256Hex(opts.secret) : null,
      permission: 'read',
      createdBy: bob.id,
      createdAt: now,
      revokedAt: opts.revoked ? now : null,
      // Accepted, so the set share enters alice's default /api/sets listing (acceptance: share-acceptance.test.ts).
      acceptedAt: opts.grantee ? now : null,
    });
  await share('shr_link000000000000', 'binding', ids.linked!, { secret: linkSecret });
  await share('shr_unlk000000000000', 'binding', ids.unlinked!, { secret: revokedLinkSecret, revoked: true });
  const bobSpace = (await db.get<{ id: string }>(sql`SELECT id FROM spaces WHERE slug = 'bob'`))!.id;
  for (const [setId, key] of [
    ['set_live000000000000', 'inSet'],
    ['set_dead000000000000', 'inRevokedSet'],
  ] as const) {
    await db.insert(setsTable).values({ id: setId, spaceId: bobSpace, name: setId, createdBy: bob.id, createdAt: now, updatedAt: now });
    await db.insert(setItemsTable).values({ setId, bindingId: ids[key]!, position: 0 });
  }
  await share('shr_setl000000000000', 'set', 'set_live000000000000', { grantee: alice0.id });
  await share('shr_setd000000000000', 'set', 'set_dead000000000000', { grantee: alice0.id, revoked: true });
  running = await startHttp({ BINDERY_DB_URL: dbUrl, BINDERY_PUBLIC_URL: url, PORT: String(port), BINDERY_TOOL_MODE: 'eager' });
  expect(running.url).toBe(url);
  alice = await httpClient(url, seed.aliceKey, 'security-tests');
  await ok(alice, 'create_binding', { name: 'Alice note', content: '# A\n\nalice text\n', summary: 'Alice note.' });
}, 60_000);

afterAll(async () => {
  await alice?.close().catch(() => {});
  await running?.stop();
  database?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('keys', () => {
  test('no key: 401 with WWW-Authenticate: Bearer on /mcp and /api', async () => {
    for (const path of ['/mcp', '/api/me']) {
      const res = await fetch(`${url}${path}`, {
        method: path === '/mcp' ? 'POST' : 'GET',
        headers: MCP_HEADERS,
        body: path === '/mcp' ? '{}' : undefined,
      });
      expect(res.status).toBe(401);
      // /mcp also names its RFC 9728 metadata (docs/http-and-oauth.md), where OAuth clients start.
      expect(res.headers.get('www-authenticate')).toMatch(
        path === '/mcp'
          ? /^Bearer realm="bindery", resource_metadata="http[^"]+\/\.well-known\/oauth-protected-resource"$/
          : /^Bearer realm="bindery"$/,
      );
    }
    await stillServing();
  });

  test('wrong key (malformed, unknown, wrong scheme): 401 invalid_token', async () => {
    const unknown = `bdk_0123456789abcdef_${'A'.repeat(43)}`;
    const almost = seed.aliceKey.slice(0, -1) + (seed.aliceKey.endsWith('A') ? 'B' : 'A');
    for (const auth of ['Bearer nope', `Bearer ${unknown}`, `Bearer ${almost}`, `Basic ${btoa('alice:x')}`]) {
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Authorization: auth });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
    await stillServing();
  });

  test('bindery keys create/revoke: printed once, stored hashed; a revoked key is refused', async () => {
    const env = { ...process.env, BINDERY_DB_URL: `file:${join(dir, 'bindery.db')}`, BINDERY_PUBLIC_URL: url };
    const created = Bun.spawnSync(['bun', 'adapters/cli.ts', 'keys', 'create', '--user', 'carol'], { cwd: ROOT, env });
    expect(created.exitCode).toBe(0);
    const key = created.stdout.toString().trim();
    expect(key).toMatch(/^bdk_[0-9a-z]{16}_[A-Za-z0-9_-]{43}$/);
    const me = await fetch(`${url}/api/me`, { headers: { Authorization: `Bearer ${key}` } });
    expect(await me.json()).toMatchObject({ handle: 'carol' });
    const rows = await database.db.all<{ id: string; key_hash: string }>(
      sql`SELECT * FROM api_keys WHERE key_hash = ${await sha256Hex(key)}`,
    );
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(await database.db.all(sql`SELECT * FROM api_keys`))).not.toContain(key.slice(21));
    const revoked = Bun.spawnSync(['bun', 'adapters/cli.ts', 'keys', 'revoke', rows[0]!.id], { cwd: ROOT, env });
    expect(revoked.exitCode).toBe(0);
    const after = await fetch(`${url}/api/me`, { headers: { Authorization: `Bearer ${key}` } });
    expect(after.status).toBe(401);
    const seeded = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Authorization: `Bearer ${seed.revokedKey}` });
    expect(seeded.status).toBe(401);
    await stillServing();
  });
});

describe("another user's private binding", () => {
  const missingId = 'bnd_0000000000000000';
  test('by id (MCP and REST): the same answer as a missing id', async () => {
    const privateText = await err(alice, 'get_binding', { id: seed.bobPrivate.id });
    const missingText = await err(alice, 'get_binding', { id: missingId });
    expect(privateText.replace(seed.bobPrivate.id, 'ID')).toBe(missingText.replace(missingId, 'ID'));
    const auth = { Authorization: `Bearer ${seed.aliceKey}` };
    const a = await fetch(`${url}/api/bindings/${seed.bobPrivate.id}?tier=2`, { headers: auth });
    const b = await fetch(`${url}/api/bindings/${missingId}?tier=2`, { headers: auth });
    expect(a.status).toBe(404);
    expect((await a.text()).replace(seed.bobPrivate.id, 'ID')).toBe((await b.text()).replace(missingId, 'ID'));
    await stillServing();
  });

  test('by search (MCP and REST, default scope and naming his space)', async () => {
    expect((await ok(alice, 'search_bindings', { query: seed.bobPrivate.word })).results).toHaveLength(0);
    expect(await err(alice, 'search_bindings', { query: seed.bobPrivate.word, space: '@bob' })).toContain('NOT_FOUND');
    const auth = { Authorization: `Bearer ${seed.aliceKey}` };
    const res = await (await fetch(`${url}/api/bindings?q=${seed.bobPrivate.word}`, { headers: auth })).json();
    expect(res.results).toHaveLength(0);
    expect((await fetch(`${url}/api/bindings?q=${seed.bobPrivate.word}&space=@bob`, { headers: auth })).status).toBe(404);
    await stillServing();
  });

  test('by URL: 404 with the same bytes as a missing binding or space, with or without a key', async () => {
    for (const format of ['', '?format=md']) {
      const bodies = new Set<string>();
      for (const path of [`/@bob/${seed.bobPrivate.slug}`, '/@bob/no-such-binding', '/@nobody/x']) {
        for (const headers of [{}, { Authorization: `Bearer ${seed.aliceKey}` }] as Record<string, string>[]) {
          const res = await fetch(`${url}${path}${format}`, { headers });
          expect(res.status).toBe(404);
          bodies.add(`${res.headers.get('content-type')}\n${await res.text()}`);
        }
      }
      expect(bodies.size).toBe(1);
    }
    // Its owner reads it.
    expect((await fetch(`${url}/@bob/${seed.bobPrivate.slug}`, { headers: { Authorization: `Bearer ${seed.bobKey}` } })).status).toBe(200);
    await stillServing();
  });

  test('through a set: a live set share reads, a revoked one does not', async () => {
    expect((await ok(alice, 'get_binding', { id: ids.inSet })).binding.id).toBe(ids.inSet);
    expect(await err(alice, 'get_binding', { id: ids.inRevokedSet })).toContain('NOT_FOUND');
    const page = await fetch(`${url}/${slugs.inRevokedSet}`, { headers: { Authorization: `Bearer ${seed.aliceKey}` } });
    expect(page.status).toBe(404);
    await stillServing();
  });

  test('through a public link: only with its secret, without a key; its guessable address alone or a revoked link is the one 404', async () => {
    const live = await fetch(`${url}/${slugs.linked}?format=md&share=${linkSecret}`);
    expect(live.status).toBe(200);
    expect(await live.text()).toContain('Shared by public link.');
    const missing = await (await fetch(`${url}/@bob/no-such-binding`)).text();
    for (const path of [
      slugs.linked,
      `${slugs.linked}?share=${revokedLinkSecret}`,
      `${slugs.unlinked}?share=${revokedLinkSecret}`,
      slugs.unlinked,
    ]) {
      const res = await fetch(`${url}/${path}`);
      expect({ path, status: res.status, body: await res.text() }).toEqual({ path, status: 404, body: missing });
    }
    // Over MCP the id is enough for the live link, never for the revoked one.
    expect((await ok(alice, 'get_binding', { id: ids.linked })).binding.id).toBe(ids.linked);
    expect(await err(alice, 'get_binding', { id: ids.unlinked })).toContain('NOT_FOUND');
    await stillServing();
  });
});

describe('transport attacks', () => {
  test('wrong Origin or Host: 403 before anything else; loopback origins pass', async () => {
    const bad = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { Origin: 'https://evil.example' });
    expect(bad.status).toBe(403);
    expect((await fetch(`${url}/${slugs.public}`, { headers: { Origin: 'http://evil.example' } })).status).toBe(403);
    const host = await fetch(`${url}/healthz`, { headers: { Host: 'evil.example' } });
    expect(host.status).toBe(403);
    const good = await fetch(`${url}/api/me`, { headers: { Origin: 'http://localhost:5173', Authorization: `Bearer ${seed.aliceKey}` } });
    expect(good.status).toBe(200);
    expect(good.headers.get('access-control-allow-origin')).toBeNull(); // CORS is off by default
    await stillServing();
  });

  test('oversized body: 413 (declared length and chunked), on /mcp and /api', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_binding', arguments: { name: 'big', summary: 's', content: 'x'.repeat(5 * 1024 * 1024) } },
    });
    expect((await rpc(big)).status).toBe(413);
    const chunks = new ReadableStream({
      start(c) {
        for (let i = 0; i < 6; i++) c.enqueue(new TextEncoder().encode('x'.repeat(1024 * 1024)));
        c.close();
      },
    });
    const chunked = await fetch(`${url}/api/bindings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${seed.aliceKey}` },
      body: chunks,
    });
    expect(chunked.status).toBe(413);
    await stillServing();
  });

  test('malformed JSON-RPC: 400 parse errors, never a crash', async () => {
    for (const body of ['{"jsonrpc":', 'null', '{"hello":"world"}', '[1,2,3]', '"text"', '{"jsonrpc":"2.0","id":{},"method":5}']) {
      const res = await rpc(body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBeLessThan(0);
    }
    const noAccept = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${seed.aliceKey}` },
      body: '{}',
    });
    expect(noAccept.status).toBeGreaterThanOrEqual(400);
    await stillServing();
  });

  test('a batch of 1,000 JSON-RPC messages is rejected whole', async () => {
    const batch = Array.from({ length: 1000 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i + 1,
      method: 'tools/call',
      params: { name: 'list_bindings', arguments: {} },
    }));
    const started = performance.now();
    const res = await rpc(batch, { 'Mcp-Protocol-Version': '2025-06-18' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32600);
    expect(performance.now() - started).toBeLessThan(5_000);
    await stillServing();
  });
});

describe('sessions', () => {
  test('Mcp-Session-Id: bound to its key, ended by DELETE (state freed)', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${seed.aliceKey}` } },
    });
    const client = new Client({ name: 'session-test', version: '1' });
    await client.connect(transport);
    const sid = transport.sessionId!;
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    const before = running.app.sessions!.size;
    const asBob = await rpc(
      { jsonrpc: '2.0', id: 9, method: 'tools/list' },
      { Authorization: `Bearer ${seed.bobKey}`, 'Mcp-Session-Id': sid },
    );
    expect(asBob.status).toBe(404);
    await transport.terminateSession();
    expect(running.app.sessions!.size).toBe(before - 1);
    const after = await rpc({ jsonrpc: '2.0', id: 10, method: 'tools/list' }, { 'Mcp-Session-Id': sid });
    expect(after.status).toBe(404);
    const noSession = await rpc({ jsonrpc: '2.0', id: 11, method: 'tools/list' });
    expect(noSession.status).toBe(400);
    await client.close();
    await stillServing();
  });
});

/** An in-process app on a world of its own, with a clock the test moves. */
async function inProcessApp(env: Record<string, string>) {
  const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager', ...env });
  const db = createDatabase({ url: config.dbUrl });
  await migrate(db.db);
  const s = await seedWorld(db.db, config.publicUrl);
  let now = Date.now();
  const app = createHttpApp({ deps: { db: db.db, tokens: await testCounter(), config, now: () => now } });
  const connect = async () => {
    const transport = new StreamableHTTPClientTransport(new URL('http://localhost:8787/mcp'), {
      requestInit: { headers: { Authorization: `Bearer ${s.aliceKey}` } },
      fetch: (input, init) => app.fetch(new Request(input, init)),
    });
    const client = new Client({ name: 'in-process', version: '1' });
    await client.connect(transport);
    return client;
  };
  return { app, connect, advance: (ms: number) => (now += ms), seed: s, close: async () => (await app.close(), db.close()) };
}

describe('session expiry, stateless mode and CORS (in-process app, same core/http code)', () => {
  test('an idle session expires after the timeout and its state is freed', async () => {
    const w = await inProcessApp({ BINDERY_HTTP_SESSION_IDLE_SECONDS: '60' });
    const client = await w.connect();
    await client.listTools();
    expect(w.app.sessions!.size).toBe(1);
    w.advance(30_000);
    expect(await w.app.sessions!.sweep()).toBe(0);
    await client.listTools(); // activity resets the idle clock
    w.advance(45_000);
    expect(await w.app.sessions!.sweep()).toBe(0);
    w.advance(16_000);
    expect(await w.app.sessions!.sweep()).toBe(1);
    expect(w.app.sessions!.size).toBe(0);
    await expect(client.listTools()).rejects.toThrow();
    await w.close();
  });

  test('lazy mode works per session: search_tools enables tools and list_changed arrives on the GET stream', async () => {
    const w = await inProcessApp({ BINDERY_TOOL_MODE: 'lazy' });
    const a = await w.connect();
    const b = await w.connect();
    let changed = 0;
    a.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    const before = (await a.listTools()).tools.map((t) => t.name);
    expect(before).not.toContain('update_binding');
    await ok(a, 'search_tools', { query: 'update or edit a binding' });
    for (let i = 0; i < 100 && changed === 0; i++) await Bun.sleep(10);
    expect(changed).toBeGreaterThan(0);
    expect((await a.listTools()).tools.map((t) => t.name)).toContain('update_binding');
    expect((await b.listTools()).tools.map((t) => t.name)).toEqual(before); // the other session is untouched
    await a.close();
    await b.close();
    await w.close();
  });

  test('BINDERY_HTTP_STATELESS=1: no session id, always eager, GET refused', async () => {
    const w = await inProcessApp({ BINDERY_HTTP_STATELESS: '1', BINDERY_TOOL_MODE: 'lazy' });
    const init = await w.app.fetch(
      new Request('http://localhost:8787/mcp', {
        method: 'POST',
        headers: { ...MCP_HEADERS, Authorization: `Bearer ${w.seed.aliceKey}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'vscode', version: '1' } },
        }),
      }),
    );
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    const client = await w.connect();
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(8); // lazy would list 4
    expect(w.app.sessions).toBeUndefined();
    const get = await w.app.fetch(
      new Request('http://localhost:8787/mcp', { headers: { Accept: 'text/event-stream', Authorization: `Bearer ${w.seed.aliceKey}` } }),
    );
    expect(get.status).toBe(405);
    await client.close();
    await w.close();
  });

  test('CORS when configured: preflight and exposed session header; other origins still refused', async () => {
    const w = await inProcessApp({ BINDERY_CORS_ORIGINS: 'https://app.example' });
    const pre = await w.app.fetch(
      new Request('http://localhost:8787/mcp', {
        method: 'OPTIONS',
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
      }),
    );
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(pre.headers.get('access-control-allow-headers')).toContain('Mcp-Session-Id');
    const me = await w.app.fetch(
      new Request('http://localhost:8787/api/me', {
        headers: { Origin: 'https://app.example', Authorization: `Bearer ${w.seed.aliceKey}` },
      }),
    );
    expect(me.status).toBe(200);
    expect(me.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
    const other = await w.app.fetch(
      new Request('http://localhost:8787/api/me', {
        headers: { Origin: 'https://other.example', Authorization: `Bearer ${w.seed.aliceKey}` },
      }),
    );
    expect(other.status).toBe(403);
    await w.close();
  });
});

describe('public pages', () => {
  test('a public binding: HTML with name, summary, key points, version, provenance; ?format=md is text/markdown', async () => {
    const res = await fetch(`${url}/${slugs.public}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    for (const s of ['Bob public', 'Summary of public.', 'point of public', 'Version 1', 'human', 'Anyone may read this.'])
      expect(html).toContain(s);
    const md = await fetch(`${url}/${slugs.public}?format=md`);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await md.text()).toBe('# Public\n\nAnyone may read this.\n');
  });

  test('Markdown with <script>, javascript: links and raw HTML is rendered inert', async () => {
    const res = await fetch(`${url}/${slugs.evil}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('content-security-policy')).not.toContain('script-src');
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<iframe/i);
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toMatch(/href="(javascript|vbscript|data):/i);
    expect(html).not.toMatch(/src="javascript:/i);
    expect(html).toContain('&lt;script&gt;window.__xss = 1');
    expect(html).toContain('<a href="https://example.com/docs" rel="nofollow noopener noreferrer">ok link</a>');
    await stillServing();
  });

  const chromium = '/usr/bin/chromium';
  const browserSkip = existsSync(chromium) ? undefined : `${chromium} is absent (apt-get install -y chromium)`;
  if (browserSkip) console.warn(`[http-security] SKIPPED browser check: ${browserSkip}`);
  test.skipIf(!!browserSkip)(
    'in a real browser (chromium): no script from content runs',
    async () => {
      const { chromium: pw } = await import('playwright-core');
      const browser = await pw.launch({
        executablePath: chromium,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      try {
        const page = await browser.newPage();
        const dialogs: string[] = [];
        page.on('dialog', (d) => {
          dialogs.push(d.message());
          void d.dismiss();
        });
        await page.goto(`${url}/${slugs.evil}`);
        for (const text of ['click me', 'raw link']) {
          const el = page.getByText(text, { exact: false }).first();
          if (await el.count()) await el.click({ timeout: 2_000 }).catch(() => {});
        }
        await page.waitForTimeout(200);
        expect(dialogs).toEqual([]);
        expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
        expect(await page.evaluate(() => document.querySelectorAll('script, iframe, [onerror]').length)).toBe(0);
        expect(page.url()).toBe(`${url}/${slugs.evil}`);
      } finally {
        await browser.close();
      }
    },
    30_000,
  );
});

describe('REST /api', () => {
  const auth = () => ({ Authorization: `Bearer ${seed.aliceKey}`, 'Content-Type': 'application/json' });
  test('create (human), read at each tier, update, stale update, list, search, delete', async () => {
    const content = `# REST\n\n${'Written by a script about walruses. '.repeat(30)}\n`;
    const created = await fetch(`${url}/api/bindings`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ name: 'REST note', content, summary: 'Made over REST.', keyPoints: ['rest'] }),
    });
    expect(created.status).toBe(201);
    const { binding } = (await created.json()) as { binding: Record<string, any> };
    expect(binding).toMatchObject({ source: 'human', model: null, version: 1, tier: '1', space: '@alice' });
    const get = async (q: string) =>
      ((await (await fetch(`${url}/api/bindings/${binding.id}${q}`, { headers: auth() })).json()) as { binding: Record<string, any> })
        .binding;
    expect((await get('')).content).toBeUndefined();
    expect((await get('?tier=1.5')).contentPreview).toContain('truncated');
    expect((await get('?tier=2')).content).toBe(content);
    const upd = await fetch(`${url}/api/bindings/${binding.id}`, {
      method: 'PATCH',
      headers: auth(),
      body: JSON.stringify({ summary: 'Changed over REST.', expectedVersion: 1 }),
    });
    expect(((await upd.json()) as { binding: { version: number; source: string } }).binding).toMatchObject({ version: 2, source: 'human' });
    const stale = await fetch(`${url}/api/bindings/${binding.id}`, {
      method: 'PATCH',
      headers: auth(),
      body: JSON.stringify({ summary: 'Lost?', expectedVersion: 1 }),
    });
    expect(stale.status).toBe(409);
    expect((await get('?version=1')).summary).toBe('Made over REST.');
    const list = (await (await fetch(`${url}/api/bindings?limit=100`, { headers: auth() })).json()) as {
      results: { id: string }[];
      pagination: { total: number };
    };
    expect(list.results.map((r) => r.id)).toContain(binding.id);
    const search = (await (await fetch(`${url}/api/bindings?q=walruses`, { headers: auth() })).json()) as { results: { id: string }[] };
    expect(search.results.map((r) => r.id)).toEqual([binding.id]);
    const viaMcp = await ok(alice, 'get_binding', { id: binding.id });
    expect(viaMcp.binding.summary).toBe('Changed over REST.');
    expect((await fetch(`${url}/api/bindings/${binding.id}`, { method: 'DELETE', headers: auth() })).status).toBe(200);
    expect((await fetch(`${url}/api/bindings/${binding.id}`, { headers: auth() })).status).toBe(404);
  });

  test('sets: list and read what is shared, create with items, a revoked set share is 404', async () => {
    const list = (await (await fetch(`${url}/api/sets`, { headers: auth() })).json()) as { results: { id: string }[] };
    expect(list.results.map((r) => r.id)).toContain('set_live000000000000');
    expect(list.results.map((r) => r.id)).not.toContain('set_dead000000000000');
    const live = (await (await fetch(`${url}/api/sets/set_live000000000000?tier=2`, { headers: auth() })).json()) as {
      set: { items: { id: string; content: string }[] };
    };
    expect(live.set.items.map((i) => i.id)).toEqual([ids.inSet!]);
    expect(live.set.items[0]!.content).toContain('Shared through a live set share.');
    expect((await fetch(`${url}/api/sets/set_dead000000000000`, { headers: auth() })).status).toBe(404);
    const mine = (await ok(alice, 'list_bindings', { limit: 1 })).results[0].id as string;
    const created = await fetch(`${url}/api/sets`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ name: 'REST set', bindingIds: [mine] }),
    });
    expect(created.status).toBe(201);
    const { set } = (await created.json()) as { set: { id: string; space: string } };
    expect(set.space).toBe('@alice');
    const read = (await (await fetch(`${url}/api/sets/${set.id}`, { headers: auth() })).json()) as {
      set: { items: { id: string; content?: string }[] };
    };
    expect(read.set.items.map((i) => i.id)).toEqual([mine]);
    expect(read.set.items[0]!.content).toBeUndefined();
    const foreign = await fetch(`${url}/api/sets`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ name: 'Steal', bindingIds: [seed.bobPrivate.id] }),
    });
    expect(foreign.status).toBe(404);
  });

  test("bad input names the field; someone else's binding cannot be changed", async () => {
    const bad = await fetch(`${url}/api/bindings`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ name: 'x', content: 'y', summary: 's'.repeat(601) }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { field: string } }).error.field).toBe('summary');
    const notJson = await fetch(`${url}/api/bindings`, { method: 'POST', headers: auth(), body: '{nope' });
    expect(notJson.status).toBe(400);
    const tier = await fetch(`${url}/api/bindings/${ids.public}?tier=9`, { headers: auth() });
    expect(tier.status).toBe(400);
    const foreign = await fetch(`${url}/api/bindings/${ids.public}`, {
      method: 'PATCH',
      headers: auth(),
      body: JSON.stringify({ summary: 'mine now' }),
    });
    expect(foreign.status).toBe(403);
    const hidden = await fetch(`${url}/api/bindings/${seed.bobPrivate.id}`, {
      method: 'PATCH',
      headers: auth(),
      body: JSON.stringify({ summary: 'mine now' }),
    });
    expect(hidden.status).toBe(404);
    await stillServing();
  });
});

describe('healthz', () => {
  test('DB reachable and migrations current → 200; an unmigrated DB → 503', async () => {
    expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ ok: true, db: 'ok', migrations: 'current' });
    const config = parseConfig({ BINDERY_DB_URL: ':memory:' });
    const bare = createDatabase({ url: ':memory:' });
    const app = createHttpApp({ deps: { db: bare.db, tokens: await testCounter(), config, now: Date.now } });
    const res = await app.fetch(new Request('http://localhost:8787/healthz'));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, migrations: 'pending' });
    await app.close();
    bare.close();
  });
});
