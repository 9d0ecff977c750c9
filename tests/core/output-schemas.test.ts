// Every tool's structuredContent against the outputSchema it advertises (dispatch goes
// through setRequestHandler, so nothing else checks what a tool promises). Each tool is called with
// valid arguments on a seeded world, at every tier where it takes one, and validated with the SDK's
// own Ajv validator; a tool this test never called fails it, so a new tool cannot slip by.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { createTestWorld, type TestWorld } from '../helpers.ts';

const validators = new AjvJsonSchemaValidator();
let w: TestWorld;
const schemas = new Map<string, Tool>();
const called = new Map<string, number>();
const problems: string[] = [];

async function run(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  const tool = schemas.get(name);
  if (!tool?.outputSchema) problems.push(`${name}: no outputSchema advertised`);
  else {
    const check = validators.getValidator(tool.outputSchema as never)(result.structuredContent);
    if (!check.valid) problems.push(`${name} ${JSON.stringify(args).slice(0, 80)}: ${check.errorMessage}`);
  }
  called.set(name, (called.get(name) ?? 0) + 1);
  return result.structuredContent as Record<string, any>;
}

beforeAll(async () => {
  w = await createTestWorld();
});
afterAll(() => w.close());

describe('structuredContent matches the advertised outputSchema, for every tool', () => {
  test('all tools, every tier, on a seeded world', async () => {
    const alice = await w.connect('alice');
    const bob = await w.connect('bob');
    const proxy = await w.connect('alice', { mode: 'proxy' });
    for (const c of [alice, proxy]) for (const t of (await c.listTools()).tools) schemas.set(t.name, t);

    const long = Array.from({ length: 30 }, (_, i) => `## Part ${i}\n\nParagraph ${i} about caching and retries.\n`).join('\n');
    await run(alice, 'create_space', { slug: 'team', name: 'Team' });
    const a = (
      await run(alice, 'create_binding', {
        name: 'Caching notes',
        content: long,
        summary: 'How we cache.',
        keyPoints: ['ttl', 'retries'],
        space: '@team',
      })
    ).binding;
    const b = (
      await run(alice, 'create_binding', { name: 'Retry policy', content: '# Retry\n\nBack off exponentially.', summary: 'Retries.' })
    ).binding;
    for (const tier of ['0', '1', '1.5', '2', 1, 0]) await run(alice, 'get_binding', { id: a.id, tier });
    await run(alice, 'get_binding', { id: a.id, section: 'part-3' });
    await run(alice, 'get_bindings', { ids: [a.id, b.id] });
    await run(alice, 'get_bindings', { ids: [a.id, b.id], query: 'retries', maxTokens: 400 });
    for (const tier of ['0', '1', '1.5']) await run(alice, 'list_bindings', { tier });
    for (const tier of ['0', '1']) await run(alice, 'search_bindings', { query: 'caching retries', tier });
    await run(alice, 'search_bindings', { query: 'zzqv wqxj' });
    await run(alice, 'update_binding', { id: b.id, content: '# Retry\n\nBack off, with jitter.', expectedVersion: 1 });
    await run(alice, 'list_versions', { id: b.id });
    await run(alice, 'get_version', { id: b.id, version: 1 });
    await run(alice, 'get_version', { id: a.id, version: 1, section: 'part-2' });
    const set = (await run(alice, 'create_set', { name: 'Reading list', bindingIds: [a.id] })).set;
    await run(alice, 'edit_set_items', { id: set.id, add: [{ bindingId: b.id, version: 1 }] });
    await run(alice, 'update_set', { id: set.id, description: 'What to read first.' });
    await run(alice, 'get_set', { id: set.id });
    for (const tier of ['0', '1', '1.5', '2']) await run(alice, 'get_set_context', { setId: set.id, maxTokens: 600, tier });
    await run(alice, 'get_set_context', { setId: set.id, maxTokens: 600, query: 'jitter' });
    await run(alice, 'list_sets');
    const comment = (await run(alice, 'add_comment', { id: b.id, body: 'Jitter matters.' })).comment;
    await run(alice, 'list_comments', { id: b.id });
    await run(alice, 'delete_comment', { id: comment.id });
    const share = (await run(alice, 'create_share', { target: b.id, user: 'bob', permission: 'read' })).share;
    await run(alice, 'create_share', { target: a.id, public: true, permission: 'read' });
    await run(alice, 'list_shares');
    await run(bob, 'list_shares', { incoming: true });
    await run(bob, 'create_share', { accept: share.id });
    await run(alice, 'revoke_share', { id: share.id });
    await run(alice, 'list_spaces');
    await run(alice, 'whoami');
    await run(alice, 'help');
    await run(alice, 'help', { topic: 'start' });
    await run(alice, 'search_tools', { query: 'share a set' });
    await run(alice, 'list_available_tools');
    await run(alice, 'get_active_toolset');
    await run(proxy, 'list_tool_categories');
    await run(proxy, 'invoke_tool', { name: 'whoami', arguments: {} });
    await run(alice, 'delete_set', { id: set.id });
    await run(alice, 'delete_binding', { id: b.id });

    expect(problems).toEqual([]);
    const never = [...schemas.keys()].filter((name) => !called.has(name));
    expect(never).toEqual([]);
    expect(called.size).toBeGreaterThanOrEqual(31);
  }, 60_000);
});
