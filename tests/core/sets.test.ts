// Sets end to end over the SDK client: items, pins, totals that follow binding updates, edits and
// their bad input (nothing written), deleted items, get_set_context strategies and fallback, and the
// batch and budget paths of get_bindings, search_bindings and list_bindings.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, contextOf, createTestWorld, err, ok, sampleBinding, textOf, type TestWorld } from '../helpers.ts';

let world: TestWorld;
let alice: Client;

beforeAll(async () => {
  world = await createTestWorld();
  alice = await world.connect('alice');
});
afterAll(() => world.close());

async function makeBindings(client: Client, n: number, words = 20, prefix = 'note'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const content = `# ${prefix} ${i}\n\n${Array.from({ length: words }, (_, k) => `word${(i * 31 + k) % 97}`).join(' ')}\n`;
    ids.push((await ok(client, 'create_binding', { ...sampleBinding(i), name: `${prefix} ${i}`, content })).binding.id);
  }
  return ids;
}

const itemIds = (g: { items: { id: string }[] }): (string | undefined)[] => g.items.map((i) => i.id);
const revision = async (id: string) => Number((await world.db.get<{ r: number }>(sql`SELECT revision AS r FROM sets WHERE id = ${id}`))!.r);

describe('sets: items, pins and totals', () => {
  test('create_set keeps order; get_set shows positions, tier costs and a totalTokenCount that follows updates', async () => {
    const ids = await makeBindings(alice, 3);
    const created = await ok(alice, 'create_set', { name: 'Reading list', bindingIds: ids, description: 'for the review' });
    const g1 = await ok(alice, 'get_set', { id: created.set.id });
    expect(itemIds(g1)).toEqual(ids);
    expect(g1.items.map((i: { position: number }) => i.position)).toEqual([0, 1, 2]);
    const sum = g1.items.reduce((n: number, i: { contentTokenCount: number }) => n + i.contentTokenCount, 0);
    expect(g1.set.totalTokenCount).toBe(sum);
    expect(g1.set.itemCount).toBe(3);
    expect(textOf(g1._result)).toContain(`#2 ${ids[2]}`);

    // Pin item 0 to v1, then update both 0 and 1: the pinned one keeps v1, the other follows.
    await ok(alice, 'edit_set_items', { id: created.set.id, remove: [ids[0]], add: [{ bindingId: ids[0], position: 0, version: 1 }] });
    const longer = `# grown\n\n${'more words here '.repeat(200)}\n`;
    await ok(alice, 'update_binding', { id: ids[0], content: longer });
    const updated = await ok(alice, 'update_binding', { id: ids[1], content: longer });
    const g2 = await ok(alice, 'get_set', { id: created.set.id });
    expect(g2.items[0]).toMatchObject({ id: ids[0], version: 1, pinned: true });
    expect(g2.items[1]).toMatchObject({ id: ids[1], version: 2, pinned: false });
    expect(g2.set.totalTokenCount).toBe(g1.set.totalTokenCount - g1.items[1].contentTokenCount + updated.binding.contentTokenCount);
    // list_sets reports the same live total.
    const listed = await ok(alice, 'list_sets', {});
    expect(listed.sets.find((s: { id: string }) => s.id === created.set.id)).toMatchObject({
      totalTokenCount: g2.set.totalTokenCount,
      itemCount: 3,
      tierTokens: g2.set.tierTokens,
    });
    // get_set_context shows the pinned version's text, not the latest.
    const ctx = await ok(alice, 'get_set_context', { setId: created.set.id, maxTokens: 5000, tier: '2' });
    expect(ctx.items[0]).toMatchObject({ id: ids[0], version: 1, pinned: true, tier: '2' });
    expect(ctx.items[0].content).not.toContain('more words here');
    expect(ctx.items[1].content).toContain('more words here');
  });

  test('edit_set_items applies remove, add at a position, then move, atomically', async () => {
    const ids = await makeBindings(alice, 5);
    const { set } = await ok(alice, 'create_set', { name: 'Edits', bindingIds: ids.slice(0, 3) });
    const edited = await ok(alice, 'edit_set_items', {
      id: set.id,
      remove: [ids[1]],
      add: [{ bindingId: ids[3], position: 0 }, { bindingId: ids[4] }],
      move: [{ bindingId: ids[0], position: 3 }],
    });
    expect(edited).toMatchObject({ added: 2, removed: 1, moved: 1 });
    expect(itemIds(await ok(alice, 'get_set', { id: set.id }))).toEqual([ids[3], ids[2], ids[4], ids[0]]);
    expect(await revision(set.id)).toBe(1);
  });

  test('bad edits are clear errors and write nothing', async () => {
    const ids = await makeBindings(alice, 4);
    const { set } = await ok(alice, 'create_set', { name: 'Guarded', bindingIds: ids.slice(0, 3) });
    const before = itemIds(await ok(alice, 'get_set', { id: set.id }));
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ move: [{ bindingId: ids[0], position: 3 }] }, /move\.0\.position: 3 is past the end.*positions 0 to 2/],
      [{ add: [{ bindingId: ids[3], position: 9 }] }, /add\.0\.position: 9 is past the end.*positions 0 to 3/],
      [{ add: [{ bindingId: ids[1] }] }, /add\.0\.bindingId: .* is already in the set \(position 1\)/],
      [{ add: [{ bindingId: ids[3] }, { bindingId: ids[3] }] }, /add\.1\.bindingId: .* already in the set/],
      [{ remove: [ids[3]] }, /remove\.0: .* is not in the set/],
      [{ add: [{ bindingId: ids[3], version: 7 }] }, /add\.0\.version: binding .* has versions 1 to 1; 7 does not exist/],
      [{ add: [{ bindingId: 'bnd_0000000000000000' }] }, /add\.0\.bindingId: binding bnd_0000000000000000 was not found/],
      [{ move: [{ bindingId: ids[0], position: -1 }] }, /move\.0\.position: must be 0 or more/],
      [{}, /give at least one of add, remove, move/],
      // A valid first step followed by an invalid one: still nothing written.
      [{ remove: [ids[0]], move: [{ bindingId: ids[1], position: 2 }] }, /move\.0\.position: 2 is past the end/],
    ];
    for (const [edit, pattern] of cases) {
      const text = await err(alice, 'edit_set_items', { id: set.id, ...edit });
      expect(text).toMatch(pattern);
    }
    expect(itemIds(await ok(alice, 'get_set', { id: set.id }))).toEqual(before);
    expect(await revision(set.id)).toBe(0);
  });

  test('duplicates and a set of 1,000 items are refused at creation', async () => {
    const ids = await makeBindings(alice, 2);
    expect(await err(alice, 'create_set', { name: 'dup', bindingIds: [ids[0], ids[1], ids[0]] })).toMatch(
      /bindingIds\.2: .* is listed twice/,
    );
    const thousand = Array.from({ length: 1000 }, (_, i) => `bnd_${i.toString(32).padStart(16, '0')}`);
    expect(await err(alice, 'create_set', { name: 'huge', bindingIds: thousand })).toMatch(/bindingIds: must list at most 500 ids/);
    const { set } = await ok(alice, 'create_set', { name: 'grow' });
    expect(await err(alice, 'edit_set_items', { id: set.id, add: thousand.map((bindingId) => ({ bindingId })) })).toMatch(
      /add: must list at most 500/,
    );
    const count = await world.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM sets WHERE name IN ('dup', 'huge')`);
    expect(Number(count!.n)).toBe(0);
  });

  test('concurrent edits are never lost (revision guard)', async () => {
    const ids = await makeBindings(alice, 12);
    const { set } = await ok(alice, 'create_set', { name: 'Race' });
    const results = await Promise.all(ids.map((bindingId) => call(alice, 'edit_set_items', { id: set.id, add: [{ bindingId }] })));
    expect(results.filter((r) => r.isError)).toHaveLength(0);
    const g = await ok(alice, 'get_set', { id: set.id });
    expect(new Set(itemIds(g))).toEqual(new Set(ids));
    expect(await revision(set.id)).toBe(12);
  });

  test('a deleted binding is skipped and reported, never a crash', async () => {
    const ids = await makeBindings(alice, 3);
    const { set } = await ok(alice, 'create_set', { name: 'With a hole', bindingIds: ids });
    const before = await ok(alice, 'get_set', { id: set.id });
    await ok(alice, 'delete_binding', { id: ids[1] });
    const g = await ok(alice, 'get_set', { id: set.id });
    expect(itemIds(g)).toEqual([ids[0], ids[2]]);
    expect(g.skipped).toEqual([{ position: 1, id: ids[1], reason: 'deleted' }]);
    expect(g.set.totalTokenCount).toBe(before.set.totalTokenCount - before.items[1].contentTokenCount);
    expect(textOf(g._result)).toContain(`Skipped: #1 ${ids[1]} (deleted)`);
    const ctx = await ok(alice, 'get_set_context', { setId: set.id, maxTokens: 3000 });
    expect(ctx.items.map((i: { id: string }) => i.id)).toEqual([ids[0], ids[2]]);
    expect(ctx.skipped).toEqual([{ position: 1, id: ids[1], reason: 'deleted' }]);
    expect(textOf(ctx._result)).toContain(`${ids[1]} (deleted)`);
    // The owner can drop it.
    await ok(alice, 'edit_set_items', { id: set.id, remove: [ids[1]] });
    expect((await ok(alice, 'get_set', { id: set.id })).skipped).toEqual([]);
  });

  test('update_set, delete_set, list_sets', async () => {
    const { set } = await ok(alice, 'create_set', { name: 'Old name' });
    const u = await ok(alice, 'update_set', { id: set.id, name: 'New name', description: 'd' });
    expect(u.set).toMatchObject({ name: 'New name', description: 'd' });
    expect(await err(alice, 'update_set', { id: set.id })).toMatch(/give name or description/);
    await ok(alice, 'delete_set', { id: set.id });
    const missing = await err(alice, 'get_set', { id: set.id });
    expect(missing).toBe((await err(alice, 'get_set', { id: 'set_0000000000000000' })).replace('set_0000000000000000', set.id));
    expect((await ok(alice, 'list_sets', {})).sets.map((s: { id: string }) => s.id)).not.toContain(set.id);
    expect(await err(alice, 'delete_set', { id: set.id })).toMatch(/NOT_FOUND/);
  });
});

