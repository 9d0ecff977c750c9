// Lean listing in lazy mode: an always-listed tool is listed with its everyday arguments only (its
// `listed`), every argument is still accepted and validated, and search_tools finding it lists it in
// full. Driven with the SDK's real Client over InMemoryTransport; tools/list is captured from the wire
// and every figure is checked against an independent o200k count of what it carried.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { type Tool, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { createBinderyServer, createRegistry, DEFAULT_CONFIG, type ToolMode } from '../../core/index.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { leanListEntry, toolListEntry } from '../../core/tools/listing.ts';
import { binderyMeasureInput, measureTools } from '../../core/footprint/measure.ts';
import { buildLock, diffLock } from '../../core/footprint/lock.ts';
import { PROXY_LISTED } from '../../core/modes/session.ts';
import { createTestWorld, err, ok, textOf, wireToolLists, type TestWorld } from '../helpers.ts';

const registry = createRegistry();
/** Model-visible tokens of an entry (name, description, input schema), by a second o200k implementation. */
const seen = (t: Tool) => encode(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema })).length;
const props = (t: Tool) => Object.keys(t.inputSchema.properties ?? {});

let world: TestWorld;
let id: string;
beforeAll(async () => {
  world = await createTestWorld();
  const eager = await world.connect('local', { mode: 'eager' });
  const made = await ok(eager, 'create_binding', {
    name: 'Leave policy',
    content: '# Leave policy\n\n## Recovery leave\n\nAfter a release, everyone takes two days of recovery leave.\n',
    summary: 'How leave works.',
  });
  id = made.binding.id;
  await ok(eager, 'update_binding', { id, content: '# Leave policy\n\n## Recovery leave\n\nThree days of recovery leave.\n' });
});
afterAll(() => world.close());

/** A session whose tools/list results are captured raw from the wire, counting tools/list_changed. */
async function session(mode: ToolMode, alwaysTools = DEFAULT_CONFIG.alwaysTools) {
  const deps = { db: world.db, tokens: world.tokens, config: { ...world.config, alwaysTools }, now: () => Date.now() };
  const caller = await ensureCaller(deps, 'local');
  const server = createBinderyServer(deps, { caller, mode });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'lean-tests', version: '1' });
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
  await client.connect(clientSide);
  const wire = wireToolLists(client, clientSide).listed;
  const entry = async (name: string) => (await wire()).find((t) => t.name === name)!;
  return { client, wire, entry, changed: () => changed };
}

