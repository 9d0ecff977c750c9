// Every kind of bad input: each is an isError result whose message names the field, nothing is
// written, and the server keeps serving. In-process over InMemoryTransport, then over real stdio for a
// 10 MB JSON argument.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { countVersions } from '../../core/services/prepare.ts';
import { call, contextOf, createTestWorld, err, ok, textOf, type TestWorld } from '../helpers.ts';
import { startStdioServer, type StdioServer } from '../stdio-client.ts';

const MAX_BYTES = 4000;
const LONE_HIGH = 'bad \uD800 text';
const LONE_LOW = 'bad \uDC00 text';

interface Case {
  what: string;
  tool: string;
  args: Record<string, unknown>;
  /** The field the message must name, and optionally the error code. */
  field: string;
  code?: string;
}

describe('bad input is refused clearly and writes nothing', () => {
  let world: TestWorld;
  let client: Client;
  let id: string;
  let otherUsersId: string;
  let listCursor: string;
  const good = { name: 'Good', content: 'Good content.', summary: 'A good summary.' };

  beforeAll(async () => {
    world = await createTestWorld({ BINDERY_MAX_CONTENT_BYTES: String(MAX_BYTES) });
    client = await world.connect('alice');
    id = (await ok(client, 'create_binding', good)).binding.id;
    for (let i = 0; i < 3; i++) await ok(client, 'create_binding', { ...good, name: `Filler ${i}` });
    listCursor = (await ok(client, 'list_bindings', { limit: 2 })).pagination.nextCursor;
    const bob = await world.connect('bob');
    otherUsersId = (await ok(bob, 'create_binding', { ...good, name: "Bob's" })).binding.id;
  });
  afterAll(() => world.close());

  const cases = (): Case[] => {
    const tampered = `${listCursor.slice(0, -2)}${listCursor.endsWith('AA') ? 'BB' : 'AA'}`;
    const forgedBody = btoa(JSON.stringify(['list:whatever:2:1:', 0])).replace(/=+$/, '');
    return [
      { what: 'missing name', tool: 'create_binding', args: { content: 'x', summary: 's' }, field: 'name' },
      { what: 'empty name', tool: 'create_binding', args: { ...good, name: '' }, field: 'name' },
      { what: 'blank name', tool: 'create_binding', args: { ...good, name: '   \n ' }, field: 'name' },
      { what: 'missing content', tool: 'create_binding', args: { name: 'n', summary: 's' }, field: 'content' },
      { what: 'empty content', tool: 'create_binding', args: { ...good, content: '' }, field: 'content' },
      { what: 'missing summary', tool: 'create_binding', args: { name: 'n', content: 'c' }, field: 'summary' },
      { what: 'name of the wrong type', tool: 'create_binding', args: { ...good, name: 42 }, field: 'name' },
      { what: 'summary over 600 chars', tool: 'create_binding', args: { ...good, summary: 'x'.repeat(601) }, field: 'summary' },
      { what: 'summary over 600 chars (update)', tool: 'update_binding', args: { id: '$id', summary: 'y'.repeat(601) }, field: 'summary' },
      {
        what: 'more than 8 key points',
        tool: 'create_binding',
        args: { ...good, keyPoints: Array.from({ length: 9 }, (_, i) => `p${i}`) },
        field: 'keyPoints',
      },
      {
        what: 'more than 8 key points (update)',
        tool: 'update_binding',
        args: { id: '$id', keyPoints: Array.from({ length: 9 }, (_, i) => `p${i}`) },
        field: 'keyPoints',
      },
      {
        what: 'a key point over 160 chars',
        tool: 'create_binding',
        args: { ...good, keyPoints: ['ok', 'k'.repeat(161)] },
        field: 'keyPoints.1',
      },
      { what: 'unknown argument', tool: 'create_binding', args: { ...good, colour: 'red' }, field: 'colour' },
      {
        what: 'unknown id (get)',
        tool: 'get_binding',
        args: { id: 'bnd_0000000000000000' },
        field: 'id: binding bnd_0000000000000000',
        code: 'NOT_FOUND',
      },
      {
        what: 'unknown id (update)',
        tool: 'update_binding',
        args: { id: 'bnd_0000000000000000', content: 'x' },
        field: 'id: binding bnd_0000000000000000',
        code: 'NOT_FOUND',
      },
      {
        what: 'unknown id (delete)',
        tool: 'delete_binding',
        args: { id: 'bnd_0000000000000000' },
        field: 'id: binding bnd_0000000000000000',
        code: 'NOT_FOUND',
      },
      {
        what: 'unknown id (list_versions)',
        tool: 'list_versions',
        args: { id: 'bnd_0000000000000000' },
        field: 'id: binding bnd_0000000000000000',
        code: 'NOT_FOUND',
      },
      {
        what: "another user's private binding",
        tool: 'get_binding',
        args: { id: '$other' },
        field: 'id: binding $other',
        code: 'NOT_FOUND',
      },
      {
        what: "update of another user's binding",
        tool: 'update_binding',
        args: { id: '$other', content: 'mine now' },
        field: 'id: binding $other',
        code: 'NOT_FOUND',
      },
      { what: 'unknown version', tool: 'get_version', args: { id: '$id', version: 99 }, field: 'version: version 99', code: 'NOT_FOUND' },
      { what: 'version 0', tool: 'get_version', args: { id: '$id', version: 0 }, field: 'version' },
      { what: 'missing version', tool: 'get_version', args: { id: '$id' }, field: 'version' },
      { what: 'malformed id', tool: 'get_binding', args: { id: 'not-an-id' }, field: 'id' },
      { what: 'malformed id (wrong prefix)', tool: 'update_binding', args: { id: 'set_0123456789abcdef', content: 'x' }, field: 'id' },
      { what: 'malformed id in a list', tool: 'get_bindings', args: { ids: ['$id', 'nope'] }, field: 'ids.1' },
      { what: 'unknown tier "3"', tool: 'get_binding', args: { id: '$id', tier: '3' }, field: 'tier' },
      { what: 'unknown tier as a number', tool: 'get_binding', args: { id: '$id', tier: 3 }, field: 'tier' },
      { what: 'unknown tier (list)', tool: 'list_bindings', args: { tier: 'full' }, field: 'tier' },
      { what: 'negative limit', tool: 'list_bindings', args: { limit: -1 }, field: 'limit' },
      { what: 'zero limit', tool: 'search_bindings', args: { query: 'good', limit: 0 }, field: 'limit' },
      { what: 'huge limit', tool: 'list_bindings', args: { limit: 1e12 }, field: 'limit' },
      { what: 'huge limit (search)', tool: 'search_bindings', args: { query: 'good', limit: 1_000_000 }, field: 'limit' },
      { what: 'fractional limit', tool: 'list_versions', args: { id: '$id', limit: 2.5 }, field: 'limit' },
      { what: 'forged cursor (garbage)', tool: 'list_bindings', args: { cursor: 'definitely-not-a-cursor' }, field: 'cursor' },
      {
        what: 'forged cursor (unsigned body)',
        tool: 'list_bindings',
        args: { limit: 2, cursor: `${forgedBody}.AAAAAAAAAAAAAAAA` },
        field: 'cursor',
      },
      { what: 'tampered cursor', tool: 'list_bindings', args: { limit: 2, cursor: tampered }, field: 'cursor' },
      { what: 'cursor from another listing', tool: 'search_bindings', args: { query: 'good', cursor: listCursor }, field: 'cursor' },
      { what: 'cursor on an unpaged read', tool: 'get_binding', args: { id: '$id', tier: '2', cursor: listCursor }, field: 'cursor' },
      {
        what: 'content over the byte limit',
        tool: 'create_binding',
        args: { ...good, content: 'x'.repeat(MAX_BYTES + 1) },
        field: 'content',
        code: 'TOO_LARGE',
      },
      {
        what: 'content over the byte limit in UTF-8 only',
        tool: 'create_binding',
        args: { ...good, content: '日'.repeat(Math.ceil(MAX_BYTES / 3) + 1) },
        field: 'content',
        code: 'TOO_LARGE',
      },
      {
        what: 'content over the byte limit (update)',
        tool: 'update_binding',
        args: { id: '$id', content: 'z'.repeat(MAX_BYTES + 1) },
        field: 'content',
        code: 'TOO_LARGE',
      },
      { what: 'lone high surrogate in content', tool: 'create_binding', args: { ...good, content: LONE_HIGH }, field: 'content' },
      { what: 'lone low surrogate in name', tool: 'create_binding', args: { ...good, name: LONE_LOW }, field: 'name' },
      { what: 'lone surrogate in summary', tool: 'create_binding', args: { ...good, summary: LONE_HIGH }, field: 'summary' },
      { what: 'lone surrogate in a key point', tool: 'create_binding', args: { ...good, keyPoints: [LONE_LOW] }, field: 'keyPoints.0' },
      { what: 'lone surrogate in model', tool: 'create_binding', args: { ...good, model: LONE_HIGH }, field: 'model' },
      { what: 'lone surrogate in an update', tool: 'update_binding', args: { id: '$id', content: LONE_LOW }, field: 'content' },
      { what: 'lone surrogate in a query', tool: 'search_bindings', args: { query: LONE_HIGH }, field: 'query' },
      { what: 'empty query', tool: 'search_bindings', args: { query: '  ' }, field: 'query' },
      { what: 'query without words', tool: 'search_bindings', args: { query: '*** ///' }, field: 'query' },
      { what: 'update with nothing to change', tool: 'update_binding', args: { id: '$id' }, field: 'content' },
      {
        what: 'expectedVersion 0',
        tool: 'update_binding',
        args: { id: '$id', content: 'x', expectedVersion: 0 },
        field: 'expectedVersion',
      },
      {
        what: 'stale expectedVersion',
        tool: 'update_binding',
        args: { id: '$id', content: 'x', expectedVersion: 7 },
        field: 'expectedVersion',
        code: 'CONFLICT',
      },
      {
        what: 'unknown space',
        tool: 'create_binding',
        args: { ...good, space: '@nowhere' },
        field: 'space: space @nowhere',
        code: 'NOT_FOUND',
      },
      {
        what: "another user's personal space",
        tool: 'create_binding',
        args: { ...good, space: '@bob' },
        field: 'space: space @bob',
        code: 'NOT_FOUND',
      },
    ];
  };

  test('each bad input is an isError result naming the field, and nothing is written', async () => {
    const before = { versions: await countVersions(world), listed: (await ok(client, 'list_bindings', {})).pagination.total };
    const failures: string[] = [];
    for (const c of cases()) {
      const sub = (v: unknown): unknown => (v === '$id' ? id : v === '$other' ? otherUsersId : Array.isArray(v) ? v.map(sub) : v);
      const args = Object.fromEntries(Object.entries(c.args).map(([k, v]) => [k, sub(v)]));
      const field = c.field.replace('$other', otherUsersId);
      const result = await call(client, c.tool, args);
      const text = textOf(result);
      const problems: string[] = [];
      if (!result.isError) problems.push('not isError');
      if (!text.includes(field)) problems.push(`does not name ${field}`);
      if (c.code && !text.startsWith(`Error ${c.code}`)) problems.push(`not ${c.code}`);
      if (text.includes('    at ') || /\.ts:\d+/.test(text)) problems.push('leaks a stack trace');
      if (contextOf(result).error?.code === undefined) problems.push('no _meta.context.error.code');
      if (problems.length) failures.push(`${c.what}: ${problems.join(', ')} — ${JSON.stringify(text.slice(0, 200))}`);
    }
    expect(failures).toEqual([]);
    expect(await countVersions(world)).toBe(before.versions);
    expect((await ok(client, 'list_bindings', {})).pagination.total).toBe(before.listed);
    const still = await ok(client, 'get_binding', { id, tier: '2' });
    expect(still.binding).toMatchObject({ version: 1, content: good.content, summary: good.summary });
  });

  test('a field of the wrong type names the type it must be, not "is required"', async () => {
    const expectations: [string, Record<string, unknown>, string][] = [
      ['get_binding', { id: 42 }, 'id: must be a string (got number)'],
      ['get_binding', { id: null }, 'id: must be a string (got null)'],
      ['get_binding', {}, 'id: is required (string)'],
      ['create_binding', { ...good, keyPoints: 'one' }, 'keyPoints: must be an array (got string)'],
      ['list_bindings', { limit: '5' }, 'limit: must be a number (got string)'],
      ['get_version', { id: '$id', version: 1.5 }, 'version: must be a whole number'],
      ['get_binding', { id: '$id', tier: 3 }, 'tier: must be "0" (one line), "1" (summary), "1.5" (+ preview) or "2" (full content)'],
    ];
    for (const [tool, args, message] of expectations) {
      const text = await err(client, tool, Object.fromEntries(Object.entries(args).map(([k, v]) => [k, v === '$id' ? id : v])));
      expect(text).toContain(message);
      expect(text).not.toContain('is required (string); ');
    }
  });

  test('tier is accepted as a number as well as a string, everywhere a tier is taken', async () => {
    for (const tier of [1, 1.5, 2] as const) {
      const asNumber = await call(client, 'get_binding', { id, tier });
      const asString = await call(client, 'get_binding', { id, tier: String(tier) });
      expect(asNumber.isError).toBeFalsy();
      expect(textOf(asNumber)).toBe(textOf(asString));
      expect((asNumber.structuredContent as any).binding.tier).toBe(String(tier));
    }
    const setId = (await ok(client, 'create_set', { name: 'Tiers', bindingIds: [id] })).set.id;
    for (const [tool, args] of [
      ['get_bindings', { ids: [id], tier: 1.5 }],
      ['list_bindings', { tier: 1 }],
      ['search_bindings', { query: 'good', tier: 2 }],
      ['get_version', { id, version: 1, tier: 1.5 }],
      ['get_set_context', { setId, maxTokens: 2000, tier: 1 }],
    ] as const) {
      const res = await call(client, tool, args);
      expect(res.isError, `${tool}: ${textOf(res).slice(0, 120)}`).toBeFalsy();
    }
  });

  test('content at exactly the byte limit is accepted', async () => {
    const res = await ok(client, 'create_binding', { ...good, name: 'At the limit', content: 'x'.repeat(MAX_BYTES) });
    expect(res.binding.contentTokenCount).toBeGreaterThan(0);
  });

  test('an unknown tool is a JSON-RPC error -32602 naming it, and the session keeps working', async () => {
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('no_such_tool'),
    });
    expect((await ok(client, 'get_binding', { id })).binding.id).toBe(id);
  });
});

