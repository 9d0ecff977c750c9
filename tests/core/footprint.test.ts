// Context measurement and token economics: list_available_tools / get_active_toolset against an
// independent recount of the real tools/list payload, static risk classification, runtime profiling.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { createBinderyServer, createRegistry, defineTool, type ToolMode } from '../../core/index.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { classifyRisk, staticProfile, summarizeProfiles } from '../../core/footprint/profile.ts';
import { quantile, RuntimeProfiler } from '../../core/footprint/runtime.ts';
import { definitionCost } from '../../core/footprint/definition.ts';
import { scoreTools } from '../../core/footprint/search.ts';
import { line } from '../../core/tokens/doc.ts';
import { createTestWorld, ok, sampleBinding, wireToolLists, type TestWorld } from '../helpers.ts';

const registry = createRegistry();
/** Token count by a second, independent o200k implementation (gpt-tokenizer, not js-tiktoken). */
const recount = (entry: unknown) => encode(JSON.stringify(entry)).length;

let world: TestWorld;
beforeAll(async () => {
  world = await createTestWorld();
});
afterAll(() => world.close());

/** A session whose raw tools/list results are captured from the wire, before the SDK parses them. */
async function session(mode: ToolMode, profiler = new RuntimeProfiler()) {
  const deps = { db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() };
  const caller = await ensureCaller(deps, 'local');
  const server = createBinderyServer(deps, { caller, mode, profiler });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'footprint-tests', version: '1' });
  await client.connect(clientSide);
  const wireTools = wireToolLists(client, clientSide).listed;
  return { client, wireTools, profiler };
}

describe('list_available_tools', () => {
  test('totals equal the sum of tools and match an independent recount of the real tools/list payload', async () => {
    const s = await session('eager');
    const wire = await s.wireTools();
    const out = await ok(s.client, 'list_available_tools');
    const tools = out.categories.flatMap((c: any) => c.tools);
    expect(tools.map((t: any) => t.name).sort()).toEqual(wire.map((t) => t.name).sort());
    const byName = new Map(wire.map((t) => [t.name, t]));
    for (const t of tools) expect(t.context.tokens).toBe(recount(byName.get(t.name)));
    const sum = tools.reduce((n: number, t: any) => n + t.context.tokens, 0);
    expect(out.meta.totalPossibleContext).toEqual({ modelTokens: expect.any(Number), tokens: sum, percentTotal: null });
    // Model-visible: what clients put in the model's context (name, description, input schema), counted independently.
    const seen = (t: { name: string; description?: string; inputSchema: unknown }) =>
      encode(JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema })).length;
    for (const t of tools) expect(t.context.modelTokens).toBe(seen(byName.get(t.name)!));
    expect(out.meta.totalPossibleContext.modelTokens).toBe(wire.reduce((n, t) => n + seen(t), 0));
    expect(out.meta.totalPossibleContext.modelTokens).toBeLessThan(sum / 2);
    expect(sum).toBe(wire.reduce((n, t) => n + recount(t), 0));
    for (const c of out.categories) {
      expect(c.context.tokens).toBe(c.tools.reduce((n: number, t: any) => n + t.context.tokens, 0));
      for (const t of c.tools) expect(registry.get(t.name)!.category).toBe(c.category);
    }
    const percents = tools.reduce((n: number, t: any) => n + t.context.percentTotal, 0);
    expect(Math.abs(percents - 100)).toBeLessThan(0.1);
    expect(out.meta.modes.eager).toBe(sum);
    expect(out.meta.listedNow).toEqual({ tools: wire.length, modelTokens: out.meta.totalPossibleContext.modelTokens, tokens: sum });
  });

  test('carries static profiles and observed runtime figures', async () => {
    const s = await session('eager');
    const created = await ok(s.client, 'create_binding', sampleBinding(1));
    const sizes: number[] = [];
    for (const tier of ['1', '1.5', '2']) {
      const r = await ok(s.client, 'get_binding', { id: created.binding.id, tier });
      sizes.push((r._result._meta as any).context.response.tokens);
    }
    await s.client.callTool({ name: 'get_binding', arguments: { id: 'bad' } });
    const out = await ok(s.client, 'list_available_tools', { category: 'binding' });
    expect(out.categories.map((c: any) => c.category)).toEqual(['binding']);
    const get = out.categories[0].tools.find((t: any) => t.name === 'get_binding');
    expect(get.profile).toMatchObject({ bound: 'tokens', bounded: true, worstCaseTokens: 25_000, risk: 'critical' });
    expect(get.profile.recommendations.join(' ')).toContain('tier');
    expect(get.runtime.count).toBe(4);
    expect(get.runtime.errors).toBe(1);
    expect(get.runtime.max).toBe(Math.max(...sizes));
    expect(get.runtime.dataTokens).toBeGreaterThan(0);
    expect(get.runtime.overheadTokens).toBeGreaterThan(0);
    expect(get.runtime.overheadRatio).toBeGreaterThan(0);
    expect(get.runtime.overheadRatio).toBeLessThan(1);
    const del = out.categories[0].tools.find((t: any) => t.name === 'delete_binding');
    expect(del.profile).toMatchObject({ bounded: true, risk: 'low' });
    expect(del.runtime).toBeNull();
    expect(out.meta.summary.overallRisk).toBe('critical');
    expect(out.meta.summary.criticalTools).toContain('get_binding');
    expect(out.meta.runtime.calls).toBe(5);
    // The totals stay over all tools even when one category is shown.
    expect(out.meta.totalPossibleContext.tokens).toBeGreaterThan(out.categories[0].context.tokens);
  });
});

