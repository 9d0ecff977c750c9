// Binding and version tools over the SDK Client (InMemoryTransport) on a real in-memory libSQL DB:
// exact token counts, the tier-1 size bound, concurrent updates, cursor pagination and tier-2 paging.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, contextOf, createTestWorld, err, ok, sampleBinding, testCounter, textOf, type TestWorld } from '../helpers.ts';
import { HEAD_TOKEN_BOUND } from '../../core/budget/tier.ts';

const reference = new Tiktoken(o200k);
const tokensOf = (text: string) => reference.encode(text, [], []).length;
const modules = join(import.meta.dir, '..', '..', 'node_modules');
const readme = (pkg: string) => readFileSync(join(modules, pkg, 'README.md'), 'utf8');

/** Plain English prose to cut maximal summaries and key points from. */
const PROSE =
  'The deployment runbook explains how the staging cluster is rebuilt every night from the main branch. ' +
  'Before a release, the on-call engineer checks that the database migrations have been applied, that the ' +
  'feature flags for unfinished work are turned off, and that the error budget for the week has not been spent. ' +
  'If a rollback is needed, the previous image is promoted again and the migration is reverted by hand, ' +
  'because the automatic tooling cannot undo changes that dropped a column. Every incident gets a short ' +
  'written review within two working days, and the action items are tracked in the team board until they are closed. ' +
  'Access to production requires a second reviewer for any change that touches billing or authentication code.';

/** English text of exactly `n` characters, starting at a word of PROSE. */
function english(n: number, offset = 0): string {
  const words = PROSE.split(' ');
  let out = '';
  for (let i = offset; out.length < n; i++) out += (out ? ' ' : '') + words[i % words.length];
  return out.slice(0, n).trimEnd().padEnd(n, '.');
}

async function versionNumbers(world: TestWorld, id: string): Promise<number[]> {
  const rows = await world.db.all<{ number: number }>(sql`SELECT number FROM versions WHERE binding_id = ${id} ORDER BY number`);
  return rows.map((r) => Number(r.number));
}