describe('lazy mode lists the always-listed tools lean', () => {
  test('each keeps only its listed and required arguments, with the full sub-schemas and no additionalProperties', async () => {
    const s = await session('lazy');
    const wire = await s.wire();
    expect(wire.map((t) => t.name).sort()).toEqual([...DEFAULT_CONFIG.alwaysTools].sort());
    const byName = new Map(wire.map((t) => [t.name, t]));
    expect(props(byName.get('search_bindings')!)).toEqual(['query', 'limit']);
    expect(props(byName.get('get_binding')!)).toEqual(['id', 'section', 'maxTokens']);
    expect(props(byName.get('search_tools')!)).toEqual(['query']);
    for (const t of wire) {
      const tool = registry.get(t.name)!;
      const full = toolListEntry(tool);
      expect(t.inputSchema.required).toEqual(full.inputSchema.required);
      for (const r of full.inputSchema.required ?? []) expect(props(t)).toContain(r);
      for (const p of props(t)) expect(t.inputSchema.properties![p]).toEqual(full.inputSchema.properties![p]);
      expect(props(t).length).toBeLessThan(props(full).length);
      // Anything beyond what is listed stays allowed to a client that validates arguments with the listed schema.
      expect(JSON.stringify(t.inputSchema)).not.toContain('additionalProperties');
      expect(t.description).toBe(tool.listedDescription ?? tool.description);
      // The rest of the entry (output schema, annotations) is the full one.
      expect(t.outputSchema).toEqual(JSON.parse(JSON.stringify(full.outputSchema)));
    }
    // zod's strictObject says additionalProperties: false; the listing drops it (full entries too).
    const strict = z.toJSONSchema(registry.get('search_bindings')!.input, { io: 'input' }) as { additionalProperties?: unknown };
    expect(strict.additionalProperties).toBe(false);
  });

  test('a client validating arguments against the listed schema accepts the unlisted ones', async () => {
    const s = await session('lazy');
    const listed = await s.entry('search_bindings');
    expect(props(listed)).not.toContain('tier');
    const validate = new AjvJsonSchemaValidator().getValidator(listed.inputSchema);
    expect(validate({ query: 'recovery leave', tier: '1', cursor: 'abc' }).valid).toBe(true);
    expect(validate({ limit: 2 }).valid).toBe(false);
  });

  test('calls with unlisted arguments work as before', async () => {
    const s = await session('lazy');
    const cards = await ok(s.client, 'search_bindings', { query: 'recovery leave', tier: '1' });
    expect(cards.results[0]).toMatchObject({ id, tier: '1' });
    expect(cards.results[0].summary).toBe('How leave works.');
    const old = await ok(s.client, 'get_binding', { id, version: 1 });
    expect(old.binding.version).toBe(1);
    const now = await ok(s.client, 'get_binding', { id, tier: '2' });
    expect(now.binding.version).toBe(2);
    expect(textOf(now._result)).toContain('Three days');
    const found = await ok(s.client, 'search_tools', { query: 'version history', limit: 1 });
    expect(found.matches).toHaveLength(1);
  });

  test('a bad value for an unlisted argument is the usual INVALID_INPUT naming the field', async () => {
    const s = await session('lazy');
    expect(await err(s.client, 'search_bindings', { query: 'leave', tier: '9' })).toMatch(/^Error INVALID_INPUT: tier: must be "passage"/);
    expect(await err(s.client, 'get_binding', { id, version: 0 })).toMatch(/^Error INVALID_INPUT: version: must be 1 or more/);
    expect(await err(s.client, 'search_tools', { query: 'sets', limit: 99 })).toMatch(/^Error INVALID_INPUT: limit: must be from 1 to 20/);
    // An argument no schema has is still refused by name.
    expect(await err(s.client, 'search_bindings', { query: 'leave', verion: 1 })).toMatch(/^Error INVALID_INPUT: .*verion/);
    // The session keeps serving, still lean.
    expect(props(await s.entry('search_bindings'))).toEqual(['query', 'limit']);
  });

  test('search_tools finding an always-listed tool lists it in full from then on, with tools/list_changed', async () => {
    const s = await session('lazy');
    expect(props(await s.entry('search_bindings'))).toEqual(['query', 'limit']);
    const found = await ok(s.client, 'search_tools', { query: 'page through search results', limit: 1 });
    expect(found.matches.map((m: any) => m.name)).toEqual(['search_bindings']);
    expect(found.matches[0].listed).toBe(true);
    expect(found.enabled).toEqual(['search_bindings']);
    expect(textOf(found._result)).toContain('Listed with all arguments now: search_bindings (tools/list changed).');
    await Bun.sleep(0);
    expect(s.changed()).toBe(1);
    const full = toolListEntry(registry.get('search_bindings')!);
    expect(await s.entry('search_bindings')).toEqual(JSON.parse(JSON.stringify(full)));
    // The others stay lean; finding it again changes nothing.
    expect(props(await s.entry('get_binding'))).toEqual(['id', 'section', 'maxTokens']);
    const again = await ok(s.client, 'search_tools', { query: 'page through search results', limit: 1 });
    expect(again.enabled).toEqual([]);
    expect(textOf(again._result)).toContain('All of them are listed already.');
    await Bun.sleep(0);
    expect(s.changed()).toBe(1);
    // A search that enables a new tool and shows a lean one in full says both.
    const both = await ok(s.client, 'search_tools', { query: 'read an old version', limit: 2 });
    expect(both.matches.map((m: any) => m.name)).toEqual(['get_version', 'get_binding']);
    expect(textOf(both._result)).toContain('Enabled for this session: get_version; Listed with all arguments now: get_binding');
    expect(props(await s.entry('get_binding'))).toEqual(props(toolListEntry(registry.get('get_binding')!)));
  });

  test('a direct call of a lean tool does not change the listing', async () => {
    const s = await session('lazy');
    await ok(s.client, 'search_bindings', { query: 'leave', tier: '0' });
    await Bun.sleep(0);
    expect(s.changed()).toBe(0);
    expect(props(await s.entry('search_bindings'))).toEqual(['query', 'limit']);
  });

  test('a tool enabled by search, not always-listed, is listed in full; an always tool with no listed arguments too', async () => {
    const s = await session('lazy', ['search_tools', 'help']);
    expect(props(await s.entry('help'))).toEqual(props(toolListEntry(registry.get('help')!)));
    await ok(s.client, 'search_tools', { query: 'get_binding', limit: 1 });
    expect(await s.entry('get_binding')).toEqual(JSON.parse(JSON.stringify(toolListEntry(registry.get('get_binding')!))));
    expect(props(await s.entry('search_tools'))).toEqual(['query']);
  });

  test('eager and proxy modes list full schemas, as before', async () => {
    const eager = await (await session('eager')).wire();
    expect(eager).toEqual(JSON.parse(JSON.stringify(registry.all.filter((t) => t.category !== 'proxy').map(toolListEntry))));
    const proxy = await (await session('proxy')).wire();
    expect(proxy).toEqual(JSON.parse(JSON.stringify(PROXY_LISTED.map((n) => toolListEntry(registry.get(n)!)))));
  });
});