describe('a 10 MB JSON argument over real stdio', () => {
  let server: StdioServer;
  beforeAll(async () => {
    server = await startStdioServer({ env: { BINDERY_USER: 'big' } });
  });
  afterAll(async () => {
    await server.close();
  });

  test('is answered with an error naming the field, writes nothing, and the server keeps serving', async () => {
    const ten = 10 * 1024 * 1024;
    const big = await err(server.client, 'create_binding', { name: 'Huge', content: 'a'.repeat(ten), summary: 'Too big.' });
    expect(big).toStartWith('Error TOO_LARGE: content:');
    expect(big).toContain(`${ten} bytes`);
    const bigName = await err(server.client, 'create_binding', { name: 'n'.repeat(ten), content: 'small', summary: 'Name too big.' });
    expect(bigName).toContain('name:');
    const bigQuery = await err(server.client, 'search_bindings', { query: 'q '.repeat(ten / 2) });
    expect(bigQuery).toContain('query:');
    const listed = await ok(server.client, 'list_bindings', {});
    expect(listed.pagination.total).toBe(0);
    const created = await ok(server.client, 'create_binding', {
      name: 'After',
      content: 'Still serving.',
      summary: 'Written after the big ones.',
    });
    expect((await ok(server.client, 'get_binding', { id: created.binding.id, tier: '2' })).binding.content).toBe('Still serving.');
    expect(server.transportErrors).toEqual([]);
  }, 60_000);
});
