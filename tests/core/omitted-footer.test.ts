// The one omitted footer: a budgeted listing and a query read end with the same heading, "…and N more"
// and count lines (core/tools/omitted-footer.ts), differing only in why the items were left out (over
// budget; unmatched or over budget), and what they write is what they counted.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { contextOf, createTestWorld, ok, textOf, type TestWorld } from '../helpers.ts';

let w: TestWorld;
let c: Awaited<ReturnType<TestWorld['connect']>>;
const ids: string[] = [];

beforeAll(async () => {
  w = await createTestWorld();
  c = await w.connect();
  for (let i = 0; i < 13; i++) {
    const content = `# Kettle ${i}\n\n${'Descale the kettle with vinegar and rinse it twice. '.repeat(12)}\n`;
    ids.push((await ok(c, 'create_binding', { name: `Kettle ${i}`, summary: `Kettle care ${i}.`, content })).binding.id);
  }
});
afterAll(() => w.close());

const MORE = /^- …and (\d+) more \(ids in _meta\.context\.budget\.omitted\)$/m;
const COUNT = /^Omitted: (\d+) items? (.+); ids in _meta\.context\.budget\.omitted\.\n$/;

/** The answer, after checking its text costs exactly what its budget block says. */
async function read(args: Record<string, unknown>) {
  const r = await ok(c, 'get_bindings', args);
  const ctx = contextOf(r._result);
  expect(ctx.budget.usedTokens).toBe(ctx.response.tokens);
  expect(ctx.response.tokens).toBeLessThanOrEqual(args.maxTokens as number);
  return { text: textOf(r._result), omitted: ctx.budget.omitted as { id: string }[] };
}

describe('one omitted footer for listings and query reads', () => {
  test('named items: one heading with the reason, then the same "…and N more" line', async () => {
    const query = await read({ ids, query: 'zebra', maxTokens: 3000 });
    expect(query.omitted.length).toBe(13);
    expect(query.text).toContain('Omitted (unmatched or over budget; fetch them by id later):\n');
    expect(query.text).toContain(`- ${ids[0]} · no section matches the query\n`);
    expect(MORE.exec(query.text)?.[1]).toBe('3');

    const listing = await read({ ids, tier: '2', maxTokens: 100 });
    expect(listing.omitted.length).toBeGreaterThan(10);
    expect(listing.text).toContain('Omitted (over budget; fetch them by id later):\n');
    expect(listing.text).toMatch(/^- bnd_\w+ · \d+ tokens at tier 2$/m);
    expect(Number(MORE.exec(listing.text)?.[1])).toBeGreaterThan(0);
  });

  test('at the smallest budget both shrink to the same count line, with their reason', async () => {
    const query = await read({ ids, query: 'zebra', maxTokens: 50 });
    const listing = await read({ ids, tier: '2', maxTokens: 50 });
    const q = COUNT.exec(query.text.slice(query.text.lastIndexOf('Omitted: ')));
    const l = COUNT.exec(listing.text.slice(listing.text.lastIndexOf('Omitted: ')));
    expect([q?.[1], q?.[2]]).toEqual(['13', 'unmatched or over budget']);
    expect([l?.[1], l?.[2]]).toEqual([String(listing.omitted.length), 'over budget']);
  });
});
