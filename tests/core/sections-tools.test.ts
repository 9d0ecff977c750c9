import { afterAll, describe, expect, test } from 'bun:test';
import { createTestWorld, err, ok, textOf, contextOf, type TestWorld } from '../helpers.ts';
import { OUTLINE_TOKEN_BOUND } from '../../core/budget/outline.ts';
import { numRuns } from '../property.ts';

const worlds: TestWorld[] = [];
afterAll(() => worlds.forEach((w) => w.close()));
async function world(env: Record<string, string> = {}) {
  const w = await createTestWorld(env);
  worlds.push(w);
  return w;
}

/** A document of `n` `## Part k` sections, each `words` words long. */
function parts(n: number, words = 12): string {
  const body = (k: number) => Array.from({ length: words }, (_, j) => `word${(k * 7 + j) % 50}`).join(' ');
  return `# Manual\n\nIntro text.\n\n${Array.from({ length: n }, (_, k) => `## Part ${k + 1}\n\n${body(k)}\n`).join('\n')}`;
}

describe('outline at tier 1.5', () => {
  test('bounded with 500 sections: the rest summed up on one line, counts exact', async () => {
    const w = await world();
    const c = await w.connect();
    const { binding } = await ok(c, 'create_binding', { name: 'Big', summary: 'Five hundred parts.', content: parts(500) });
    const r = await ok(c, 'get_binding', { id: binding.id, tier: '1.5' });
    const b = r.binding;
    expect(b.outline.length).toBeGreaterThan(3);
    expect(b.outline.length).toBeLessThan(30);
    expect(b.outline[0]).toMatchObject({ id: 'manual', heading: 'Manual' });
    expect(b.outlineRest.sections).toBe(501 - b.outline.length);
    const text = textOf(r._result);
    const outline = text.slice(text.indexOf('Outline: '));
    expect(outline).toContain(`…and ${b.outlineRest.sections} more sections, ${b.outlineRest.tokens.toLocaleString('en-US')} tokens`);
    expect(w.tokens.count(outline)).toBeLessThanOrEqual(OUTLINE_TOKEN_BOUND);
    // Tier 1 is unchanged by sections.
    const t1 = await ok(c, 'get_binding', { id: binding.id });
    expect(contextOf(t1._result).response.tokens).toBeLessThanOrEqual(300);
    expect(t1.binding.outline).toBeUndefined();
  });

  test('short content without headings has no outline block; a list at tier 1.5 shows outlines exactly', async () => {
    const w = await world();
    const c = await w.connect();
    const a = (await ok(c, 'create_binding', { name: 'Plain', summary: 'No headings.', content: 'Just a line.' })).binding;
    const b = (await ok(c, 'create_binding', { name: 'Parts', summary: 'Some parts.', content: parts(30) })).binding;
    const plain = await ok(c, 'get_binding', { id: a.id, tier: '1.5' });
    expect(textOf(plain._result)).not.toContain('Outline:');
    const list = await ok(c, 'get_bindings', { ids: [a.id, b.id], tier: '1.5', maxTokens: 3000 });
    expect(list.results[1].outline.length).toBeGreaterThan(3);
    expect(textOf(list._result)).toContain('Outline: 31 sections');
  });
});

