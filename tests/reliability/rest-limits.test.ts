// REST reads obey the response cap and paging of the MCP tools (they run the same
// tool code), so a tier-2 list over large bindings is one capped page with a cursor, not 100 MB.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createBinding } from '../../core/services/bindings.ts';
import { createSet } from '../../core/services/sets.ts';
import { httpWorld, type HttpWorld } from './http-world.ts';

const HUMAN = { source: 'human', model: null } as const;
const COUNT = 100;
/** ~80 KB of prose: ~20k tokens, so one fits under the 25k cap at tier 2 and two never do. */
const BODY = 'The quick brown fox jumps over the lazy dog; walruses bask in the sun. '.repeat(1_100);

let w: HttpWorld;
let setId = '';
const CAP = 25_000;

beforeAll(async () => {
  w = await httpWorld({ BINDERY_MAX_RESPONSE_TOKENS: String(CAP) });
  const ids: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const row = await createBinding(
      w.deps,
      w.alice,
      { name: `Large ${i}`, content: `# Large ${i}\n\n${BODY}`, summary: `Large binding ${i}.` },
      HUMAN,
    );
    ids.push(row.bindingId);
  }
  setId = (await createSet(w.deps, w.alice, { name: 'All large', bindingIds: ids })).id;
}, 120_000);

afterAll(() => w.close());

type Item = { id: string; tier: string; content?: string; contentTokenCount: number };
type Page = { pagination: { total: number; hasMore: boolean; nextCursor: string | null } };

function rssMb(): number {
  Bun.gc(true);
  return process.memoryUsage.rss() / 2 ** 20;
}

/** Tokens of the items' content and heads in a page, as the MCP text block would count them. */
function contentTokens(items: Item[]): number {
  return items.reduce((n, it) => n + (it.content !== undefined ? it.contentTokenCount : 0), 0);
}

async function getJson<T>(path: string): Promise<{ status: number; bytes: number; body: T }> {
  const res = await w.get(path, w.seed.aliceKey);
  const text = await res.text();
  return { status: res.status, bytes: text.length, body: JSON.parse(text) as T };
}

/** Ten requests at once, each reduced to what the test checks as it arrives; RSS sampled at each arrival. */
async function tenAtOnce<T, S extends Record<string, unknown>>(path: string, summary: (body: T) => S) {
  const rss0 = rssMb();
  let peak = rss0;
  const pages = await Promise.all(
    Array.from({ length: 10 }, async () => {
      const res = await w.get(path, w.seed.aliceKey);
      const text = await res.text();
      peak = Math.max(peak, process.memoryUsage.rss() / 2 ** 20);
      return { status: res.status, bytes: text.length, ...summary(JSON.parse(text) as T) };
    }),
  );
  return { pages, rss0, rss1: peak, largest: Math.max(...pages.map((p) => p.bytes)) };
}

describe('REST over 100 large bindings', () => {
  test('GET /api/bindings?tier=2&limit=100: one capped page with a next cursor; RSS stays flat', async () => {
    const { pages, rss0, rss1, largest } = await tenAtOnce('/api/bindings?tier=2&limit=100', (b: Page & { results: Item[] }) => ({
      ...b.pagination,
      tokens: contentTokens(b.results),
    }));
    console.log(
      `REST list tier 2, limit 100 (10 at once): largest body ${(largest / 1024).toFixed(0)} KB, peak RSS ${rss0.toFixed(0)} → ${rss1.toFixed(0)} MB (+${(rss1 - rss0).toFixed(0)} MB)`,
    );
    for (const page of pages) expect(page).toMatchObject({ status: 200, total: COUNT, hasMore: true, nextCursor: expect.any(String) });
    for (const page of pages) expect(page.tokens).toBeLessThanOrEqual(CAP);
    expect(largest).toBeLessThan(CAP * 8); // ~4 characters a token, twice over for JSON framing
    expect(rss1 - rss0).toBeLessThan(64);
  }, 120_000);

  test('following the cursor walks every binding once, each page under the cap', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < COUNT + 1; pages++) {
      const { body }: { body: Page & { results: Item[] } } = await getJson(
        `/api/bindings?tier=2&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(contentTokens(body.results)).toBeLessThanOrEqual(CAP);
      seen.push(...body.results.map((r) => r.id));
      cursor = body.pagination.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(COUNT);
    expect(new Set(seen).size).toBe(COUNT);
  }, 120_000);

  test('GET /api/sets/:id?tier=2: items paged under the cap with a next cursor; RSS stays flat', async () => {
    type SetPage = Page & { set: { items: Item[]; itemCount: number } };
    const summary = (b: SetPage) => ({
      ...b.pagination,
      itemCount: b.set.itemCount,
      first: b.set.items[0]?.content?.slice(0, 200),
      tokens: contentTokens(b.set.items),
    });
    const { pages, rss0, rss1, largest } = await tenAtOnce(`/api/sets/${setId}?tier=2`, summary);
    console.log(
      `REST set tier 2 (10 at once): largest body ${(largest / 1024).toFixed(0)} KB, peak RSS ${rss0.toFixed(0)} → ${rss1.toFixed(0)} MB (+${(rss1 - rss0).toFixed(0)} MB)`,
    );
    for (const page of pages)
      expect(page).toMatchObject({
        status: 200,
        itemCount: COUNT,
        first: expect.stringContaining('walruses'),
        hasMore: true,
        nextCursor: expect.any(String),
      });
    for (const page of pages) expect(page.tokens).toBeLessThanOrEqual(CAP);
    expect(largest).toBeLessThan(CAP * 8);
    expect(rss1 - rss0).toBeLessThan(64);
  }, 120_000);

  test('a tier-2 read of one binding over the cap comes in pages with a cursor, as get_binding does', async () => {
    const big = await createBinding(w.deps, w.alice, { name: 'Huge', content: BODY.repeat(4), summary: 'Four times the cap.' }, HUMAN);
    const first = await getJson<{ binding: Item & { page: { index: number; count: number; nextCursor: string | null } } }>(
      `/api/bindings/${big.bindingId}?tier=2`,
    );
    expect(first.status).toBe(200);
    expect(first.body.binding.page.index).toBe(1);
    expect(first.body.binding.page.count).toBeGreaterThan(1);
    expect(first.bytes).toBeLessThan(CAP * 8);
    const next = await getJson<{ binding: { page: { index: number } } }>(
      `/api/bindings/${big.bindingId}?tier=2&cursor=${encodeURIComponent(first.body.binding.page.nextCursor!)}`,
    );
    expect(next.body.binding.page.index).toBe(2);
  });
});
