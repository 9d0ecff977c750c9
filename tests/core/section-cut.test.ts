// Reads under a budget smaller than the best section answer with
// the best part of it (cut at a line or sentence boundary, counted exactly), and query reads answer
// from 50 tokens, as the README promises.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, contextOf, createTestWorld, ok, textOf, type TestWorld } from '../helpers.ts';

let world: TestWorld;
let client: Client;
beforeAll(async () => {
  world = await createTestWorld();
  client = await world.connect('cutter');
});
afterAll(() => world.close());

const policy = (n: number) =>
  [
    `# Travel policy ${n}`,
    '',
    `Policy ${n} covers trips for work. Read it before you book.`,
    '',
    '## Booking',
    '',
    "Book trains at least a week ahead through the travel desk. Flights need a manager's approval in writing.",
    'Hotels are booked by the travel desk as well; say which nights and which city.',
    'Taxis are fine late at night or with heavy luggage. Keep every receipt.',
    'Rail passes are bought only for trips of three days or more. Sleeper trains count as a hotel night.',
    '',
    '## Expenses',
    '',
    'Claim expenses within thirty days of the trip. Meals are paid up to forty euros a day; alcohol is never paid.',
    'Receipts are photographed into the expenses app; paper ones are kept for a year.',
    '',
  ].join('\n');