describe('section reads', () => {
  test('one section with its heading path, fenced, at its exact stored cost; code-fenced headings ignored', async () => {
    const w = await world();
    const c = await w.connect();
    const content =
      '# Guide\n\nIntro.\n\n## Install\n\nRun it.\n\n```sh\n# not a heading\n## nor this\n```\n\n### On Linux\n\napt install it\n\n## Use\n\nCall it.\n';
    const { binding } = await ok(c, 'create_binding', { name: 'Guide', summary: 'A guide.', content });
    const t15 = (await ok(c, 'get_binding', { id: binding.id, tier: '1.5' })).binding;
    expect(t15.outline.map((s: { id: string }) => s.id)).toEqual(['guide', 'install', 'on-linux', 'use']);
    const r = await ok(c, 'get_binding', { id: binding.id, section: 'install' });
    expect(r.binding.section).toMatchObject({ id: 'install', path: ['Guide', 'Install'] });
    expect(r.binding.section.content).toContain('# not a heading');
    expect(r.binding.section.content).not.toContain('On Linux');
    const text = textOf(r._result);
    expect(text).toContain('Section "install" (2 of 4), path guide › install:');
    expect(text).toMatch(/<content fence="[^"]+" section="install">/);
    const card = (await ok(c, 'get_binding', { id: binding.id })).binding;
    // A section read is the section block alone (the reader came from a hit or an outline that named the
    // document), so it costs exactly the section's advertised tokens.
    expect(contextOf(r._result).response.tokens).toBe(r.binding.section.tokens);
    expect(text).not.toContain(binding.id);
    expect(t15.outline[1].tokens).toBe(r.binding.section.tokens);
    expect(card.id).toBe(binding.id);
    const nested = await ok(c, 'get_version', { id: binding.id, version: 1, section: 'on-linux' });
    expect(nested.binding.section.path).toEqual(['Guide', 'Install', 'On Linux']);
    expect(nested.current).toBe(true);
  });

  test('a missing section is NOT_FOUND naming section and a bounded list of valid ids', async () => {
    const w = await world();
    const c = await w.connect();
    const { binding } = await ok(c, 'create_binding', { name: 'Parts', summary: 'Parts.', content: parts(40) });
    const text = await err(c, 'get_binding', { id: binding.id, section: 'nope' });
    expect(text).toContain('NOT_FOUND');
    expect(text).toContain('section: "nope" is not a section');
    expect(text).toContain('"part-1"');
    expect(text).toContain('and 29 more');
    expect(text.length).toBeLessThan(600);
  });

  test('a heading, or an id as search writes it (§id), names its section; the answer gives the real id', async () => {
    const w = await world();
    const c = await w.connect();
    const content =
      '# Discount policy\n\nHow discounts work.\n\n## Approval limits\n\nUp to 10 %: the account executive.\n\n## 6.2 Recovery leave\n\nA day off.\n\n## 日本語\n\nテキスト。\n';
    const { binding } = await ok(c, 'create_binding', { name: 'Discounts', summary: 'Discounts.', content });
    for (const [asked, id] of [
      ['Approval limits', 'approval-limits'],
      ['§approval-limits', 'approval-limits'],
      ['6.2 Recovery leave', '6-2-recovery-leave'],
      ['approval limits', 'approval-limits'],
    ]) {
      const r = await ok(c, 'get_binding', { id: binding.id, section: asked });
      expect(`${asked} -> ${r.binding.section.id}`).toBe(`${asked} -> ${id}`);
      expect(textOf(r._result)).toContain(`Section "${id}"`);
    }
    // Nothing Latin to match on, or no such heading: NOT_FOUND as before.
    expect(await err(c, 'get_binding', { id: binding.id, section: '§' })).toContain('NOT_FOUND');
    expect(await err(c, 'get_binding', { id: binding.id, section: 'Approval' })).toContain('NOT_FOUND');
  });

  test('a section over the response cap (1000) comes in pages that reassemble exactly', async () => {
    const w = await world({ BINDERY_MAX_RESPONSE_TOKENS: '1000' });
    const c = await w.connect();
    const long = Array.from({ length: 300 }, (_, i) => `Line ${i} of the long section, with some words.`).join('\n');
    const { binding } = await ok(c, 'create_binding', {
      name: 'Long',
      summary: 'One long section.',
      content: `# Start\n\nshort\n\n## Long part\n\n${long}\n\n## End\n\nbye\n`,
    });
    let cursor: string | undefined;
    let got = '';
    let pages = 0;
    do {
      const r = await ok(c, 'get_binding', { id: binding.id, section: 'long-part', ...(cursor ? { cursor } : {}) });
      expect(contextOf(r._result).response.tokens).toBeLessThanOrEqual(1000);
      got += r.binding.section.content;
      cursor = r.binding.page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(2);
    expect(got).toBe(`## Long part\n\n${long}\n\n`);
  });
});

describe('query packing', () => {
  const docs = [
    {
      name: 'Cooking',
      summary: 'Recipes.',
      content: '# Cooking\n\n## Bread\n\nFlour, water and yeast make bread.\n\n## Soup\n\nBoil vegetables slowly.\n',
    },
    {
      name: 'Ops',
      summary: 'Operations.',
      content:
        '# Ops\n\n## Deploys\n\nShip with care.\n\n## Caching\n\nThe cache layer caches rendered pages; a cached page expires after one hour. Cache invalidation happens on write.\n\n## Logs\n\nLogs go to stderr.\n',
    },
    { name: 'Misc', summary: 'Other things.', content: '# Misc\n\nNothing about that topic here at all.\n' },
  ];

  test('get_bindings {query}: the matching section first, non-matching items named, counts exact', async () => {
    const w = await world();
    const c = await w.connect();
    const ids: string[] = [];
    for (const d of docs) ids.push((await ok(c, 'create_binding', d)).binding.id);
    const r = await ok(c, 'get_bindings', { ids, query: 'how does caching work?', maxTokens: 2000 });
    expect(r.results[0].id).toBe(ids[1]);
    expect(r.results[0].sections[0].id).toBe('caching');
    expect(r.results[0].sections[0].path).toEqual(['Ops', 'Caching']);
    expect(r.budget.usedTokens).toBe(contextOf(r._result).response.tokens);
    expect(r.budget.included[0]).toMatchObject({ id: ids[1], sections: expect.arrayContaining(['caching']) });
    expect(r.budget.omitted.map((o: { id: string }) => o.id).sort()).toEqual([ids[0], ids[2]].sort());
    expect(r.budget.omitted[0].reason).toBe('no section matches the query');
    const text = textOf(r._result);
    expect(text.indexOf('Section "caching"')).toBeLessThan(text.indexOf('Omitted (unmatched or over budget'));
    expect(text).toMatch(/<content fence="[^"]+" section="caching">/);
  });

  test('get_set_context {query} never passes maxTokens and puts the best section first (property over budgets)', async () => {
    const fc = await import('fast-check');
    const w = await world();
    const c = await w.connect();
    const ids: string[] = [];
    for (const d of docs) ids.push((await ok(c, 'create_binding', d)).binding.id);
    ids.push((await ok(c, 'create_binding', { name: 'Parts', summary: 'Many parts.', content: parts(60) })).binding.id);
    const set = (await ok(c, 'create_set', { name: 'Mixed', bindingIds: ids })).set;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 50, max: 3000 }),
        fc.constantFrom('cache invalidation', 'bread yeast', 'word7 word8', 'zebra'),
        async (maxTokens, query) => {
          const res = await c.callTool({ name: 'get_set_context', arguments: { setId: set.id, maxTokens, query } });
          const ctxMeta = contextOf(res as never);
          if (res.isError) {
            expect(textOf(res as never)).toContain('maxTokens');
            return;
          }
          expect(ctxMeta.response.tokens).toBeLessThanOrEqual(maxTokens);
          expect(ctxMeta.budget.usedTokens).toBe(ctxMeta.response.tokens);
          expect(w.tokens.count(textOf(res as never))).toBe(ctxMeta.response.tokens);
          const items = (res.structuredContent as { items: { id: string; sections: { id: string }[] }[] }).items;
          if (query === 'cache invalidation' && items.length) expect(items[0]!.sections[0]!.id).toBe('caching');
          if (query === 'bread yeast' && items.length) expect(items[0]!.sections[0]!.id).toBe('bread');
          if (query === 'zebra') expect(items).toHaveLength(0);
        },
      ),
      { numRuns: numRuns(40) },
    );
  });
});