describe('get_set_context', () => {
  let setId: string;
  let ids: string[];
  beforeAll(async () => {
    // A small item, a huge one, then small ones: ordered stops at the huge one, fill goes around it.
    ids = [];
    ids.push(...(await makeBindings(alice, 1, 30, 'lead')));
    ids.push(...(await makeBindings(alice, 1, 4000, 'huge')));
    ids.push(...(await makeBindings(alice, 4, 30, 'tail')));
    setId = (await ok(alice, 'create_set', { name: 'Budgeted', bindingIds: ids })).set.id;
  });

  test('bad budgets are input errors naming the field', async () => {
    for (const maxTokens of [0, -5, 1.5])
      expect(await err(alice, 'get_set_context', { setId, maxTokens })).toMatch(/^Error INVALID_INPUT: maxTokens: /);
    expect(await err(alice, 'get_set_context', { setId, maxTokens: 49 })).toMatch(/maxTokens: must be at least 50/);
    expect(await err(alice, 'get_set_context', { setId, maxTokens: 25_001 })).toMatch(/maxTokens: is 25001 but must be at most 25000/);
    // The smallest budget answers: a short heading and one line counting what was left out.
    const smallest = await ok(alice, 'get_set_context', { setId, maxTokens: 50 });
    expect(textOf(smallest._result)).toBe(`## Set ${setId}: 6 items\nOmitted: 6 items over budget; ids in _meta.context.budget.omitted.\n`);
    expect(smallest.budget.omitted.map((o: { id: string }) => o.id)).toEqual(ids);
    expect(await err(alice, 'get_set_context', { setId })).toMatch(/maxTokens: is required/);
    expect(await err(alice, 'get_set_context', { setId, maxTokens: 1000, strategy: 'best' })).toMatch(
      /strategy: must be "ordered" or "fill"/,
    );
  });

  test('ordered stops at the first item that fits at no tier; fill goes on; tiers are reported per item', async () => {
    const costs = (await ok(alice, 'get_set', { id: setId })).items.map((i: { tierTokens: Record<string, number> }) => i.tierTokens);
    const huge = costs[1];
    // Room for every small item in full and the framing, far from enough for the huge one at tier 2.
    const budget = costs.reduce((n: number, c: Record<string, number>, i: number) => (i === 1 ? n : n + c['2']!), 0) + 250;
    expect(huge['2']).toBeGreaterThan(budget);
    const noFallback = await ok(alice, 'get_set_context', { setId, maxTokens: budget, tier: '2', fallback: false });
    expect(noFallback.budget.included.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    expect(noFallback.budget.omitted[0].id).toBe(ids[1]);
    expect(textOf(noFallback._result)).toContain(`- ${ids[1]} · ${huge['2']} tokens at tier 2`);

    const fill = await ok(alice, 'get_set_context', { setId, maxTokens: budget, tier: '2', strategy: 'fill', fallback: false });
    expect(fill.budget.included.map((i: { id: string }) => i.id)).toEqual([ids[0], ...ids.slice(2)]);
    expect(fill.budget.omitted.map((o: { id: string }) => o.id)).toEqual([ids[1]]);

    const fallback = await ok(alice, 'get_set_context', { setId, maxTokens: costs[0]['2'] + huge['1.5'] + 300, tier: '2' });
    const tiers = new Map<string | undefined, string>(fallback.budget.included.map((i: { id: string; tier: string }) => [i.id, i.tier]));
    expect(tiers.get(ids[0])).toBe('2');
    expect(['1.5', '1']).toContain(tiers.get(ids[1])!);
    expect(fallback.items[1]).toMatchObject({ id: ids[1], position: 1, tier: tiers.get(ids[1]) });
    expect(fallback.items[1].content).toBeUndefined();
    for (const r of [noFallback, fill, fallback]) expect(contextOf(r._result).response.tokens).toBeLessThanOrEqual(r.budget.maxTokens);
  });

  test('packing reads stored counts: only framing is tokenized, tier-2 content is not', async () => {
    const before = { ...world.tokens.stats };
    const r = await ok(alice, 'get_set_context', { setId, maxTokens: 20_000, tier: '2' });
    const chars = world.tokens.stats.chars - before.chars;
    const contentChars = r.items.reduce((n: number, i: { content?: string }) => n + (i.content?.length ?? 0), 0);
    expect(contentChars).toBeGreaterThan(10_000);
    // Framing (heading, footer lines) is a few hundred characters; the content is never recounted.
    expect(chars).toBeLessThan(600);
  });

  test('a missing set and an empty set', async () => {
    const missing = await err(alice, 'get_set_context', { setId: 'set_0000000000000000', maxTokens: 500 });
    expect(missing).toMatch(/NOT_FOUND: id: set set_0000000000000000 was not found/);
    const { set } = await ok(alice, 'create_set', { name: 'Empty' });
    const r = await ok(alice, 'get_set_context', { setId: set.id, maxTokens: 100 });
    expect(r.items).toEqual([]);
    expect(r.budget).toMatchObject({ exhausted: false, included: [], omitted: [] });
    expect(textOf(r._result)).toContain('The set has no readable items.');
  });
});

describe('budgets on batch reads, search and lists', () => {
  let ids: string[];
  beforeAll(async () => {
    ids = await makeBindings(alice, 8, 600, 'budgetdoc');
  });

  test('get_bindings reports unknown ids per id and packs under maxTokens', async () => {
    const unknown = 'bnd_0000000000000000';
    const r = await ok(alice, 'get_bindings', { ids: [ids[0], unknown, ids[1]], tier: '2' });
    expect(r.results.map((b: { id: string }) => b.id)).toEqual([ids[0], ids[1]]);
    expect(r.notFound).toEqual([unknown]);
    expect(textOf(r._result)).toContain(`Not found (missing, deleted or not yours to read): ${unknown}`);
    const packed = await ok(alice, 'get_bindings', { ids, tier: '2', maxTokens: 2500 });
    expect(contextOf(packed._result).response.tokens).toBeLessThanOrEqual(2500);
    expect(packed.budget.exhausted).toBe(true);
    expect(packed.budget.included.length + packed.budget.omitted.length).toBe(ids.length);
    // Tier-2 content is present only for items shown at tier 2.
    for (const b of packed.results) expect(b.content !== undefined).toBe(b.tier === '2');
  });

  test('search_bindings and list_bindings pack in rank order under maxTokens; the best hit that fits is in', async () => {
    const s = await ok(alice, 'search_bindings', { query: 'budgetdoc', tier: '2', limit: 8, maxTokens: 1500 });
    expect(contextOf(s._result).response.tokens).toBeLessThanOrEqual(1500);
    expect(s.budget.included.length).toBeGreaterThan(0);
    const unbudgeted = await ok(alice, 'search_bindings', { query: 'budgetdoc', tier: '1', limit: 8 });
    const rank = unbudgeted.results.map((b: { id: string }) => b.id);
    expect(rank[0]).toBe(s.budget.included[0].id);
    const l = await ok(alice, 'list_bindings', { tier: '1.5', limit: 20, maxTokens: 800 });
    expect(contextOf(l._result).response.tokens).toBeLessThanOrEqual(800);
    expect(l.budget.omitted.length).toBeGreaterThan(0);
    expect(await err(alice, 'list_bindings', { maxTokens: 10 })).toMatch(/maxTokens: is 10 but must be at least 50/);
    expect(await err(alice, 'search_bindings', { query: 'x', maxTokens: 30_000 })).toMatch(/must be at most 25000/);
  });
});
