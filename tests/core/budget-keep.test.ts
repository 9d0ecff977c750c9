// Any maxTokens from 50 up answers, whatever the size of the set, batch or page.
// The omitted footer shrinks to what is left of the budget (named lines, then "…and N more", down
// to one count line) and the heading gets shorter when even that does not fit; the full list of
// omitted ids stays in _meta.context.budget.omitted. Every answer is recounted independently.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readableBindingsCurrent, type BindingVersionRow } from '../../db/store/bindings.ts';
import type { Tier } from '../../core/budget/tier.ts';
import type { ToolContext } from '../../core/context.ts';
import { createBinding } from '../../core/services/bindings.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { MAX_SET_ITEMS } from '../../core/services/sets.ts';
import { packListing } from '../../core/tools/packed-list.ts';
import { joinPieces, line } from '../../core/tokens/doc.ts';
import { call, contextOf, createTestWorld, ok, textOf, type TestWorld } from '../helpers.ts';
import { count, footerForms } from './footer-oracle.ts';
import { numRuns } from '../property.ts';

let world: TestWorld;
let callerId: string;
let client: Client;
const pool: string[] = [];
const BUDGETS = [50, 51, 55, 60, 75, 90, 100, 120, 150, 200, 300];

beforeAll(async () => {
  world = await createTestWorld({ BINDERY_MAX_RESPONSE_TOKENS: '30000' });
  client = await world.connect('keeper');
  const deps = { db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() };
  const caller = await ensureCaller(deps, 'keeper');
  callerId = caller.id;
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
  test.each([40, MAX_SET_ITEMS])(
    'a %d-item set, ordered and fill, tiers 2 and 1',
    async (n) => {
      const ids = pool.slice(0, n);
      const setId = (await ok(client, 'create_set', { name: `Keep ${n}`, bindingIds: ids })).set.id;
      for (const maxTokens of BUDGETS) {
        for (const strategy of ['ordered', 'fill']) {
          for (const tier of ['2', '1'])
            expectKept(await call(client, 'get_set_context', { setId, maxTokens, strategy, tier }), maxTokens, ids);
        }
      }
    },
    60_000,
  );

  test('a long name in a dense script and skipped items: the heading and trailer get shorter, never refused', async () => {
    const ids = pool.slice(0, 40);
    const name = '長い名前の集合'.repeat(28);
    const extra = [];
    for (let i = 0; i < 12; i++)
      extra.push((await ok(client, 'create_binding', { name: `Doomed ${i}`, content: 'gone soon', summary: 'deleted below' })).binding.id);
    const setId = (await ok(client, 'create_set', { name, bindingIds: [...ids, ...extra] })).set.id;
    for (const id of extra) await ok(client, 'delete_binding', { id });
    for (const maxTokens of BUDGETS)
      expectKept(await call(client, 'get_set_context', { setId, maxTokens, strategy: 'fill' }), maxTokens, ids);
  }, 60_000);
});

describe('batch reads, search and lists answer every budget from 50 up', () => {
  test('get_bindings: 50 ids, some unknown', async () => {
    const unknown = Array.from({ length: 15 }, (_, i) => `bnd_${String(i).padStart(16, '0')}`);
    const ids = [...pool.slice(0, 35), ...unknown];
    for (const maxTokens of BUDGETS)
      for (const tier of ['1', '2']) expectKept(await call(client, 'get_bindings', { ids, tier, maxTokens }), maxTokens, pool.slice(0, 35));
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

// The packer behind every budgeted tool, with more items than a set holds (a set stops at
// MAX_SET_ITEMS): rows drawn with repeats from the pool, recounted with an independent tokenizer.

describe('packListing with up to 1,000 items', () => {
  test('every budget in [50, 30000] answers: within it, exact, included + omitted = all, the footer the richest that fits', async () => {
    const rows = [...(await readableBindingsCurrent(world.db, callerId, pool, false)).values()];
    const ctx = { db: world.db, tokens: world.tokens, config: world.config } as unknown as ToolContext;
    const runArb = fc.record({
      picks: fc.integer({ min: 0, max: 1_000 }).chain((n) => fc.array(fc.nat(rows.length - 1), { minLength: n, maxLength: n })),
      budget: fc.oneof(fc.integer({ min: 50, max: 400 }), fc.integer({ min: 50, max: 3_000 }), fc.integer({ min: 50, max: 30_000 })),
      tier: fc.constantFrom<Tier>('1', '1.5', '2'),
      strategy: fc.constantFrom<'ordered' | 'fill'>('ordered', 'fill'),
      fallback: fc.boolean(),
      title: fc.constantFrom('Short', '題名'.repeat(100)),
    });
    await fc.assert(
      fc.asyncProperty(runArb, async (r) => {
        const picked: BindingVersionRow[] = r.picks.map((i) => ({ ...rows[i]! }));
        const listing = await packListing(
          {
            header: [line(`## ${r.title}: ${picked.length} items within ${r.budget} tokens`)],
            compact: { header: [line(`## ${picked.length} items`)] },
            rows: picked,
            tier: r.tier,
            maxTokens: r.budget,
            strategy: r.strategy,
            fallback: r.fallback,
          },
          ctx,
        );
        const text = listing.pieces.map((p) => p.text).join('');
        const tokens = count(text);
        expect(tokens).toBeLessThanOrEqual(r.budget);
        expect(listing.totalTokens).toBe(tokens);
        expect(joinPieces(listing.pieces, world.tokens).tokens).toBe(tokens);
        const budget = listing.budget!;
        expect(budget.usedTokens).toBe(tokens);
        // Included and omitted are all the rows, in order, exactly as rowTiers says.
        expect(budget.included.map((i) => i.id)).toEqual(picked.filter((_, i) => listing.rowTiers[i]).map((p) => p.bindingId));
        expect(budget.omitted.map((o) => o.id)).toEqual(picked.filter((_, i) => !listing.rowTiers[i]).map((p) => p.bindingId));
        const forms = footerForms(budget.omitted, r.tier);
        const footer = forms.find((f) => text.endsWith(f));
        expect(footer).toBeDefined();
        expect(footer).toBe(forms.find((f) => tokens - count(footer!) + count(f) <= r.budget));
      }),
      { numRuns: numRuns(40) },
    );
  }, 120_000);
});
