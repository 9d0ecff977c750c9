// Issue 9 "Keep": any maxTokens from 50 up answers, whatever the size of the set, batch or page.
// The omitted footer shrinks to what is left of the budget (named lines, then "…and N more", down
// to one count line) and the heading gets shorter when even that does not fit; the full list of
// omitted ids stays in _meta.context.budget.omitted. Every answer is recounted independently.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createBinding } from '../../core/services/bindings';
import { ensureCaller } from '../../core/services/prepare';
import { MAX_SET_ITEMS } from '../../core/services/sets';
import { call, contextOf, createTestWorld, ok, textOf, type TestWorld } from '../helpers';

let world: TestWorld;
let client: Client;
const pool: string[] = [];
const BUDGETS = [50, 51, 55, 60, 75, 90, 100, 120, 150, 200, 300];

beforeAll(async () => {
  world = await createTestWorld();
  client = await world.connect('keeper');
  const deps = { db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() };
  const caller = await ensureCaller(deps, 'keeper');
  for (let i = 0; i < MAX_SET_ITEMS; i++) {
    // Plain cards, long cards in a dense script (near the 300-token card bound) and a few long documents.
    const dense = i % 7 === 3;
    const row = await createBinding(
      deps,
      caller,
      {
        name: dense ? `密集した文書 ${i} ${'書'.repeat(150)}` : `Keep fixture ${i}`,
        content: `# Keep ${i}\n\n${(dense ? '日本語の文章です。' : 'keepword budget footer ').repeat(i % 50 === 0 ? 600 : 5 + (i % 13))}\n`,
        summary: dense ? '要約'.repeat(280) : `Keep fixture ${i}, keepword.`,
        keyPoints: dense ? ['点'.repeat(150)] : [],
      },
      { source: 'human', model: null },
    );
    pool.push(row.bindingId);
  }
}, 120_000);
afterAll(() => world.close());

interface Budget {
  maxTokens: number;
  usedTokens: number;
  included: { id: string }[];
  omitted: { id: string }[];
}

/** Checks one budgeted answer: it exists, fits, counts exactly, and partitions `ids` (in order) or `size` items. */
function expectKept(r: CallToolResult, maxTokens: number, ids: string[] | number): Budget {
  if (r.isError) throw new Error(`maxTokens ${maxTokens} refused: ${textOf(r)}`);
  const text = textOf(r);
  const ctx = contextOf(r);
  expect(ctx.response.tokens).toBeLessThanOrEqual(maxTokens);
  const budget = ctx.budget as Budget;
  expect(budget.usedTokens).toBe(ctx.response.tokens);
  expect((r.structuredContent as { budget: Budget }).budget).toEqual(budget as never);
  const shown = new Set(budget.included.map((i) => i.id));
  if (typeof ids === 'number') {
    expect(new Set([...shown, ...budget.omitted.map((o) => o.id)]).size).toBe(ids);
  } else {
    expect(budget.included.map((i) => i.id)).toEqual(ids.filter((id) => shown.has(id)));
    expect(budget.omitted.map((o) => o.id)).toEqual(ids.filter((id) => !shown.has(id)));
  }
  // The text names no omitted id it does not also list in full in _meta, and says where the rest are.
  if (budget.omitted.length) expect(text).toMatch(/Omitted|omitted/);
  return budget;
}

describe('get_set_context answers every budget from 50 up', () => {
  test.each([40, MAX_SET_ITEMS])('a %d-item set, ordered and fill, tiers 2 and 1', async (n) => {
    const ids = pool.slice(0, n);
    const setId = (await ok(client, 'create_set', { name: `Keep ${n}`, bindingIds: ids })).set.id;
    for (const maxTokens of BUDGETS) {
      for (const strategy of ['ordered', 'fill']) {
        for (const tier of ['2', '1']) expectKept(await call(client, 'get_set_context', { setId, maxTokens, strategy, tier }), maxTokens, ids);
      }
    }
  }, 60_000);

  test('a long name in a dense script and skipped items: the heading and trailer get shorter, never refused', async () => {
    const ids = pool.slice(0, 40);
    const name = '長い名前の集合'.repeat(28);
    const extra = [];
    for (let i = 0; i < 12; i++) extra.push((await ok(client, 'create_binding', { name: `Doomed ${i}`, content: 'gone soon', summary: 'deleted below' })).binding.id);
    const setId = (await ok(client, 'create_set', { name, bindingIds: [...ids, ...extra] })).set.id;
    for (const id of extra) await ok(client, 'delete_binding', { id });
    for (const maxTokens of BUDGETS) expectKept(await call(client, 'get_set_context', { setId, maxTokens, strategy: 'fill' }), maxTokens, ids);
  }, 60_000);
});

describe('batch reads, search and lists answer every budget from 50 up', () => {
  test('get_bindings: 50 ids, some unknown', async () => {
    const unknown = Array.from({ length: 15 }, (_, i) => `bnd_${String(i).padStart(16, '0')}`);
    const ids = [...pool.slice(0, 35), ...unknown];
    for (const maxTokens of BUDGETS) for (const tier of ['1', '2']) expectKept(await call(client, 'get_bindings', { ids, tier, maxTokens }), maxTokens, pool.slice(0, 35));
  }, 60_000);

  test('search_bindings: 50 hits, a 500-character query, more pages after', async () => {
    const query = 'keepword '.repeat(55).trim();
    for (const maxTokens of BUDGETS) {
      const r = await call(client, 'search_bindings', { query, limit: 50, tier: '2', maxTokens });
      expectKept(r, maxTokens, 50);
      expect(contextOf(r).pagination.hasMore).toBe(true);
    }
  }, 60_000);

  test('list_bindings: a page of 100', async () => {
    for (const maxTokens of BUDGETS) {
      expectKept(await call(client, 'list_bindings', { limit: 100, maxTokens }), maxTokens, 100);
    }
  }, 60_000);
});

