// Protocol edges over real HTTP (the core/http app behind Bun.serve on loopback, the SDK's Client):
// a cancelled call ends its exchange and frees the session; DELETE answers the session's open
// requests; lazy mode's tools/list_changed rides on the call's own response; stateless servers do
// not advertise listChanged.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { parseConfig } from '../../core/index.ts';
import { DEFAULT_CONFIG } from '../../core/config.ts';
import { createHttpApp, type HttpApp } from '../../core/http/app.ts';
import type { TokenCounter } from '../../core/tokens/counter.ts';
import { createDatabase, migrate, type Database } from '../../db/index.ts';
import { seedWorld, type Seed } from '../../support/targets.ts';
import { testCounter } from '../helpers.ts';

/** The real counter, whose `load()` (awaited before most tool handlers) waits while the gate is shut: a slow call on demand. */
function gatedCounter(real: TokenCounter) {
  let open: Promise<void> = Promise.resolve();
  let release = () => {};
  let waiting = 0;
  const counter: TokenCounter = {
    encoding: real.encoding,
    stats: real.stats,
    count: (t) => real.count(t),
    async load() {
      waiting++;
      try {
        await open;
      } finally {
        waiting--;
      }
      return real.load();
    },
  };
  return {
    counter,
    shut() {
      open = new Promise((r) => (release = r));
    },
    release: () => release(),
    get waiting() {
      return waiting;
    },
  };
}

interface Served {
  app: HttpApp;
  url: string;
  seed: Seed;
  gate: ReturnType<typeof gatedCounter>;
  close(): Promise<void>;
}

async function serve(env: Record<string, string>, stateless = false): Promise<Served> {
  const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager', ...env });
  const database: Database = createDatabase({ url: config.dbUrl });
  await migrate(database.db);
  const seed = await seedWorld(database.db, config.publicUrl);
  const gate = gatedCounter(await testCounter());
  const app = createHttpApp({ deps: { db: database.db, tokens: gate.counter, config, now: () => Date.now() }, stateless });
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (r) => app.fetch(r) });
  return {
    app,
    url: `http://127.0.0.1:${server.port}`,
    seed,
    gate,
    async close() {
      gate.release();
      server.stop(true);
      await app.close();
      database.close();
    },
  };
}

async function connect(
  s: Served,
  name = 'edges-test',
): Promise<{ client: Client; transport: StreamableHTTPClientTransport; errors: Error[] }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${s.seed.aliceKey}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (e) => errors.push(e);
  await client.connect(transport);
  return { client, transport, errors };
}

async function until(what: string, ok: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

const good = { name: 'Slow write', content: 'Written slowly.', summary: 'A write that is cancelled.' };

describe('cancelled and deleted requests over HTTP sessions', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({});
  });
  afterAll(() => s.close());
  afterEach(() => s.gate.release());

  test('a cancelled call ends its exchange, frees the session, writes nothing, and the server keeps serving', async () => {
    const { client, transport } = await connect(s);
    const session = s.app.sessions!.get(transport.sessionId!)!;
    s.gate.shut();
    const abort = new AbortController();
    const pending = client.callTool({ name: 'create_binding', arguments: good }, undefined, { signal: abort.signal });
    await until('the call to reach the tool', () => s.gate.waiting === 1);
    expect(session.inFlight).toBe(1);
    expect(session.watch!.open.size).toBe(1);
    abort.abort('user pressed stop');
    await expect(pending).rejects.toThrow();
    // The POST is answered (-32800) without the tool finishing: the gate is still shut.
    await until(
      `the exchange to end (${session.inFlight}, ${session.watch!.open.size})`,
      () => session.inFlight === 0 && session.watch!.open.size === 0,
    );
    expect(s.gate.waiting).toBe(1);
    s.gate.release();
    await until('the aborted handler to stop', () => s.gate.waiting === 0);
    const listed = (await client.callTool({ name: 'list_bindings', arguments: {} })) as CallToolResult;
    expect(listed.isError).toBeFalsy();
    expect((listed.structuredContent as { pagination: { total: number } }).pagination.total).toBe(0);
    expect(session.inFlight).toBe(0);
    await client.close();
  });

  test('DELETE of a session with a call in flight answers the call and frees the session', async () => {
    const { client, transport } = await connect(s);
    const id = transport.sessionId!;
    const before = s.app.sessions!.size;
    s.gate.shut();
    const pending = client.callTool({ name: 'create_binding', arguments: { ...good, name: 'Deleted midway' } });
    // Caught now: the call may fail while terminateSession is still awaited.
    const failed = pending.then(
      () => undefined,
      (e: { code?: number }) => e,
    );
    await until('the call to reach the tool', () => s.gate.waiting === 1);
    await transport.terminateSession();
    expect(await failed).toMatchObject({ code: -32800 });
    expect(s.app.sessions!.get(id)).toBeUndefined();
    // Other tests' sessions may end meanwhile: this one is gone, and none was added.
    expect(s.app.sessions!.size).toBeLessThanOrEqual(before - 1);
    s.gate.release();
    // Still serving: a new session works.
    const again = await connect(s);
    const res = (await again.client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
    expect(res.isError).toBeFalsy();
    await again.client.close();
    await client.close();
  });
});

