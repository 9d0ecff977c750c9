// Resources, prompts, completions and logging (core/mcp/), driven through the SDK Client over
// InMemoryTransport against real servers on a real (in-memory or file) libSQL database.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBinderyServer, parseConfig } from '../../core/index.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { updateBinding } from '../../core/services/bindings.ts';
import { createDatabase, migrate } from '../../db/index.ts';
import { BINDING_URI_TEMPLATE } from '../../core/mcp/uri.ts';
import { RESOURCE_PAGE_SIZE } from '../../core/mcp/resources.ts';
import { createTestWorld, ok, textOf, testCounter, type TestWorld, rejection } from '../helpers.ts';

const independent = new Tiktoken(o200k);
const count = (s: string) => independent.encode(s, [], []).length;

/** Text and `_meta.context` of a one-block read, checking the count is exact. */
async function read(client: Client, uri: string) {
  const res = (await client.readResource({ uri })) as ReadResourceResult;
  expect(res.contents).toHaveLength(1);
  const text = (res.contents[0] as { text: string }).text;
  const context = (res._meta as { context: Record<string, any> }).context;
  expect(context.response.tokens).toBe(count(text));
  expect(res.contents[0]!.mimeType).toBe('text/markdown');
  return { text, context };
}

/** Collects notifications of one kind on a client. */
function collect<T>(client: Client, schema: typeof ResourceUpdatedNotificationSchema | typeof LoggingMessageNotificationSchema): T[] {
  const got: T[] = [];
  client.setNotificationHandler(schema as typeof ResourceUpdatedNotificationSchema, (n) => {
    got.push(n.params as T);
  });
  return got;
}

async function until(cond: () => boolean, ms = 4000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await Bun.sleep(10);
}

let world: TestWorld;
let alice: Client;
let bob: Client;
const NOTES = 120;
/** Alice's binding ids by slug. */
const ids = new Map<string, string>();

beforeAll(async () => {
  world = await createTestWorld();
  alice = await world.connect('alice');
  bob = await world.connect('bob');
  for (let i = 1; i <= NOTES; i++) {
    const made = await ok(alice, 'create_binding', {
      name: `Note ${String(i).padStart(3, '0')}`,
      content: `# Note ${i}\n\nBody of note ${i} about zebras.\n`,
      summary: `Summary ${i}.`,
    });
    ids.set(`note-${String(i).padStart(3, '0')}`, made.binding.id);
  }
}, 60_000); // many writes; the machine is shared
afterAll(() => world.close());

