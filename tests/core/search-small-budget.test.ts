// A small maxTokens on search returned no hit at all when the best hit's card (at the tier
// asked for) did not fit, though its tier-0 line would have. The page then falls back to tier-0 lines,
// and says so in one line.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { contextOf, createTestWorld, ok, textOf, testCounter, type TestWorld } from '../helpers.ts';

let world: TestWorld;
let alice: Client;
const ids: string[] = [];
beforeAll(async () => {
  world = await createTestWorld();
  alice = await world.connect('alice');
  for (const n of [1, 2, 3]) {
    const summary = `Descaling a kettle, step ${n}: ${'limescale builds up where hard water boils, and vinegar or citric acid lifts it. '.repeat(4)}`;
    const keyPoints = [
      'Soak in vinegar for an hour',
      'Rinse twice before boiling again',
      'Citric acid works on thick scale',
      'Never use bleach',
    ];
    ids.push(
      (await ok(alice, 'create_binding', { name: `Kettle descaling ${n}`, summary, keyPoints, content: `# Kettle ${n}\n\n${summary}\n` }))
        .binding.id,
    );
  }
});
afterAll(() => world.close());

describe('search_bindings under a budget too small for one card', () => {
  for (const tier of ['1', '1.5', '2']) {
    test(`tier ${tier}: hits come back as tier-0 lines, said so, within the budget`, async () => {
      const found = await ok(alice, 'search_bindings', { query: 'kettle descaling', tier, maxTokens: 80 });
      const text = textOf(found._result);
      const budget = contextOf(found._result).budget;
      expect(found.results.length).toBeGreaterThan(0);
      expect(found.results.every((r: { tier: string }) => r.tier === '0')).toBe(true);
      expect(budget.included.every((i: { tier: string }) => i.tier === '0')).toBe(true);
      expect(text).toContain(`tier ${tier} did not fit maxTokens 80`);
      expect(text).toContain(found.results[0].id);
      const tokens = (await testCounter()).count(text);
      expect(contextOf(found._result).response.tokens).toBe(tokens);
      expect(tokens).toBeLessThanOrEqual(80);
    });
  }

  test('a budget that holds a card keeps the tier asked for, with no such line', async () => {
    const found = await ok(alice, 'search_bindings', { query: 'kettle descaling', tier: '1', maxTokens: 400 });
    expect(found.results[0].tier).toBe('1');
    expect(textOf(found._result)).not.toContain('did not fit');
  });
});
