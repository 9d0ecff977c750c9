// One key opening sessions as fast as it can must not end anyone else's session.
// Each key's user has a quota (BINDERY_HTTP_MAX_SESSIONS_PER_KEY): over it, its own least recently
// used idle session makes room, or the answer is 429; the global cap takes from the biggest holder.
import { afterEach, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SessionStore, type Session } from '../../core/http/sessions.ts';
import { BASE, MCP_HEADERS, httpWorld, type HttpWorld } from './http-world.ts';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
};

let w: HttpWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

function initialize(app: HttpWorld['app'], key: string): Promise<Response> {
  return app.fetch(
    new Request(`${BASE}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, Authorization: `Bearer ${key}` }, body: JSON.stringify(INIT) }),
  );
}

async function sdkClient(app: HttpWorld['app'], key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
    fetch: (input, init) => app.fetch(new Request(input, init)),
  });
  const client = new Client({ name: 'victim', version: '1' });
  await client.connect(transport);
  return client;
}

describe('one key floods /mcp with initialize', () => {
  test('1,000 sessions from one key: other users keep theirs, the flooder holds at most its quota', async () => {
    w = await httpWorld();
    const bob = await sdkClient(w.app, w.seed.bobKey);
    const carol = await w.user('carol');
    const carolClient = await sdkClient(w.app, carol.key);
    const t0 = performance.now();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1_000; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => initialize(w!.app, w!.seed.aliceKey)));
      for (const r of batch) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    const ms = performance.now() - t0;
    console.log(
      `1,000 initialize from one key in ${ms.toFixed(0)} ms: statuses ${JSON.stringify(Object.fromEntries(statuses))}, sessions held ${w.app.sessions!.size}`,
    );
    // Each initialize past the quota ends the flooder's own least recently used idle session; while all
    // 32 of its sessions are still being opened (50 at once here) the rest get 429, never anything else.
    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThanOrEqual(20 * 32);
    expect((await bob.listTools()).tools.length).toBeGreaterThan(0);
    expect((await carolClient.listTools()).tools.length).toBeGreaterThan(0);
    expect(w.app.sessions!.size).toBe(32 + 2);
    await bob.close();
    await carolClient.close();
  }, 60_000);

  test('the global cap evicts from the biggest holder, never from a smaller one', async () => {
    w = await httpWorld({ BINDERY_HTTP_MAX_SESSIONS: '10', BINDERY_HTTP_MAX_SESSIONS_PER_KEY: '8' });
    const bob = await sdkClient(w.app, w.seed.bobKey);
    for (let i = 0; i < 8; i++) expect((await initialize(w.app, w.seed.aliceKey)).status).toBe(200);
    const carol = await w.user('carol');
    const carolClient = await sdkClient(w.app, carol.key); // full: one of alice's 8 makes room
    expect(w.app.sessions!.size).toBe(10);
    for (let i = 0; i < 20; i++) expect((await initialize(w.app, w.seed.aliceKey)).status).toBe(200);
    expect((await bob.listTools()).tools.length).toBeGreaterThan(0);
    expect((await carolClient.listTools()).tools.length).toBeGreaterThan(0);
    await bob.close();
    await carolClient.close();
  });

  test('BINDERY_HTTP_MAX_SESSIONS_PER_KEY is parsed and bounded', async () => {
    const { parseConfig } = await import('../../core/index.ts');
    expect(parseConfig({}).http.maxSessionsPerKey).toBe(32);
    expect(parseConfig({ BINDERY_HTTP_MAX_SESSIONS_PER_KEY: '5' }).http.maxSessionsPerKey).toBe(5);
    expect(() => parseConfig({ BINDERY_HTTP_MAX_SESSIONS_PER_KEY: '0' })).toThrow('BINDERY_HTTP_MAX_SESSIONS_PER_KEY');
  });
});

describe('SessionStore admission', () => {
  let clock = 0;
  const fake = (id: string, callerId: string, inFlight = 0): Session =>
    ({ id, callerId, inFlight, lastSeen: clock++, server: { close: async () => {} }, transport: {} }) as unknown as Session;
  const open = (store: SessionStore, id: string, callerId: string, inFlight = 0) => {
    const admission = store.admit(callerId);
    if (!admission.ok) return admission;
    admission.register(fake(id, callerId, inFlight));
    return admission;
  };

  test('over its quota a key loses its own least recently used idle session', () => {
    const store = new SessionStore({ idleMs: 60_000, max: 100, perKey: 2, now: () => clock });
    open(store, 'a1', 'alice');
    open(store, 'a2', 'alice');
    open(store, 'b1', 'bob');
    open(store, 'a3', 'alice');
    expect([...store.ids()].sort()).toEqual(['a2', 'a3', 'b1']);
  });

  test('a key whose sessions are all busy gets 429 with Retry-After, and nobody else loses anything', () => {
    const store = new SessionStore({ idleMs: 60_000, max: 100, perKey: 2, now: () => clock });
    open(store, 'a1', 'alice', 1);
    open(store, 'a2', 'alice', 1);
    open(store, 'b1', 'bob');
    const refused = store.admit('alice');
    expect(refused).toMatchObject({ ok: false, status: 429 });
    expect(refused.ok ? 0 : refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(store.size).toBe(3);
  });

  test('admissions in flight count against the quota (no race past it)', () => {
    const store = new SessionStore({ idleMs: 60_000, max: 100, perKey: 2, now: () => clock });
    const a = store.admit('alice');
    const b = store.admit('alice');
    expect(a.ok && b.ok).toBe(true);
    expect(store.admit('alice')).toMatchObject({ ok: false, status: 429 });
    if (a.ok) a.release();
    expect(store.admit('alice').ok).toBe(true);
  });

  test('global cap: the biggest holder gives way; a server full of busy or smaller holders answers 503', () => {
    const store = new SessionStore({ idleMs: 60_000, max: 4, perKey: 3, now: () => clock });
    open(store, 'a1', 'alice');
    open(store, 'a2', 'alice');
    open(store, 'a3', 'alice');
    open(store, 'b1', 'bob');
    open(store, 'c1', 'carol'); // full: alice (3) gives her oldest
    expect([...store.ids()].sort()).toEqual(['a2', 'a3', 'b1', 'c1']);
    open(store, 'c2', 'carol'); // alice (2) holds more than carol (1): alice gives way again
    expect([...store.ids()].sort()).toEqual(['a3', 'b1', 'c1', 'c2']);
    open(store, 'c3', 'carol'); // now carol holds the most: her own oldest makes room
    expect([...store.ids()].sort()).toEqual(['a3', 'b1', 'c2', 'c3']);
    const busy = new SessionStore({ idleMs: 60_000, max: 2, perKey: 2, now: () => clock });
    open(busy, 'a1', 'alice', 1);
    open(busy, 'b1', 'bob', 1);
    expect(busy.admit('carol')).toMatchObject({ ok: false, status: 503 });
    expect(busy.size).toBe(2);
  });
});