describe('bindings', () => {
  let world: TestWorld;
  let client: Client;
  beforeAll(async () => {
    world = await createTestWorld();
    client = await world.connect('ada');
  });
  afterAll(() => world.close());

  test('contentTokenCount and summaryTokenCount equal js-tiktoken counts of the same text', async () => {
    const samples = [
      { content: readme('zod'), summary: 'Zod: TypeScript-first schema validation with static type inference.' },
      { content: readme('@modelcontextprotocol/sdk').slice(0, 40_000), summary: english(600) },
      { content: 'Special-looking text: <|endoftext|> and <|im_start|> count as plain text.', summary: 'Has <|endoftext|> in it.' },
      { content: '日本語のドキュメント 👩‍👩‍👧‍👦 with emoji and ünïcödé.\n', summary: 'Non-English text.' },
    ];
    for (const [i, s] of samples.entries()) {
      const created = await ok(client, 'create_binding', { name: `Token sample ${i}`, ...s });
      expect(created.binding.contentTokenCount).toBe(tokensOf(s.content));
      expect(created.binding.summaryTokenCount).toBe(tokensOf(s.summary));
      const read = await ok(client, 'get_binding', { id: created.binding.id, tier: '2' });
      expect(read.binding.content).toBe(s.content);
      expect(contextOf(read._result).binding.contentTokenCount).toBe(tokensOf(s.content));
    }
  });

  test('a tier-1 result stays ≤ 400 tokens with a 600-char summary and 8 key points of 160 chars', async () => {
    const keyPoints = Array.from({ length: 8 }, (_, i) => english(160, i * 9 + 3));
    const summary = english(600);
    expect(summary).toHaveLength(600);
    expect(keyPoints.every((k) => k.length === 160)).toBe(true);
    for (const extra of [{ name: 'Staging deployment runbook' }, { name: english(200, 40), model: 'claude-sonnet-4-5-20250929' }]) {
      const created = await ok(client, 'create_binding', { ...extra, content: `# Runbook\n\n${PROSE}\n`, summary, keyPoints });
      expect(contextOf(created._result).response.tokens).toBeLessThanOrEqual(400);
      const tier1 = await ok(client, 'get_binding', { id: created.binding.id, tier: '1' });
      const tokens = contextOf(tier1._result).response.tokens;
      expect(tokens).toBeLessThanOrEqual(400);
      expect(tokens).toBeGreaterThan(150);
      // Nothing is lost: structured content has every key point, and tier 1.5 text shows all of them.
      expect(tier1.binding.keyPoints).toEqual(keyPoints);
      expect(textOf(tier1._result)).toContain(summary);
      const tier15 = textOf((await ok(client, 'get_binding', { id: created.binding.id, tier: '1.5' }))._result);
      for (const k of keyPoints) expect(tier15).toContain(`- ${k}`);
    }
  });

  test('short key points all show at tier 1', async () => {
    const keyPoints = ['Nightly rebuild from main', 'Migrations checked before release', 'Rollback promotes the previous image'];
    const created = await ok(client, 'create_binding', { name: 'Short points', content: PROSE, summary: 'Runbook in brief.', keyPoints });
    const text = textOf((await ok(client, 'get_binding', { id: created.binding.id }))._result);
    for (const k of keyPoints) expect(text).toContain(`- ${k}\n`);
    expect(text).not.toContain('more key point');
  });

  test('20 parallel updates with the same expectedVersion: exactly one wins, 19 CONFLICT, versions 1..2', async () => {
    const created = await ok(client, 'create_binding', { name: 'Contended', content: 'v1 body', summary: 'Contended binding.' });
    const id = created.binding.id;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(client, 'update_binding', { id, content: `writer ${i} body`, expectedVersion: 1 })),
    );
    const wins = results.filter((r) => !r.isError);
    const conflicts = results.filter((r) => r.isError && textOf(r).startsWith('Error CONFLICT'));
    expect(wins).toHaveLength(1);
    expect(conflicts).toHaveLength(19);
    expect(textOf(conflicts[0]!)).toContain('expectedVersion');
    expect(await versionNumbers(world, id)).toEqual([1, 2]);
    const winner = (wins[0]!.structuredContent as { binding: { version: number } }).binding;
    expect(winner.version).toBe(2);
    const listed = await ok(client, 'list_versions', { id });
    expect(listed.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  });

  test('20 parallel updates without expectedVersion: none lost, versions contiguous 1..21', async () => {
    const created = await ok(client, 'create_binding', { name: 'Many writers', content: 'start', summary: 'Many writers.' });
    const id = created.binding.id;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => call(client, 'update_binding', { id, content: `writer ${i}` })));
    expect(results.filter((r) => r.isError).map(textOf)).toEqual([]);
    expect(await versionNumbers(world, id)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    const contents = await world.db.all<{ content: string }>(sql`SELECT content FROM versions WHERE binding_id = ${id} AND number > 1`);
    expect(new Set(contents.map((r) => r.content)).size).toBe(20);
  });

  test('a stale expectedVersion is a CONFLICT that names the current version, and writes nothing', async () => {
    const created = await ok(client, 'create_binding', { name: 'Stale', content: 'one', summary: 'Stale test.' });
    const id = created.binding.id;
    await ok(client, 'update_binding', { id, content: 'two', expectedVersion: 1 });
    const text = await err(client, 'update_binding', { id, content: 'three', expectedVersion: 1 });
    expect(text).toMatch(/^Error CONFLICT: expectedVersion: .*version 2/);
    expect(await versionNumbers(world, id)).toEqual([1, 2]);
  });
});

