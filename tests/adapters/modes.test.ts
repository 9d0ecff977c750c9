// Tool modes end to end (BINDERY_TOOL_MODE, docs/configuration.md): the real stdio server spawned with the SDK Client for lazy,
// proxy and auto; InMemoryTransport where only the session logic matters (cap, stateless).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createBinderyServer, createRegistry, DEFAULT_CONFIG } from '../../core/index.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { PROXY_LISTED } from '../../core/modes/session.ts';
import { call, contextOf, createTestWorld, err, ok, sampleBinding, textOf, type TestWorld } from '../helpers.ts';

const root = join(import.meta.dir, '..', '..');
const registry = createRegistry();
const realNames = registry.all.filter((t) => t.category !== 'proxy').map((t) => t.name);
const alwaysListed = DEFAULT_CONFIG.alwaysTools.filter((n) => realNames.includes(n));
/** The tool the scenario expects ("set context budget" → get_set_context), or a stand-in until it exists. */
const scenario = registry.get('get_set_context')
  ? { query: 'set context budget', tool: 'get_set_context' }
  : { query: 'version history', tool: 'list_versions' };

interface Session {
  client: Client;
  /** Resolves on the next notifications/tools/list_changed (rejects after `ms`). */
  nextListChanged(ms?: number): Promise<void>;
  listChangedCount(): number;
  names(): Promise<string[]>;
  close(): Promise<void>;
}

async function watch(client: Client, close: () => Promise<void>): Promise<Session> {
  let count = 0;
  let waiters: (() => void)[] = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    count++;
    const w = waiters;
    waiters = [];
    w.forEach((f) => f());
  });
  return {
    client,
    nextListChanged: (ms = 3000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no tools/list_changed notification')), ms);
        waiters.push(() => (clearTimeout(timer), resolve()));
      }),
    listChangedCount: () => count,
    names: async () => (await client.listTools()).tools.map((t) => t.name),
    close,
  };
}

