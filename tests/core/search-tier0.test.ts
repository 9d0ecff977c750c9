// search_bindings tier "0" without a limit fills one page of TIER0_TOKENS with one line per
// hit (stored counts), pages on from the first hit left out with a short cursor, and a line shows a
// gist only after a name too short to say what the document is.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, contextOf, createTestWorld, ok, textOf, testCounter, type TestWorld } from '../helpers.ts';
import { TIER0_TOKENS } from '../../core/tools/binding/search_bindings.ts';
import { LINE_GIST_BELOW, renderLine } from '../../core/budget/render.ts';

let world: TestWorld;
let client: Client;
const ids: string[] = [];
beforeAll(async () => {
  world = await createTestWorld();
  client = await world.connect('tier0');
  for (let i = 0; i < 70; i++) {
    const name = i % 3 === 0 ? `Q${i}` : `Quokka field notes, volume ${i}, on island behaviour`;
    const made = await ok(client, 'create_binding', {
      name,
      content: `# Notes ${i}\n\nThe quokka smiles. Entry ${i}.\n`,
      summary: `Observations of quokkas on Rottnest, set ${i}.`,
    });
    ids.push(made.binding.id);
  }
});
afterAll(() => world.close?.());

describe('search_bindings tier 0', () => {
  test('without a limit, a page holds as many lines as fit in TIER0_TOKENS, and the next page starts where it stopped', async () => {
    const tokens = await testCounter();
    const first = await ok(client, 'search_bindings', { query: 'quokka', tier: '0' });
    const text = textOf(first._result);
    expect(contextOf(first._result).response.tokens).toBe(tokens.count(text));
    expect(contextOf(first._result).response.tokens).toBeLessThanOrEqual(TIER0_TOKENS);
    // More than the 20 a fixed limit gave, fewer than all 70 (they do not fit in 900 tokens).
    expect(first.results.length).toBeGreaterThan(25);
    expect(first.results.length).toBeLessThan(70);
    expect(first.pagination.hasMore).toBe(true);
    // The cursor no longer spells out the query: the paging line stays short.
    expect(first.pagination.nextCursor.length).toBeLessThan(24);
    expect(text).toContain(`More: call again with cursor "${first.pagination.nextCursor}".`);
    const second = await ok(client, 'search_bindings', { query: 'quokka', tier: '0', cursor: first.pagination.nextCursor });
    const seen = new Set(first.results.map((r: { id: string }) => r.id));
    expect(second.results.some((r: { id: string }) => seen.has(r.id))).toBe(false);
    let all = [...first.results, ...second.results];
    let cursor = second.pagination.nextCursor;
    while (cursor) {
      const next = await ok(client, 'search_bindings', { query: 'quokka', tier: '0', cursor });
      all = [...all, ...next.results];
      cursor = next.pagination.nextCursor;
    }
    expect(new Set(all.map((r: { id: string }) => r.id))).toEqual(new Set(ids));
    // A cursor is bound to its query: another query refuses it.
    const other = await call(client, 'search_bindings', { query: 'smiles', tier: '0', cursor: first.pagination.nextCursor });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toContain('cursor');
  });

  test('an explicit limit or budget keeps its meaning at tier 0', async () => {
    const five = await ok(client, 'search_bindings', { query: 'quokka', tier: '0', limit: 5 });
    expect(five.results.length).toBe(5);
    const budgeted = await ok(client, 'search_bindings', { query: 'quokka', tier: '0', maxTokens: 300 });
    expect(contextOf(budgeted._result).response.tokens).toBeLessThanOrEqual(300);
  });

  test('a line shows a gist only after a short name, and the view carries the same gist', async () => {
    const found = await ok(client, 'search_bindings', { query: 'quokka', tier: '0', limit: 6 });
    const text = textOf(found._result);
    for (const r of found.results as { id: string; name: string; gist?: string; contentTokenCount: number; summary: string }[]) {
      const line = renderLine({ bindingId: r.id, name: r.name, summary: r.summary, contentTokenCount: r.contentTokenCount });
      expect(text).toContain(line);
      if (r.name.length < LINE_GIST_BELOW) {
        expect(r.gist).toBeTruthy();
        expect(line).toContain(`: ${r.gist}`);
      } else expect(r.gist).toBeUndefined();
    }
  });
});