describe('another tokenizer on the same database', () => {
  test('a cl100k process reads exact outline, section and query counts of rows written with o200k', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'bindery-sections-'));
    try {
      const url = `file:${join(dir, 'db.sqlite')}`;
      const a = await world({ BINDERY_DB_URL: url });
      const ca = await a.connect();
      const { binding } = await ok(ca, 'create_binding', {
        name: 'Shared',
        summary: 'Shared doc.',
        content: parts(40).replaceAll('word2', 'word2 日本語のテキストとémojis 🦓 ünïcödé'),
      });
      const o200 = (await ok(ca, 'get_binding', { id: binding.id, section: 'part-3' })).binding.section.tokens;
      // A second process: its own handle on the file, cl100k config and a real cl100k counter.
      const { createDatabase } = await import('../../db/index.ts');
      const { createBinderyServer, createTiktokenCounter, parseConfig } = await import('../../core/index.ts');
      const { ensureCaller } = await import('../../core/services/prepare.ts');
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
      const config = parseConfig({ BINDERY_DB_URL: url, BINDERY_TOOL_MODE: 'eager', BINDERY_TOKENIZER: 'cl100k_base' });
      const database = createDatabase({ url: config.dbUrl });
      const tokens = createTiktokenCounter('cl100k_base');
      await tokens.load();
      const deps = { db: database.db, tokens, config, now: () => Date.now() };
      const server = createBinderyServer(deps, { caller: await ensureCaller(deps, 'local') });
      const [x, y] = InMemoryTransport.createLinkedPair();
      await server.connect(y);
      const cb = new Client({ name: 'cl100k', version: '1' });
      await cb.connect(x);
      const { Tiktoken } = await import('js-tiktoken/lite');
      const cl = new Tiktoken((await import('js-tiktoken/ranks/cl100k_base')).default);
      const exact = async (name: string, args: Record<string, unknown>) => {
        const res = await cb.callTool({ name, arguments: args });
        expect(res.isError).toBeFalsy();
        expect(contextOf(res as never).response.tokens).toBe(cl.encode(textOf(res as never), [], []).length);
        return res.structuredContent as any;
      };
      const sec = await exact('get_binding', { id: binding.id, section: 'part-3' });
      expect(sec.binding.section.tokens).not.toBe(0);
      const t15 = await exact('get_binding', { id: binding.id, tier: '1.5' });
      expect(t15.binding.outline.find((s: { id: string }) => s.id === 'part-3').tokens).toBe(sec.binding.section.tokens);
      await exact('get_bindings', { ids: [binding.id], query: 'word3', maxTokens: 800 });
      // The stored (o200k) count differs from the one this process shows; the row was not rewritten.
      expect(sec.binding.section.tokens).not.toBe(o200);
      await cb.close();
      database.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
