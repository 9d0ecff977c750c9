// In-process tool calls (REST, the web app) go through the tool's definition (core/tools/call.ts): the
// result is the structured content MCP gets, typed by the tool's output schema, and bad input is the
// same typed error.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { BinderyError } from '../../core/errors.ts';
import { restContext } from '../../core/http/rest-tools.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { callTool } from '../../core/tools/call.ts';
import { ALL_TOOLS, TOOLS } from '../../core/tools/registry.ts';
import { createTestWorld, ok, sampleBinding, type TestWorld } from '../helpers.ts';

let world: TestWorld;
beforeAll(async () => {
  world = await createTestWorld();
});
afterAll(() => world.close());

describe('TOOLS and callTool', () => {
  test('TOOLS names every registered tool by its own name, in tools/list order', () => {
    expect(Object.entries(TOOLS).map(([key, tool]) => [key, tool.name])).toEqual(ALL_TOOLS.map((t) => [t.name, t.name]));
    expect(Object.values(TOOLS)).toEqual([...ALL_TOOLS]);
  });

  test('a call returns the structured content an MCP client gets, typed by the output schema', async () => {
    const client = await world.connect('ivy');
    const made = await ok(client, 'create_binding', sampleBinding(1));
    const deps = { db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() };
    const ctx = restContext(deps, await ensureCaller(deps, 'ivy'));
    const direct = await callTool(ctx, TOOLS.get_binding, { id: made.binding.id, tier: '1' });
    const overMcp = await ok(client, 'get_binding', { id: made.binding.id, tier: '1' });
    const { _result, ...structured } = overMcp;
    expect(direct).toEqual(structured as typeof direct);
    // Typed: contentTokenCount is a number here without a cast.
    expect(direct.binding.contentTokenCount).toBeGreaterThan(0);
    const listed = await callTool(ctx, TOOLS.list_bindings, { limit: 5 });
    expect(listed.results.map((r) => r.id)).toEqual([made.binding.id]);
    await client.close();
  });

  test('bad input is the typed INVALID_INPUT error naming the field', async () => {
    const deps = { db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() };
    const ctx = restContext(deps, await ensureCaller(deps, 'ivy'));
    const failure = await callTool(ctx, TOOLS.get_binding, { id: 'nope' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BinderyError);
    expect(failure).toMatchObject({ code: 'INVALID_INPUT', field: 'id' });
  });
});