/** Spawns `bun adapters/stdio.ts` on an in-memory DB and connects the SDK Client over stdio. */
async function stdio(env: Record<string, string>, clientName = 'bindery-tests'): Promise<Session> {
  const transport = new StdioClientTransport({
    command: 'bun',
    args: ['adapters/stdio.ts'],
    cwd: root,
    env: { ...(process.env as Record<string, string>), BINDERY_DB_URL: ':memory:', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: clientName, version: '1.2.3' });
  await client.connect(transport);
  return watch(client, () => client.close());
}

const sorted = (a: string[]) => [...a].sort();

describe('lazy mode over stdio', () => {
  let s: Session;
  beforeAll(async () => {
    s = await stdio({ BINDERY_TOOL_MODE: 'lazy' });
  });
  afterAll(() => s.close());

  test('the first tools/list holds only the always-listed tools, lean', async () => {
    expect(alwaysListed).toContain('search_tools');
    expect(sorted(await s.names())).toEqual(sorted(alwaysListed));
    const search = (await s.client.listTools()).tools.find((t) => t.name === 'search_bindings')!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(['query', 'limit']);
  });

  test(`search_tools("${scenario.query}") enables ${scenario.tool}, notifies, and the next tools/list holds it`, async () => {
    const notified = s.nextListChanged();
    const found = await ok(s.client, 'search_tools', { query: scenario.query });
    expect(found.mode).toBe('lazy');
    expect(found.matches[0].name).toBe(scenario.tool);
    expect(found.enabled).toContain(scenario.tool);
    for (const m of found.matches) {
      expect(m.tokens).toBeGreaterThan(50);
      expect(m.description.length).toBeGreaterThan(10);
      expect(m.description).not.toContain('\n');
      expect(m.category).toBe(registry.get(m.name)!.category);
    }
    await notified;
    const names = await s.names();
    expect(names).toContain(scenario.tool);
    for (const a of alwaysListed) expect(names).toContain(a);
    expect(textOf(found._result)).toContain(`${scenario.tool} · ${registry.get(scenario.tool)!.category}`);
  });

  test('a search that finds only listed tools sends no notification', async () => {
    const before = s.listChangedCount();
    const again = await ok(s.client, 'search_tools', { query: scenario.query });
    expect(again.enabled).toEqual([]);
    await Bun.sleep(50);
    expect(s.listChangedCount()).toBe(before);
  });

  test('calling a real tool that is not listed works and enables it', async () => {
    expect(await s.names()).not.toContain('list_bindings');
    const notified = s.nextListChanged();
    const listed = await ok(s.client, 'list_bindings', {});
    expect(listed.space).toBe('@local');
    await notified;
    expect(await s.names()).toContain('list_bindings');
  });

  test('bad queries are tool errors naming the field', async () => {
    expect(await err(s.client, 'search_tools', { query: '' })).toContain('query');
    const long = await err(s.client, 'search_tools', { query: 'x'.repeat(10_240) });
    expect(long).toContain('query');
    expect(long).toContain('500');
    expect(await err(s.client, 'search_tools', { query: '?!' })).toContain('query: must contain at least one word');
  });

  test('proxy-only tools are not callable outside proxy mode', async () => {
    // Not callable in this session is unknown here: a protocol error, as for any unknown name.
    await expect(s.client.callTool({ name: 'invoke_tool', arguments: { name: 'get_binding', arguments: {} } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('no tool named "invoke_tool"'),
    });
  });
});

describe('proxy mode over stdio', () => {
  let s: Session;
  beforeAll(async () => {
    s = await stdio({ BINDERY_TOOL_MODE: 'proxy' });
  });
  afterAll(() => s.close());

  test('tools/list holds list_tool_categories, search_tools, invoke_tool (and help)', async () => {
    const expected = PROXY_LISTED.filter((n) => registry.get(n));
    expect(await s.names()).toEqual(expected);
    expect(expected.slice(0, 3)).toEqual(['list_tool_categories', 'search_tools', 'invoke_tool']);
  });

  test('invoke_tool returns exactly what a direct call returns, _meta.context included', async () => {
    const created = await ok(s.client, 'invoke_tool', { name: 'create_binding', arguments: sampleBinding(1) });
    expect(created.binding.id).toMatch(/^bnd_/);
    expect(contextOf(created._result).binding.id).toBe(created.binding.id);
    for (const [name, args] of [
      ['get_binding', { id: created.binding.id, tier: '1.5' }],
      ['search_bindings', { query: 'zebra', maxTokens: 400 }],
      ['list_versions', { id: created.binding.id }],
    ] as const) {
      const direct = await call(s.client, name, args);
      const proxied = await call(s.client, 'invoke_tool', { name, arguments: args });
      expect(proxied.isError).toBeFalsy();
      expect(proxied).toEqual(direct);
    }
  });

  test("arguments are validated against the real tool's schema; the error names its field", async () => {
    const direct = await call(s.client, 'get_binding', { id: 'nope' });
    const proxied = await call(s.client, 'invoke_tool', { name: 'get_binding', arguments: { id: 'nope' } });
    expect(proxied).toEqual(direct);
    expect(textOf(proxied)).toContain('id');
    expect(textOf(proxied)).toContain('get_binding');
  });

  test('unknown names, itself and malformed arguments are refused', async () => {
    const unknown = await err(s.client, 'invoke_tool', { name: 'get_bindingz', arguments: {} });
    expect(unknown).toContain('name: no tool named "get_bindingz"');
    expect(unknown).toContain('get_binding');
    expect(await err(s.client, 'invoke_tool', { name: 'invoke_tool', arguments: { name: 'whoami' } })).toContain('cannot call itself');
    expect(await err(s.client, 'invoke_tool', { name: 'search_bindings', arguments: 'zebra' })).toContain('arguments');
    expect(await err(s.client, 'invoke_tool', { arguments: {} })).toContain('name');
  });

  test('search_tools shows call signatures and enables nothing; list_tool_categories counts every real tool', async () => {
    const found = await ok(s.client, 'search_tools', { query: 'read one binding' });
    expect(found.enabled).toEqual([]);
    const get = found.matches.find((m: { name: string }) => m.name === 'get_binding');
    expect(get.signature).toMatch(/^get_binding\(id: string, tier\?: /);
    const cats = await ok(s.client, 'list_tool_categories');
    expect(cats.categories.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(realNames.length);
    expect(cats.categories.reduce((n: number, c: { context: { tokens: number } }) => n + c.context.tokens, 0)).toBe(cats.total.tokens);
    expect(await s.names()).toEqual(PROXY_LISTED.filter((n) => registry.get(n)));
  });
});

describe('auto mode decides at initialize from clientInfo', () => {
  test('a VS Code client goes lazy, and the session says why', async () => {
    const s = await stdio({ BINDERY_TOOL_MODE: 'auto' }, 'Visual Studio Code');
    try {
      expect(sorted(await s.names())).toEqual(sorted(alwaysListed));
      const active = await ok(s.client, 'get_active_toolset');
      expect(active.mode).toBe('lazy');
      expect(active.modeReason).toContain('Visual Studio Code');
      if (registry.get('whoami')) expect(JSON.stringify((await ok(s.client, 'whoami')) as object)).toContain('lazy');
    } finally {
      await s.close();
    }
  });

  test('another client goes eager', async () => {
    const s = await stdio({ BINDERY_TOOL_MODE: 'auto' }, 'claude-ai');
    try {
      expect(await s.names()).toEqual(realNames);
      const active = await ok(s.client, 'get_active_toolset');
      expect(active.mode).toBe('eager');
      expect(active.modeReason).toContain('claude-ai');
      expect(active.tools.map((t: { name: string }) => t.name)).toEqual(realNames);
    } finally {
      await s.close();
    }
  });
});

describe('session rules (in memory)', () => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await createTestWorld({ BINDERY_MAX_ENABLED_TOOLS: '2', BINDERY_LIST_CHANGED_CLIENTS: 'cap-client' });
  });
  afterAll(() => world.close());

  async function memory(opts: { mode?: 'lazy' | 'auto' | 'eager'; stateless?: boolean; clientName?: string }) {
    const deps = { db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() };
    const caller = await ensureCaller(deps, 'local');
    const server = createBinderyServer(deps, { caller, mode: opts.mode, stateless: opts.stateless });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: opts.clientName ?? 'bindery-tests', version: '1' });
    await client.connect(a);
    return watch(client, () => client.close());
  }

  test('the enabled-tools cap evicts the least recently used tool', async () => {
    const s = await memory({ mode: 'lazy' });
    const extra = async () => (await s.names()).filter((n) => !alwaysListed.includes(n));
    await ok(s.client, 'list_bindings', {});
    await ok(s.client, 'get_active_toolset');
    expect(sorted(await extra())).toEqual(['get_active_toolset', 'list_bindings']);
    await ok(s.client, 'list_bindings', {}); // now get_active_toolset is the least recently used
    const notified = s.nextListChanged();
    await ok(s.client, 'list_available_tools');
    await notified;
    expect(sorted(await extra())).toEqual(['list_available_tools', 'list_bindings']);
    await s.close();
  });

  test('search_tools keeps its best match when the cap is smaller than the results', async () => {
    const s = await memory({ mode: 'lazy' });
    const found = await ok(s.client, 'search_tools', { query: 'binding', limit: 5 });
    expect(found.matches.length).toBeGreaterThan(2);
    const extra = (await s.names()).filter((n) => !alwaysListed.includes(n));
    expect(extra).toHaveLength(2);
    const best = found.matches.map((m: { name: string }) => m.name).find((n: string) => !alwaysListed.includes(n));
    expect(extra).toContain(best);
    await s.close();
  });

  test('BINDERY_LIST_CHANGED_CLIENTS is configurable', async () => {
    const s = await memory({ mode: 'auto', clientName: 'My Cap-Client' });
    expect(sorted(await s.names())).toEqual(sorted(alwaysListed));
    await s.close();
    const vs = await memory({ mode: 'auto', clientName: 'Visual Studio Code' });
    expect(await vs.names()).toEqual(realNames);
    await vs.close();
  });

  test('stateless transports always run eager', async () => {
    const s = await memory({ mode: 'lazy', stateless: true });
    expect(await s.names()).toEqual(realNames);
    const active = await ok(s.client, 'get_active_toolset');
    expect(active.mode).toBe('eager');
    expect(active.modeReason).toContain('stateless');
    const found = await ok(s.client, 'search_tools', { query: 'delete' });
    expect(found.enabled).toEqual([]);
    await s.close();
  });

  test('eager mode lists every real tool and no proxy tool', async () => {
    const s = await memory({ mode: 'eager' });
    const names = await s.names();
    expect(names).toEqual(realNames);
    for (const p of ['list_tool_categories', 'invoke_tool']) expect(names).not.toContain(p);
    // 29 tools (docs/reference/tools.md lists them; the proxy pair is extra).
    const expected = registry.all.length === 31 ? 29 : registry.all.filter((t) => t.category !== 'proxy').length;
    expect(names).toHaveLength(expected);
    await expect(s.client.callTool({ name: 'list_tool_categories', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await s.close();
  });
});
