// When nothing matches well, search says so in one counted line and offers words the index
// uses near the query, taken only from documents the caller may read.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { contextOf, createTestWorld, ok, textOf, testCounter, type TestWorld } from '../helpers.ts';

let world: TestWorld;
let alice: Client;
let bob: Client;
beforeAll(async () => {
  world = await createTestWorld();
  alice = await world.connect('alice');
  bob = await world.connect('bob');
  const notes = [
    ['Descaling a kettle', 'Limescale and vinegar', ['Descaling', 'Limescale removal']],
    ['Kettle warranty', 'Descaling voids nothing', ['Warranty terms', 'Limescale claims']],
    ['Teapots', 'Brewing tea in a pot', ['Brewing', 'Warming the pot']],
  ] as const;
  for (const [name, summary, keyPoints] of notes) {
    await ok(alice, 'create_binding', { name, summary, keyPoints: [...keyPoints], content: `# ${name}\n\n${summary}. Rinse twice.\n` });
  }
  // Bob's private words must never be offered to Alice.
  for (const n of [1, 2])
    await ok(bob, 'create_binding', {
      name: `Descriptor secrets ${n}`,
      summary: 'Bob only',
      keyPoints: ['Descriptorium'],
      content: '# Private\n\nDescriptorium.\n',
    });
});
afterAll(() => world.close?.());

describe('search_bindings when nothing matches well', () => {
  test('no match at all: one line offers words of readable documents sharing a word’s first letters', async () => {
    const found = await ok(alice, 'search_bindings', { query: 'describe kettlebells' });
    expect(found.results).toEqual([]);
    expect(found.weakMatch.held).toBe(0);
    expect(found.weakMatch.tryWords).toContain('descaling');
    expect(found.weakMatch.tryWords.join(' ')).not.toMatch(/descriptor/i);
    const text = textOf(found._result);
    expect(text).toContain(`No match. Words the index uses that are near yours: ${found.weakMatch.tryWords.join(', ')}`);
    expect(contextOf(found._result).response.tokens).toBe((await testCounter()).count(text));
  });

  test('a best hit holding little of the query is said so, with words to try; a good match says nothing', async () => {
    const weak = await ok(alice, 'search_bindings', { query: 'brewing zymurgy fermentation hydrometer' });
    expect(weak.results.length).toBeGreaterThan(0);
    expect(weak.weakMatch.held).toBe(1);
    expect(weak.weakMatch.words).toBe(4);
    // The passage form says it in structuredContent only: its text is the passage, which is the evidence.
    expect(textOf(weak._result)).not.toContain('No close match');
    const card = await ok(alice, 'search_bindings', { query: 'brewing zymurgy fermentation hydrometer', tier: '1' });
    expect(textOf(card._result)).toContain('No close match: the best hit holds 1 of your 4 words.');
    const good = await ok(alice, 'search_bindings', { query: 'descaling limescale' });
    expect(good.weakMatch).toBeUndefined();
    expect(textOf(good._result)).not.toContain('No close match');
  });

  test('the line counts against a budget', async () => {
    const found = await ok(alice, 'search_bindings', { query: 'brewing zymurgy fermentation hydrometer', maxTokens: 60 });
    expect(contextOf(found._result).response.tokens).toBeLessThanOrEqual(60);
  });
});