describe('pagination with cursors', () => {
  let world: TestWorld;
  let client: Client;
  const ids = new Set<string>();
  beforeAll(async () => {
    world = await createTestWorld();
    client = await world.connect('pager');
    for (let i = 0; i < 25; i++) ids.add((await ok(client, 'create_binding', sampleBinding(i))).binding.id);
  });
  afterAll(() => world.close());

  async function walk(tool: string, args: Record<string, unknown>) {
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await ok(client, tool, { ...args, ...(cursor ? { cursor } : {}) });
      expect(contextOf(res._result).pagination).toEqual(res.pagination);
      expect(res.pagination.total).toBe(25);
      sizes.push(res.results.length);
      seen.push(...res.results.map((r: { id: string }) => r.id));
      if (!res.pagination.hasMore) {
        expect(res.pagination.nextCursor).toBeNull();
        break;
      }
      expect(textOf(res._result)).toContain(res.pagination.nextCursor);
      cursor = res.pagination.nextCursor;
    }
    return { seen, sizes };
  }

  test('list_bindings pages 10 + 10 + 5 cover every binding once', async () => {
    const { seen, sizes } = await walk('list_bindings', { limit: 10 });
    expect(sizes).toEqual([10, 10, 5]);
    expect(new Set(seen)).toEqual(ids);
    expect(seen).toHaveLength(25);
  });

  test('search_bindings pages by rank and covers every match once', async () => {
    const { seen, sizes } = await walk('search_bindings', { query: 'zebra', limit: 10 });
    expect(sizes).toEqual([10, 10, 5]);
    expect(new Set(seen)).toEqual(ids);
  });

  test('a search matches a word of the content only where it occurs', async () => {
    const res = await ok(client, 'search_bindings', { query: 'topic7' });
    expect(res.results.map((r: { name: string }) => r.name)).toEqual(['Sample note 7']);
  });

  test('a cursor only continues the listing it was issued for', async () => {
    const first = await ok(client, 'list_bindings', { limit: 10 });
    const cursor = first.pagination.nextCursor;
    expect(await err(client, 'list_bindings', { limit: 5, cursor })).toContain('cursor');
    expect(await err(client, 'search_bindings', { query: 'zebra', limit: 10, cursor })).toContain('cursor');
    const second = await ok(client, 'list_bindings', { limit: 10, cursor });
    expect(second.results).toHaveLength(10);
  });

  test('another user sees none of these bindings', async () => {
    const other = await world.connect('stranger');
    const listed = await ok(other, 'list_bindings', {});
    expect(listed.pagination.total).toBe(0);
    const found = await ok(other, 'search_bindings', { query: 'zebra' });
    expect(found.results).toEqual([]);
    const id = [...ids][0]!;
    expect(await err(other, 'get_binding', { id })).toStartWith('Error NOT_FOUND');
  });
});

describe('tier-2 paging over the response cap', () => {
  const CAP = 2000;
  let world: TestWorld;
  let client: Client;
  beforeAll(async () => {
    world = await createTestWorld({ BINDERY_MAX_RESPONSE_TOKENS: String(CAP) });
    client = await world.connect('reader');
  });
  afterAll(() => world.close());

  async function readAllPages(tool: string, args: Record<string, unknown>) {
    const pages: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 200; i++) {
      const res = await ok(client, tool, { ...args, tier: '2', ...(cursor ? { cursor } : {}) });
      const tokens = contextOf(res._result).response.tokens;
      expect(tokens).toBeLessThanOrEqual(CAP);
      const page = res.binding.page;
      expect(page.index).toBe(i + 1);
      pages.push(res.binding.content);
      if (!page.nextCursor) {
        expect(page.index).toBe(page.count);
        break;
      }
      cursor = page.nextCursor;
    }
    return pages;
  }

  test('a document larger than the cap comes in pages that reassemble exactly', async () => {
    const content = [readme('@modelcontextprotocol/sdk'), readme('zod'), readme('ws'), readme('fast-check'), readme('qs')].join('\n\n');
    expect(tokensOf(content)).toBeGreaterThan(CAP * 5);
    const created = await ok(client, 'create_binding', { name: 'Big doc', content, summary: 'Three READMEs in one.' });
    const pages = await readAllPages('get_binding', { id: created.binding.id });
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.join('')).toBe(content);

    // An old version pages the same way through get_version.
    await ok(client, 'update_binding', { id: created.binding.id, content: 'now small', expectedVersion: 1 });
    const old = await readAllPages('get_version', { id: created.binding.id, version: 1 });
    expect(old.join('')).toBe(content);
    const small = await ok(client, 'get_binding', { id: created.binding.id, tier: '2' });
    expect(small.binding.content).toBe('now small');
    expect(small.binding.page).toBeUndefined();
  });

  test('one enormous line without newlines is split by characters and still reassembles', async () => {
    const content = `${english(600)} `.repeat(60) + '日本語のテキスト👍'.repeat(300);
    const created = await ok(client, 'create_binding', { name: 'One line', content, summary: 'A single very long line.' });
    const pages = await readAllPages('get_binding', { id: created.binding.id });
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.join('')).toBe(content);
    for (const p of pages) expect(p.isWellFormed()).toBe(true);
  });

  test('a page cursor is refused for another binding and past the end', async () => {
    const a = await ok(client, 'create_binding', { name: 'Paged A', content: readme('zod'), summary: 'A.' });
    const b = await ok(client, 'create_binding', { name: 'Paged B', content: readme('zod'), summary: 'B.' });
    const first = await ok(client, 'get_binding', { id: a.binding.id, tier: '2' });
    const cursor = first.binding.page.nextCursor;
    expect(cursor).toBeString();
    expect(await err(client, 'get_binding', { id: b.binding.id, tier: '2', cursor })).toContain('cursor');
    expect(await err(client, 'get_binding', { id: a.binding.id, tier: '1', cursor })).toContain('cursor');
  });
});