describe('section reads never come back empty', () => {
  let ids: string[] = [];
  beforeAll(async () => {
    ids = [];
    for (let n = 0; n < 12; n++)
      ids.push(
        (
          await ok(client, 'create_binding', {
            name: `Travel policy ${n}`,
            content: policy(n),
            summary: `Rules for work trips, edition ${n}.`,
          })
        ).binding.id,
      );
  });

  test('get_binding {section, maxTokens} under the section cost shows its beginning, cut at a boundary, within budget', async () => {
    const whole = await ok(client, 'get_binding', { id: ids[0], section: 'booking' });
    const cost = contextOf(whole._result).response.tokens;
    for (const maxTokens of [cost - 1, cost - 20, 90, 75]) {
      const r = await call(client, 'get_binding', { id: ids[0], section: 'booking', maxTokens });
      expect(`${maxTokens}: ${r.isError ? textOf(r) : 'ok'}`).toBe(`${maxTokens}: ok`);
      const ctx = contextOf(r);
      expect(ctx.response.tokens).toBeLessThanOrEqual(maxTokens);
      expect(ctx.budget.usedTokens).toBe(ctx.response.tokens);
      const section = (r.structuredContent as any).binding.section;
      expect(section.cut).toBeDefined();
      expect(section.content.length).toBeGreaterThan(0);
      // Its beginning after the heading line (the frame names the section; the room goes to its text).
      const body = whole.binding.section.content.replace(/^#{1,6} .*\n+/, '');
      expect(body.startsWith(section.content)).toBe(true);
      expect(section.content.startsWith('#')).toBe(false);
      expect(textOf(r)).toContain(`the whole section is ${whole.binding.section.tokens} tokens`);
      // The fence alone names the section and what the whole costs: no section line above it.
      expect(textOf(r)).toMatch(new RegExp(`^<content fence="\\d+" section="booking" cut="of ${whole.binding.section.tokens}">\n`));
    }
    // At 60 tokens a cut still shows text (the section line above the fence took 14 of them).
    const small = await ok(client, 'get_binding', { id: ids[0], section: 'booking', maxTokens: 60 });
    expect(small.binding.section.content.length).toBeGreaterThan(0);
    // A budget that holds it: the whole section, no cut.
    const fits = await ok(client, 'get_binding', { id: ids[0], section: 'booking', maxTokens: cost });
    expect(fits.binding.section.cut).toBeUndefined();
    expect(fits.binding.section.content).toBe(whole.binding.section.content);
  });

  test('get_bindings {query, maxTokens} just under the best section shows the best part of it, not "needs N tokens"', async () => {
    const roomy = await ok(client, 'get_bindings', { ids: [ids[0]], query: 'taxi receipts late at night' });
    expect(roomy.results[0].sections[0].id).toBe('booking');
    // The case: a budget a little over the section's own cost (250 for 243), which its framing passes.
    const section = roomy.results[0].sections[0].tokens as number;
    for (const maxTokens of [section + 7, section - 20]) {
      const r = await call(client, 'get_bindings', { ids: [ids[0]], query: 'taxi receipts late at night', maxTokens });
      expect(r.isError).toBeFalsy();
      const ctx = contextOf(r);
      expect(ctx.response.tokens).toBeLessThanOrEqual(maxTokens);
      expect(ctx.budget.usedTokens).toBe(ctx.response.tokens);
      const shown = (r.structuredContent as any).results[0].sections[0];
      expect(shown.id).toBe('booking');
      expect(shown.cut).toBeDefined();
      expect(shown.content).toContain('Taxis are fine late at night');
    }
  });

  test('query reads answer any budget from 50 (get_bindings and get_set_context), within it', async () => {
    const set = await ok(client, 'create_set', { name: 'Every travel policy with a long name to make the header longer', bindingIds: ids });
    for (const maxTokens of [50, 55, 60, 75, 100, 150, 200, 320]) {
      for (const [name, args] of [
        ['get_bindings', { ids, query: 'meals alcohol expenses', maxTokens }],
        ['get_set_context', { setId: set.set.id, query: 'meals alcohol expenses', maxTokens }],
      ] as const) {
        const r = await call(client, name, args);
        expect(`${name} ${maxTokens}: ${r.isError ? textOf(r) : 'ok'}`).toBe(`${name} ${maxTokens}: ok`);
        expect(contextOf(r).response.tokens).toBeLessThanOrEqual(maxTokens);
        expect(contextOf(r).budget.usedTokens).toBe(contextOf(r).response.tokens);
      }
    }
  });
});

describe('a budgeted read of a whole binding (maxTokens without section)', () => {
  test('gives the fullest tier that fits, exactly counted; below the card, an error naming the card and tier 0', async () => {
    const id = (await ok(client, 'create_binding', { name: 'Travel policy whole', content: policy(9), summary: 'How to travel for work.' }))
      .binding.id;
    const full = await call(client, 'get_binding', { id, tier: '2' });
    const withOutline = await call(client, 'get_binding', { id, tier: '1.5' });
    const plain = await call(client, 'get_binding', { id });
    const line = await call(client, 'get_binding', { id, tier: '0' });
    const cost = (r: Awaited<ReturnType<typeof call>>) => contextOf(r).response.tokens as number;
    expect(cost(plain)).toBeLessThan(Math.min(cost(full), cost(withOutline)));
    expect(cost(line)).toBeLessThan(cost(plain));
    // Each budget gets the fullest tier (2, then 1.5, then 1) whose whole text fits, byte for byte that tier's read.
    const order = [full, withOutline, plain];
    for (const maxTokens of [cost(full), cost(full) - 1, cost(withOutline), cost(withOutline) - 1, cost(plain)]) {
      const want = order.find((r) => cost(r) <= maxTokens)!;
      const r = await call(client, 'get_binding', { id, maxTokens });
      expect(r.isError).toBeFalsy();
      expect(textOf(r)).toBe(textOf(want));
      const budget = contextOf(r).budget;
      expect(budget.usedTokens).toBe(cost(want));
      expect(budget.usedTokens).toBeLessThanOrEqual(maxTokens);
    }
    // A tier asked for is where the fall starts; tier "0" is read as tier 0, not as the card.
    const big = Math.max(cost(full), cost(withOutline));
    expect(textOf(await call(client, 'get_binding', { id, tier: '1.5', maxTokens: big }))).toBe(textOf(withOutline));
    expect(textOf(await call(client, 'get_binding', { id, tier: '0', maxTokens: big }))).toBe(textOf(line));
    // Below the card: the error names the field, the card's cost and tier 0's, the two reads that fit.
    expect(cost(plain) - 1).toBeGreaterThanOrEqual(50);
    const tooSmall = await call(client, 'get_binding', { id, maxTokens: cost(plain) - 1 });
    expect(tooSmall.isError).toBe(true);
    expect(textOf(tooSmall)).toContain(
      `maxTokens: is below this binding's card (${cost(plain)} tokens); give at least that, or tier "0" for its one line (${cost(line)} tokens)`,
    );
    // Tier 0 under its own cost: the error names that cost.
    const longName = Array.from({ length: 28 }, (_, i) => `${(i * 7919 + 13).toString(36)}Zq`)
      .join('-')
      .slice(0, 200);
    const long = (await ok(client, 'create_binding', { name: longName, content: policy(2), summary: 'Long name.' })).binding.id;
    const longLine = cost(await call(client, 'get_binding', { id: long, tier: '0' }));
    expect(longLine).toBeGreaterThan(51);
    const tooSmallLine = await call(client, 'get_binding', { id: long, tier: '0', maxTokens: longLine - 1 });
    expect(tooSmallLine.isError).toBe(true);
    expect(textOf(tooSmallLine)).toContain(`maxTokens: is below this binding's one-line tier "0" (${longLine} tokens)`);
  });
});