describe('resources', () => {
  test('capabilities: resources with subscribe, prompts, completions, logging', () => {
    const caps = alice.getServerCapabilities()!;
    expect(caps.resources).toEqual({ subscribe: true, listChanged: false });
    expect(caps.prompts).toBeDefined();
    expect(caps.completions).toBeDefined();
    expect(caps.logging).toBeDefined();
    expect(caps.tools).toEqual({ listChanged: true });
  });

  test('resources/list pages with cursors over every readable binding, with exact per-tier tokens', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await alice.listResources(cursor ? { cursor } : {});
      pages++;
      expect(page.resources.length).toBeLessThanOrEqual(RESOURCE_PAGE_SIZE);
      for (const r of page.resources) seen.push(r.uri);
      cursor = page.nextCursor;
      expect((page._meta as any).context.pagination.total).toBe(NOTES);
    } while (cursor);
    expect(pages).toBe(Math.ceil(NOTES / RESOURCE_PAGE_SIZE));
    expect(new Set(seen).size).toBe(NOTES);
    expect(seen).toContain('bindery://alice/note-001');

    const first = (await alice.listResources()).resources[0]!;
    expect(first.mimeType).toBe('text/markdown');
    expect(first.name).toMatch(/^@alice\/note-\d{3}$/);
    expect(first.title).toMatch(/^Note \d{3}$/);
    expect(first.description).toMatch(/^Summary \d+\.$/);
    const ctx = (first._meta as any).context;
    const id = ctx.binding.id;
    for (const tier of ['1', '1.5', '2'] as const) {
      const got = await ok(alice, 'get_binding', { id, tier });
      expect(ctx.tierTokens[tier]).toBe(count(textOf(got._result)));
    }
    // A cursor from another listing is refused, naming the cursor.
    expect(await rejection(alice.listResources({ cursor: 'forged.cursor' }))).toContain('cursor');
  });

  test('bob lists nothing of alice (private personal space)', async () => {
    const page = await bob.listResources();
    expect(page.resources).toEqual([]);
  });

  test('resources/read is the tier-2 text of get_binding, counted exactly', async () => {
    const id = ids.get('note-007')!;
    const { text, context } = await read(alice, 'bindery://alice/note-007');
    const tool = await ok(alice, 'get_binding', { id, tier: '2' });
    expect(text).toBe(textOf(tool._result));
    expect(context.binding.id).toBe(id);
    expect(context.binding.contentTokenCount).toBe(tool.binding.contentTokenCount);
    expect(context.response.tokens).toBe((tool._result._meta as any).context.response.tokens);
    expect(context.version).toBe(1);
  });

  test('template: listed, and a read at a version and tier matches get_binding', async () => {
    const { resourceTemplates } = await alice.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([BINDING_URI_TEMPLATE]);
    const id = ids.get('note-010')!;
    await ok(alice, 'update_binding', { id, content: '# Note 10\n\nSecond version.\n' });
    for (const [uri, args] of [
      ['bindery://alice/note-010?version=1&tier=1.5', { version: 1, tier: '1.5' }],
      ['bindery://alice/note-010?tier=1&version=1', { version: 1, tier: '1' }],
      ['bindery://@alice/note-010?version=2', { version: 2, tier: '2' }],
      ['bindery://alice/note-010?tier=2', { tier: '2' }],
    ] as const) {
      const { text, context } = await read(alice, uri);
      expect(text).toBe(textOf((await ok(alice, 'get_binding', { id, ...args }))._result));
      expect(context.tier).toBe(args.tier);
    }
    expect((await read(alice, 'bindery://alice/note-010?version=1')).text).toContain('Body of note 10');
  });

  test('bad URIs name the part and the rule; unreadable is exactly like missing', async () => {
    expect(await rejection(alice.readResource({ uri: 'bindery://alice/note-001?tier=3' }))).toContain('tier: must be');
    expect(await rejection(alice.readResource({ uri: 'bindery://alice/note-001?version=0' }))).toContain('version: must be');
    expect(await rejection(alice.readResource({ uri: 'bindery://alice/note-001?cursor=x' }))).toContain('cursor: is not a query variable');
    expect(await rejection(alice.readResource({ uri: 'https://example.com/x' }))).toContain('uri: must look like');
    const missing = await rejection(bob.readResource({ uri: 'bindery://alice/no-such-note' }));
    const hidden = await rejection(bob.readResource({ uri: 'bindery://alice/note-001' }));
    expect(hidden).toBe(missing.replace('no-such-note', 'note-001'));
    expect(hidden).toContain('-32002');
    // Same for a space that does not exist, and for a version past the last.
    expect(await rejection(bob.readResource({ uri: 'bindery://nobody/note-001' }))).toBe(hidden.replace('alice', 'nobody'));
    expect(await rejection(alice.readResource({ uri: 'bindery://alice/note-001?version=9' }))).toContain('Resource not found');
    expect(await rejection(bob.subscribeResource({ uri: 'bindery://alice/note-001' }))).toBe(hidden);
  });
});

describe('paging of a huge binding', () => {
  let small: TestWorld;
  beforeAll(async () => {
    small = await createTestWorld({ BINDERY_MAX_RESPONSE_TOKENS: '1000' });
  });
  afterAll(() => small.close());

  test('pages of at most the response cap, each counted exactly, following nextUri to the last; same pages as get_binding', async () => {
    const c = await small.connect('carol');
    const lines = Array.from({ length: 400 }, (_, i) => `Line ${i}: the quick brown fox jumps over the lazy dog number ${i}.`);
    const made = await ok(c, 'create_binding', { name: 'Huge', content: `${lines.join('\n')}\n`, summary: 'A long one.' });
    let uri: string | null = 'bindery://carol/huge';
    let cursor: string | undefined;
    const pageTexts: string[] = [];
    let index = 0;
    while (uri) {
      const { text, context } = await read(c, uri);
      index++;
      expect(context.response.tokens).toBeLessThanOrEqual(1000);
      expect(context.page.index).toBe(index);
      const tool = await ok(c, 'get_binding', { id: made.binding.id, tier: '2', ...(cursor ? { cursor } : {}) });
      const toolText = textOf(tool._result);
      // Same card and page; only the last line differs (a URI to read next instead of a tool cursor).
      const withoutLast = (s: string) => s.replace(/Page \d+ of \d+[^\n]*\n$/, '');
      expect(withoutLast(text)).toBe(withoutLast(toolText));
      pageTexts.push(tool.binding.content!);
      cursor = tool.binding.page?.nextCursor ?? undefined;
      uri = context.page.nextUri;
      if (uri) expect(text).toContain(`Next page: ${uri}`);
    }
    expect(index).toBeGreaterThan(2);
    expect(pageTexts.join('')).toBe(`${lines.join('\n')}\n`);
    expect(await rejection(c.readResource({ uri: `bindery://carol/huge?page=${index + 1}` }))).toContain('page:');
    const second = await read(c, 'bindery://carol/huge?page=2');
    expect(second.context.page.index).toBe(2);
  });
});

