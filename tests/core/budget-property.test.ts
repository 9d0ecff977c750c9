// Property tests of the budget guarantee. The pure packer runs thousands of random cases against an
// independent cost model; a smaller number of end-to-end runs pack real sets through get_set_context
// and recount the returned text with js-tiktoken.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { pack, type FooterCosts, type PackInput } from '../../core/budget/pack.ts';
import { FALLBACK_ORDER, type Tier } from '../../core/budget/tier.ts';
import { createBinding } from '../../core/services/bindings.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { call, contextOf, createTestWorld, textOf, type TestWorld } from '../helpers.ts';
import { count, countLine, footerForms } from './footer-oracle.ts';
import { numRuns } from '../property.ts';

type Chosen = (Tier | null)[];

/** The footer written again from the issue: the most named lines (≤ 10) that fit, else one count line. */
function modelFooter(input: PackInput, omitted: number[], room: number): { named: number; tokens: number } {
  const f = input.footer;
  const m = omitted.length;
  if (m === 0) return { named: 0, tokens: 0 };
  for (let k = Math.min(m, f.maxLines); k >= 1; k--) {
    const t = f.baseTokens + omitted.slice(0, k).reduce((n, i) => n + f.lineTokens(i), 0) + (k < m ? f.moreTokens(m - k) : 0);
    if (t <= room) return { named: k, tokens: t };
  }
  return { named: 0, tokens: f.countTokens(m) };
}

/** Header and items at their tiers, and the tokens an answer needs at least: that plus the count line. */
function modelParts(input: PackInput, chosen: Chosen) {
  let items = input.headerTokens;
  const omitted: number[] = [];
  chosen.forEach((t, i) => (t === null ? omitted.push(i) : (items += input.items[i]!.costs[t])));
  return { items, omitted, least: items + (omitted.length ? input.footer.countTokens(omitted.length) : 0) };
}

/** The cost model: header + items + the footer that fits what they leave. */
function modelTotal(input: PackInput, chosen: Chosen): number {
  const { items, omitted } = modelParts(input, chosen);
  return items + modelFooter(input, omitted, input.budget - items).tokens;
}

const itemArb = fc
  .record({
    c0: fc.integer({ min: 8, max: 60 }),
    c1: fc.integer({ min: 20, max: 400 }),
    preview: fc.integer({ min: 0, max: 300 }),
    content: fc.integer({ min: 0, max: 9000 }),
    line: fc.integer({ min: 8, max: 22 }),
  })
  .map(({ c0, c1, preview, content, line }) => ({
    costs: { '0': c0, '1': c1, '1.5': c1 + preview, '2': c1 + content } as Record<Tier, number>,
    line,
  }));

const caseArb = fc.record({
  // Lengths uniform over 0–1,000 (fast-check's default sizing would keep arrays short).
  items: fc.integer({ min: 0, max: 1_000 }).chain((n) => fc.array(itemArb, { minLength: n, maxLength: n })),
  header: fc.integer({ min: 5, max: 60 }),
  base: fc.integer({ min: 5, max: 15 }),
  more: fc.integer({ min: 10, max: 20 }),
  count: fc.integer({ min: 8, max: 20 }),
  budget: fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 30_000 })),
  tier: fc.constantFrom<Tier>('0', '1', '1.5', '2'),
  strategy: fc.constantFrom<'ordered' | 'fill'>('ordered', 'fill'),
  fallback: fc.boolean(),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function toInput(c: Case): PackInput {
  const footer: FooterCosts = {
    baseTokens: c.base,
    maxLines: 10,
    lineTokens: (i) => c.items[i]!.line,
    // Longer counts can cost a token more; the packer must not assume the lines are constant.
    moreTokens: (m) => c.more + (m > 99 ? 1 : 0),
    countTokens: (m) => c.count + (m > 99 ? 1 : 0) + (m === 1 ? -1 : 0),
  };
  return {
    budget: c.budget,
    headerTokens: c.header,
    footer,
    items: c.items.map((it) => ({ costs: it.costs })),
    tier: c.tier,
    strategy: c.strategy,
    fallback: c.fallback,
  };
}