describe('search index stays in step with writes', () => {
  let world: TestWorld;
  let client: Client;
  beforeAll(async () => {
    world = await createTestWorld();
    client = await world.connect('indexer');
  });
  afterAll(() => world.close());

  const names = async (query: string) =>
    (await ok(client, 'search_bindings', { query, limit: 50 })).results.map((r: { name: string }) => r.name).sort();

  test('updates replace the indexed text, deletes remove it, neighbours are untouched', async () => {
    const a = await ok(client, 'create_binding', { name: 'Alpha', content: 'about pelicans', summary: 'Alpha.' });
    await ok(client, 'create_binding', { name: 'Beta', content: 'about pelicans and herons', summary: 'Beta.' });
    await ok(client, 'create_binding', { name: 'Gamma', content: 'about herons', summary: 'Gamma.' });
    expect(await names('pelicans')).toEqual(['Alpha', 'Beta']);
    await ok(client, 'update_binding', { id: a.binding.id, content: 'about flamingos' });
    expect(await names('pelicans')).toEqual(['Beta']);
    expect(await names('flamingos')).toEqual(['Alpha']);
    expect(await names('herons')).toEqual(['Beta', 'Gamma']);
    await ok(client, 'delete_binding', { id: a.binding.id });
    expect(await names('flamingos')).toEqual([]);
    expect(await names('herons')).toEqual(['Beta', 'Gamma']);
    // Name, summary and key points are indexed too.
    await ok(client, 'create_binding', { name: 'Delta', content: 'x', summary: 'Mentions cormorants.', keyPoints: ['and storks'] });
    expect(await names('cormorants')).toEqual(['Delta']);
    expect(await names('storks')).toEqual(['Delta']);
  });

  test('the search index is rebuilt once from the live current versions by rebuildSearchIndex (fts_v2 upgrade)', async () => {
    const { rebuildSearchIndex } = await import('../../db/store/fts.ts');
    // Simulate the state right after the fts_v2 migration: an empty index, the setting not yet written.
    await world.db.run(sql`DELETE FROM bindings_fts`);
    await world.db.run(sql`DELETE FROM settings WHERE key = 'fts_v2_built'`);
    expect(await names('herons')).toEqual([]);
    expect(await rebuildSearchIndex(world.db)).toBe(true);
    expect(await rebuildSearchIndex(world.db)).toBe(false);
    expect(await names('herons')).toEqual(['Beta', 'Gamma']);
    expect(await names('storks')).toEqual(['Delta']);
    expect(await names('flamingos')).toEqual([]);
  });
});

describe('the smallest response cap and the densest card', () => {
  test('a maximal CJK card is cut to its token bound, so the write shows it and lists list it (no refusal, no loop)', async () => {
    const small = await createTestWorld({ BINDERY_MAX_RESPONSE_TOKENS: '1000' });
    const client = await small.connect('dense');
    const dense = (n: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join('');
    const made = await call(client, 'create_binding', {
      name: dense(200),
      content: dense(2000),
      summary: dense(600),
      keyPoints: Array.from({ length: 8 }, () => dense(160)),
    });
    expect(made.isError).toBeFalsy();
    const id = (made.structuredContent as { binding: { id: string } }).binding.id;
    expect(textOf(made)).toContain(`Created ${id} (v1).`);
    expect(textOf(made)).toContain('at tier 1.5\n');
    // The card is bound exactly; the line above it names the random id, whose tokens vary (up to ~21).
    const tokens = await testCounter();
    expect(contextOf(made).response.tokens).toBeLessThanOrEqual(HEAD_TOKEN_BOUND + tokens.count(`Created ${id} (v1).\n`));
    const updated = await call(client, 'update_binding', { id, content: dense(2100) });
    expect(updated.isError).toBeFalsy();
    const listed = await ok(client, 'list_bindings', {});
    expect(listed.results.map((r: { id: string }) => r.id)).toEqual([id]);
    const versions = await ok(client, 'list_versions', { id });
    // Two versions exist (no duplicate write).
    expect(versions.versions[0].version).toBe(2);
    expect(versions.pagination.total).toBe(2);
    small.close();
  });
});