describe('tools/list_changed on the call that caused it', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ BINDERY_TOOL_MODE: 'lazy' });
  });
  afterAll(() => s.close());

  const rpc = async (body: unknown, session?: string) => {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${s.seed.aliceKey}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'Mcp-Protocol-Version': '2025-06-18',
    };
    if (session) headers['Mcp-Session-Id'] = session;
    return fetch(`${s.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) });
  };

  test('a client with no GET stream receives it in the search_tools response (SSE body), other calls stay JSON', async () => {
    const init = await rpc({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const session = init.headers.get('mcp-session-id')!;
    expect((await init.json()).result.capabilities.tools).toEqual({ listChanged: true });
    expect((await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);
    // A listed tool (lazy default: search_bindings, get_binding, search_tools) enables nothing: plain JSON.
    const plain = await rpc(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_bindings', arguments: { query: 'anything' } } },
      session,
    );
    expect(plain.headers.get('content-type')).toStartWith('application/json');
    expect((await plain.json()).id).toBe(2);
    const search = await rpc(
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'search_tools', arguments: { query: 'share a binding with someone' } },
      },
      session,
    );
    expect(search.headers.get('content-type')).toStartWith('text/event-stream');
    const events = (await search.text())
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)));
    expect(events.map((e) => e.method ?? `response ${e.id}`)).toEqual(['notifications/tools/list_changed', 'response 3']);
    expect(events[1].result.structuredContent.enabled.length).toBeGreaterThan(0);
    // Calling a real tool that is not listed yet enables it, and says so on that call too.
    const auto = await rpc({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'whoami', arguments: {} } }, session);
    expect(auto.headers.get('content-type')).toStartWith('text/event-stream');
    expect(await auto.text()).toContain('notifications/tools/list_changed');
    expect(s.app.sessions!.get(session)!.inFlight).toBe(0);
  });

  test('the SDK client is told once, and sees the new tools listed', async () => {
    const { client, errors } = await connect(s);
    let told = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      told++;
    });
    const before = (await client.listTools()).tools.map((t) => t.name);
    expect(before.sort()).toEqual([...DEFAULT_CONFIG.alwaysTools].sort());
    const res = (await client.callTool({ name: 'search_tools', arguments: { query: 'create a set of bindings' } })) as CallToolResult;
    const enabled = (res.structuredContent as { enabled: string[] }).enabled;
    expect(enabled.length).toBeGreaterThan(0);
    await until('the notification', () => told > 0);
    await Bun.sleep(50);
    expect(told).toBe(1);
    const after = (await client.listTools()).tools.map((t) => t.name);
    for (const name of enabled) expect(after).toContain(name);
    expect(errors).toEqual([]);
    await client.close();
  });

  test('stateless HTTP does not advertise tools.listChanged', async () => {
    const st = await serve({}, true);
    try {
      const { client } = await connect(st);
      expect(client.getServerCapabilities()?.tools).toEqual({});
      await client.close();
    } finally {
      await st.close();
    }
  });
});