describe('pack (pure) under random sets, budgets, strategies, tiers and fallback', () => {
  test('never passes the budget; ordered is the longest greedy prefix; fill leaves nothing that would fit', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const input = toInput(c);
        const allowed = c.fallback ? FALLBACK_ORDER[c.tier] : [c.tier];
        const result = pack(input);
        const none: Chosen = c.items.map(() => null);
        if (!result.fits) {
          expect(modelParts(input, none).least).toBeGreaterThan(c.budget);
          expect(result.chosen.every((t) => t === null)).toBe(true);
          return;
        }
        const total = modelTotal(input, result.chosen);
        expect(total).toBe(result.totalTokens);
        expect(total).toBeLessThanOrEqual(c.budget);
        for (const t of result.chosen) if (t !== null) expect(allowed).toContain(t);
        // The footer is the richest that fits what the items left.
        const { items: itemsTokens, omitted } = modelParts(input, result.chosen);
        expect(result.footer).toEqual(modelFooter(input, omitted, c.budget - itemsTokens));
        // An item fits when the answer with it still holds the one-line count of the rest (sums kept
        // incrementally: a recount per probe would make a 1,000-item case quadratic).
        const least = (sum: number, left: number) => sum + (left ? input.footer.countTokens(left) : 0);
        const n = c.items.length;
        const fitsWith = (i: number, t: Tier) => least(itemsTokens + c.items[i]!.costs[t], omitted.length - 1) <= c.budget;

        if (c.strategy === 'ordered') {
          const k = result.chosen.indexOf(null);
          const end = k === -1 ? n : k;
          // A prefix: nothing after the first omitted item.
          expect(result.chosen.slice(end).every((t) => t === null)).toBe(true);
          // The next item would not have fit at any allowed tier.
          if (k !== -1) for (const t of allowed) expect(fitsWith(k, t)).toBe(false);
          // Each item got the best allowed tier that fit given the ones before it.
          let before = c.header;
          for (let i = 0; i < end; i++) {
            const better = allowed.slice(0, allowed.indexOf(result.chosen[i]!));
            for (const t of better) expect(least(before + c.items[i]!.costs[t], n - i - 1)).toBeGreaterThan(c.budget);
            before += c.items[i]!.costs[result.chosen[i]!];
          }
        } else {
          // No omitted item would have fit in what was left, at any allowed tier.
          result.chosen.forEach((x, i) => {
            if (x === null) for (const t of allowed) expect(fitsWith(i, t)).toBe(false);
          });
          // The first item that fits on its own is always in.
          const first = c.items.findIndex((it) => allowed.some((t) => least(c.header + it.costs[t], n - 1) <= c.budget));
          if (first !== -1) expect(result.chosen[first]).not.toBeNull();
        }
      }),
      { numRuns: numRuns(1_000) },
    );
  }, 30_000); // 1,000 random cases: about 2 s alone, 5 s on a loaded 2-core machine

  test('a budget of exactly the header and the count line fits with nothing in; one less does not', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        fc.pre(c.items.length > 0);
        const input = toInput(c);
        const empty = modelParts(
          input,
          c.items.map(() => null),
        ).least;
        const cheapest = Math.min(...c.items.map((it) => it.costs['1']));
        fc.pre(cheapest > 0);
        expect(pack({ ...input, budget: empty - 1 }).fits).toBe(false);
        const at = pack({ ...input, budget: empty });
        expect(at.fits).toBe(true);
        expect(at.totalTokens).toBeLessThanOrEqual(empty);
      }),
      { numRuns: numRuns(300) },
    );
  });
});

// End to end: real bindings, real sets, get_set_context over the SDK client, independent recount.

const POOL = 500;
const WORDS =
  'budget token context window binding tier summary preview content packing ordered fill fallback omitted cursor space share set version model provenance search rank index query'.split(
    ' ',
  );
function document(seed: number, words: number): string {
  const out: string[] = [`# Document ${seed}`, ''];
  let x = seed * 7919 + 17;
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[x % WORDS.length]! + (i % 13 === 12 ? '.\n' : ''));
  }
  return out.join(' ');
}