describe('get_active_toolset', () => {
  test('lists the tools visible now with their context, summed in meta.context', async () => {
    const s = await session('lazy');
    await ok(s.client, 'list_versions', { id: 'bnd_0123456789abcdef' }).catch(() => undefined); // enables it
    const wire = await s.wireTools();
    const out = await ok(s.client, 'get_active_toolset');
    expect(out.mode).toBe('lazy');
    // get_active_toolset itself was enabled by this call, after the listing above.
    const names = out.tools.map((t: any) => t.name);
    expect(names.filter((n: string) => n !== 'get_active_toolset')).toEqual(wire.map((t) => t.name));
    expect(names).toContain('list_versions');
    const byName = new Map(wire.map((t) => [t.name, t]));
    for (const t of out.tools) if (byName.has(t.name)) expect(t.context.tokens).toBe(recount(byName.get(t.name)));
    const sum = out.tools.reduce((n: number, t: any) => n + t.context.tokens, 0);
    expect(out.meta.context.tokens).toBe(sum);
    expect(out.meta.context.percentTotal).toBeLessThan(50);
    expect((out._result._meta as any).context.toolset).toEqual(out.meta.context);
  });

  test('proxy mode: the proxy tools and their cost', async () => {
    const s = await session('proxy');
    const wire = await s.wireTools();
    const out = await ok(s.client, 'get_active_toolset');
    expect(out.tools.map((t: any) => t.name)).toEqual(wire.map((t) => t.name));
    expect(out.meta.context.tokens).toBe(wire.reduce((n, t) => n + recount(t), 0));
  });
});