describe('every figure counts what tools/list returns', () => {
  test('lazy totals (list_available_tools, measure) equal an independent count of the lazy listing', async () => {
    const s = await session('lazy');
    const wire = await s.wire();
    const lazy = wire.reduce((n, t) => n + seen(t), 0);
    expect(lazy).toBeLessThan(200);
    const out = await ok(s.client, 'list_available_tools');
    expect(out.meta.modelModes.lazy).toBe(lazy);
    expect(out.meta.modes.lazy).toBe(wire.reduce((n, t) => n + encode(JSON.stringify(t)).length, 0));
    const report = measureTools(binderyMeasureInput(registry, DEFAULT_CONFIG), world.tokens);
    expect(report.modes.lazy.modelTokens).toBe(lazy);
    // Eager and proxy are the full entries, unchanged.
    const eager = await (await session('eager')).wire();
    expect(report.modes.eager.modelTokens).toBe(eager.reduce((n, t) => n + seen(t), 0));
    expect(out.meta.modelModes.eager).toBe(report.modes.eager.modelTokens);
    const proxy = await (await session('proxy')).wire();
    expect(out.meta.modelModes.proxy).toBe(proxy.reduce((n, t) => n + seen(t), 0));
  });

  test('listedNow and get_active_toolset follow the listing as it changes', async () => {
    const s = await session('lazy');
    await ok(s.client, 'search_tools', { query: 'page through search results', limit: 1 });
    await ok(s.client, 'get_active_toolset');
    const out = await ok(s.client, 'list_available_tools');
    const wire = await s.wire();
    expect(wire.map((t) => t.name)).toContain('list_available_tools');
    expect(out.meta.listedNow).toEqual({
      tools: wire.length,
      modelTokens: wire.reduce((n, t) => n + seen(t), 0),
      tokens: wire.reduce((n, t) => n + encode(JSON.stringify(t)).length, 0),
    });
    const toolset = await ok(s.client, 'get_active_toolset');
    for (const t of toolset.tools) expect(t.context.modelTokens).toBe(seen(wire.find((w) => w.name === t.name)!));
    expect(toolset.meta.context.modelTokens).toBe(out.meta.listedNow.modelTokens);
  });

  test('the lock records each lean listing and reports a change of one', () => {
    const tools = registry.all;
    const lock = buildLock(tools, world.tokens, DEFAULT_CONFIG);
    for (const name of DEFAULT_CONFIG.alwaysTools) {
      const entry = leanListEntry(registry.get(name)!);
      expect(lock.tools[name]!.lean).toMatchObject({ arguments: props(entry), modelTokens: seen(entry) });
      // Every argument stays in the lock's arguments: none is removed by listing it lean.
      expect(Object.keys(lock.tools[name]!.arguments)).toEqual(props(toolListEntry(registry.get(name)!)));
    }
    expect(lock.tools.create_binding!.lean).toBeUndefined();
    const get = registry.get('get_binding')!;
    const wider = tools.map((t) => (t === get ? { ...get, listed: ['id', 'section', 'maxTokens', 'tier'] } : t));
    const changes = diffLock(lock, buildLock(wider, world.tokens, DEFAULT_CONFIG));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ tool: 'get_binding', severity: 'SAFE' });
    expect(changes[0]!.change).toMatch(
      /^lean listing changed: \{id, section, maxTokens\} \d+ model-visible tokens → \{id, tier, section, maxTokens\} \d+/,
    );
  });
});