describe('get_set_context end to end', () => {
  let world: TestWorld;
  let client: Client;
  const pool: string[] = [];
  const costs = new Map<string, Record<Tier, number>>();

  beforeAll(async () => {
    world = await createTestWorld({ BINDERY_MAX_RESPONSE_TOKENS: '30000' });
    client = await world.connect('packer');
    const deps = { db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() };
    const caller = await ensureCaller(deps, 'packer');
    for (let i = 0; i < POOL; i++) {
      const size = i % 10 === 0 ? 2_500 + (i % 7) * 400 : i % 3 === 0 ? 400 + (i % 11) * 60 : 15 + (i % 17) * 12;
      // Every fifth card is in a dense script, near the 300-token card bound.
      const dense = i % 5 === 2;
      const row = await createBinding(
        deps,
        caller,
        dense
          ? {
              name: `密な資料 ${i} ${'語'.repeat(120)}`,
              content: '日本語の本文。'.repeat(size),
              summary: '要約の文。'.repeat(110),
              keyPoints: ['要点'.repeat(70)],
            }
          : {
              name: `Packing fixture ${i}`,
              content: document(i, size),
              summary: `Fixture ${i} for the packing property, about ${size} words.`,
              keyPoints: i % 4 ? [`size ${size}`] : [],
            },
        { source: 'human', model: null },
      );
      pool.push(row.bindingId);
    }
    const rows = await world.db.all<{ id: string; l: number; h: number; p: number; c: number }>(
      sql`SELECT b.id AS id, v.line_block_tokens AS l, v.head_block_tokens AS h, v.preview_block_tokens AS p, v.content_block_tokens AS c FROM bindings b JOIN versions v ON v.binding_id = b.id AND v.number = b.current_version`,
    );
    for (const r of rows) costs.set(r.id, { '0': r.l, '1': r.h, '1.5': r.h + r.p, '2': r.h + r.c });
  });
  afterAll(() => world.close());

  test('every budget from 50 answers within maxTokens; included is a prefix (ordered); no omitted item would have fit; the footer is the richest that fits', async () => {
    const runArb = fc.record({
      picks: fc.integer({ min: 0, max: POOL }).chain((n) =>
        fc.shuffledSubarray(
          Array.from({ length: POOL }, (_, i) => i),
          { minLength: n, maxLength: n },
        ),
      ),
      budget: fc.oneof(fc.integer({ min: 50, max: 300 }), fc.integer({ min: 50, max: 1_500 }), fc.integer({ min: 50, max: 30_000 })),
      tier: fc.constantFrom<Tier>('0', '1', '1.5', '2'),
      strategy: fc.constantFrom<'ordered' | 'fill'>('ordered', 'fill'),
      fallback: fc.boolean(),
    });
    let packedRuns = 0;
    await fc.assert(
      fc.asyncProperty(runArb, async (r) => {
        const ids = r.picks.map((i) => pool[i]!);
        const created = await call(client, 'create_set', { name: 'property', bindingIds: ids });
        expect(created.isError).toBeFalsy();
        const setId = (created.structuredContent as { set: { id: string } }).set.id;
        const args = { setId, maxTokens: r.budget, tier: r.tier, strategy: r.strategy, fallback: r.fallback };
        const result = await call(client, 'get_set_context', args);
        const text = textOf(result);
        if (result.isError) throw new Error(`maxTokens ${r.budget} refused for ${ids.length} items: ${text}`);
        packedRuns++;
        const budget = contextOf(result).budget as {
          maxTokens: number;
          usedTokens: number;
          remainingTokens: number;
          exhausted: boolean;
          included: { id: string; tier: Tier; tokens: number }[];
          omitted: { id: string; tokens: number }[];
        };
        const tokens = count(text);
        expect(tokens).toBeLessThanOrEqual(r.budget);
        expect(budget.usedTokens).toBe(tokens);
        expect(budget.remainingTokens).toBe(r.budget - tokens);
        expect(budget.exhausted).toBe(budget.omitted.length > 0);
        const allowed = r.fallback ? FALLBACK_ORDER[r.tier] : [r.tier];
        for (const it of budget.included) {
          expect(allowed).toContain(it.tier);
          expect(it.tokens).toBe(costs.get(it.id)![it.tier]);
        }
        // Included and omitted partition the set, each in set order.
        const inSet = new Set(budget.included.map((i) => i.id));
        expect(ids.filter((id) => inSet.has(id))).toEqual(budget.included.map((i) => i.id));
        expect(ids.filter((id) => !inSet.has(id))).toEqual(budget.omitted.map((o) => o.id));
        for (const o of budget.omitted) expect(o.tokens).toBe(costs.get(o.id)![r.tier]);
        // The text ends with a footer about exactly the omitted items: the richest form that fits.
        const forms = footerForms(budget.omitted, r.tier);
        const footer = forms.find((f) => text.endsWith(f));
        expect(footer).toBeDefined();
        const body = count(text.slice(0, text.length - footer!.length));
        expect(footer).toBe(forms.find((f) => body + count(f) <= r.budget));
        /** Would the answer with item `id` added at tier `t` still hold the one-line count of the rest? */
        const wouldFit = (id: string, t: Tier) => {
          const rest = budget.omitted.length - 1;
          return body + costs.get(id)![t] + (rest ? count(countLine(rest)) : 0) <= r.budget;
        };
        if (r.strategy === 'ordered') {
          expect(budget.included.map((i) => i.id)).toEqual(ids.slice(0, budget.included.length));
          const next = budget.omitted[0];
          if (next) for (const t of allowed) expect(wouldFit(next.id, t)).toBe(false);
        } else {
          for (const o of budget.omitted) for (const t of allowed) expect(wouldFit(o.id, t)).toBe(false);
        }
      }),
      { numRuns: numRuns(40) },
    );
    expect(packedRuns).toBe(numRuns(40));
  }, 120_000);
});