describe('definition measurement', () => {
  test('counts are cached per definition: a second pass runs no tokenizer', () => {
    const tool = registry.get('search_bindings')!;
    const first = definitionCost(tool, world.tokens);
    const calls = world.tokens.stats.calls;
    const again = definitionCost(tool, world.tokens);
    expect(again).toEqual(first);
    expect(world.tokens.stats.calls).toBe(calls);
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

const fake = (name: string, bound: any, description = 'A test tool.') =>
  defineTool({
    name,
    title: name,
    category: 'utility',
    description,
    input: z.strictObject({ q: z.string().optional() }),
    output: z.object({}),
    bound,
    async handler() {
      return { pieces: [line('x')], data: {} };
    },
  });

describe('static profile', () => {
  const config = { riskThresholds: { low: 1000, medium: 4000, high: 8000 }, maxResponseTokens: 25_000 };

  test('risk tiers: low ≤ 1,000 < medium ≤ 4,000 < high ≤ 8,000 < critical; thresholds configurable', () => {
    const t = config.riskThresholds;
    expect([0, 1000, 1001, 4000, 4001, 8000, 8001].map((n) => classifyRisk(n, t))).toEqual([
      'low',
      'low',
      'medium',
      'medium',
      'high',
      'high',
      'critical',
    ]);
    expect(classifyRisk(600, { low: 500, medium: 2000, high: 5000 })).toBe('medium');
  });

  test('the declared bound decides bounded, worst case and risk', () => {
    const small = staticProfile(fake('small', { kind: 'tokens', maxTokens: 450 }), config);
    expect(small).toMatchObject({ bounded: true, worstCaseTokens: 450, risk: 'low', recommendations: [] });
    const list = staticProfile(fake('list', { kind: 'items', maxItems: 20, itemTokens: 150 }), config);
    expect(list).toMatchObject({ bounded: true, worstCaseTokens: 3100, risk: 'medium' });
    const big = staticProfile(fake('big', { kind: 'items', maxItems: 50, itemTokens: 400 }), config);
    expect(big).toMatchObject({ bounded: true, worstCaseTokens: 20_100, risk: 'critical' });
    expect(big.recommendations.join(' ')).toContain('maxItems');
    const open = staticProfile(fake('open', { kind: 'unbounded' }), config);
    expect(open).toMatchObject({ bounded: false, worstCaseTokens: 25_000, risk: 'critical' });
    expect(open.recommendations[0]).toContain('declare a response bound');
    const strict = staticProfile(fake('small', { kind: 'tokens', maxTokens: 450 }), {
      ...config,
      riskThresholds: { low: 100, medium: 400, high: 800 },
    });
    expect(strict.risk).toBe('high');
  });

  test('the server summary names the worst risk and the tools to look at, critical first', () => {
    const profiles = [
      staticProfile(fake('small', { kind: 'tokens', maxTokens: 450 }), config),
      staticProfile(fake('open', { kind: 'unbounded' }), config),
      staticProfile(fake('mid', { kind: 'items', maxItems: 20, itemTokens: 300 }), config),
    ];
    const s = summarizeProfiles(profiles);
    expect(s).toMatchObject({ overallRisk: 'critical', toolCount: 3, unboundedTools: ['open'], criticalTools: ['open'] });
    expect(s.byRisk).toEqual({ low: 1, medium: 0, high: 1, critical: 1 });
    expect(s.recommendations[0]).toStartWith('[open]');
    expect(summarizeProfiles([profiles[0]!]).overallRisk).toBe('low');
  });

  test('every registered tool declares a bound and gets a profile', () => {
    for (const tool of registry.all) {
      const p = staticProfile(tool, config);
      expect(p.worstCaseTokens).toBeGreaterThan(0);
      expect(p.worstCaseTokens).toBeLessThanOrEqual(25_000);
    }
  });
});

describe('runtime profiler', () => {
  test('count, p50, p95, max, data vs overhead and overhead ratio', () => {
    const p = new RuntimeProfiler();
    for (let i = 1; i <= 100; i++) p.observe('t', { tokens: i * 10, dataTokens: i * 8, isError: false, ms: 1 });
    p.observe('t', { tokens: 50, dataTokens: 0, isError: true, ms: 1 });
    const f = p.figures('t', { low: 1000, medium: 4000, high: 8000 })!;
    expect(f.count).toBe(101);
    expect(f.errors).toBe(1);
    expect(f.max).toBe(1000);
    expect(f.p50).toBe(500);
    expect(f.p95).toBe(950);
    expect(f.dataTokens).toBe(40_400);
    expect(f.overheadTokens).toBe(10_100 + 50);
    expect(f.overheadRatio).toBeCloseTo(10_150 / 50_550, 3);
    expect(f.observedRisk).toBe('low');
    expect(p.figures('never', { low: 1, medium: 2, high: 3 })).toBeNull();
    expect(p.summary({ low: 1000, medium: 4000, high: 8000 })).toMatchObject({ calls: 101, maxTokens: 1000 });
    expect(quantile([], 0.5)).toBe(0);
  });
});

describe('search scoring', () => {
  test('aliases find the right tool', () => {
    const cases: [string, string][] = [
      ['bug note', 'create_binding'],
      ['remember this', 'create_binding'],
      ['get_version', 'get_version'],
      ['delete binding', 'delete_binding'],
      ['edit a note', 'update_binding'],
      ['old version of a document', 'get_version'],
      ['read several bindings at once', 'get_bindings'],
      ['what tools are loaded', 'get_active_toolset'],
      ['token cost of every tool', 'list_available_tools'],
      // Tools of the other categories, checked once they are registered.
      ['set context budget', 'get_set_context'],
      ['add a binding to a set', 'edit_set_items'],
      ['share a binding with a colleague', 'create_share'],
      ['stop sharing', 'revoke_share'],
      ['comment on a binding', 'add_comment'],
      ['make a new team space', 'create_space'],
      ['who am I', 'whoami'],
      ['how does bindery work', 'help'],
    ];
    const real = registry.all.filter((t) => t.category !== 'proxy');
    for (const [q, tool] of cases.filter(([, t]) => registry.get(t))) {
      expect(`${q} → ${scoreTools(q, real)[0]?.tool.name}`).toBe(`${q} → ${tool}`);
    }
  });

  test('exact name > word in name > word in description or aliases > category', () => {
    const tools = [
      fake('other_thing', { kind: 'unbounded' }, 'Mentions zebra in its description.'),
      fake('zebra_tool', { kind: 'unbounded' }),
      fake('zebra', { kind: 'unbounded' }),
      { ...fake('cat_only', { kind: 'unbounded' }), category: 'set' as const },
    ];
    expect(scoreTools('zebra', tools).map((m) => m.tool.name)).toEqual(['zebra', 'zebra_tool', 'other_thing']);
    expect(scoreTools('sets', tools).map((m) => m.tool.name)).toEqual(['cat_only']);
    expect(scoreTools('nothing matches here', tools)).toEqual([]);
  });
});