describe('subscriptions', () => {
  test('an update from another session notifies the subscriber; unsubscribe stops it', async () => {
    const watcher = await world.connect('alice');
    const writer = await world.connect('alice');
    const updates = collect<{ uri: string }>(watcher, ResourceUpdatedNotificationSchema);
    const uri = 'bindery://alice/note-020';
    await watcher.subscribeResource({ uri });
    await ok(writer, 'update_binding', { id: ids.get('note-020')!, content: '# Note 20\n\nChanged.\n' });
    await until(() => updates.length > 0, 1000);
    expect(updates).toEqual([{ uri }]);
    expect((await read(watcher, uri)).text).toContain('Changed.');
    await watcher.unsubscribeResource({ uri });
    await ok(writer, 'update_binding', { id: ids.get('note-020')!, content: '# Note 20\n\nChanged again.\n' });
    await Bun.sleep(300);
    expect(updates).toHaveLength(1);
  });

  test('a write by another process on the same database is found by the poll', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-surface-'));
    const url = `file:${join(dir, 'b.db')}`;
    const config = parseConfig({ BINDERY_DB_URL: url, BINDERY_TOOL_MODE: 'eager' });
    const a = createDatabase({ url });
    await migrate(a.db);
    const other = createDatabase({ url });
    try {
      const tokens = await testCounter();
      const depsA = { db: a.db, tokens, config, now: () => Date.now() };
      const depsB = { db: other.db, tokens, config, now: () => Date.now() };
      const dave = await ensureCaller(depsA, 'dave');
      const server = createBinderyServer(depsA, { caller: dave });
      const [cs, ss] = InMemoryTransport.createLinkedPair();
      await server.connect(ss);
      const client = new Client({ name: 't', version: '1' });
      await client.connect(cs);
      const made = await ok(client, 'create_binding', { name: 'Polled', content: 'v1\n', summary: 'Polled.' });
      const updates = collect<{ uri: string }>(client, ResourceUpdatedNotificationSchema);
      await client.subscribeResource({ uri: 'bindery://dave/polled' });
      await client.subscribeResource({ uri: 'bindery://dave/polled?version=1' });
      // Written through another handle: no in-process announcement reaches this server's session.
      await updateBinding({ ...depsB, tokens }, dave, made.binding.id, { content: 'v2\n' }, { source: 'human', model: null });
      await until(() => updates.length > 0, 4000);
      expect(updates).toEqual([{ uri: 'bindery://dave/polled' }]);
      await client.close();
    } finally {
      a.close();
      other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 15_000);

  test('a stateless server advertises resources without subscribe and refuses subscribe', async () => {
    const caller = await ensureCaller({ db: world.db, now: () => Date.now() }, 'alice');
    const server = createBinderyServer(
      { db: world.db, tokens: world.tokens, config: world.config, now: Date.now },
      { caller, stateless: true },
    );
    const [cs, ss] = InMemoryTransport.createLinkedPair();
    await server.connect(ss);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(cs);
    const caps = client.getServerCapabilities()!;
    expect(caps.resources).toEqual({ subscribe: false, listChanged: false });
    expect(caps.logging).toBeDefined();
    expect((await client.listResources()).resources.length).toBe(RESOURCE_PAGE_SIZE);
    expect(
      await rejection(
        client.request(
          { method: 'resources/subscribe', params: { uri: 'bindery://alice/note-001' } },
          (await import('@modelcontextprotocol/sdk/types.js')).EmptyResultSchema,
        ),
      ),
    ).toContain('Method not found');
    await client.close();
  });
});
