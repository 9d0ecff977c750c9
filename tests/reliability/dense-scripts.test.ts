// The tier-1 card is bounded in tokens, not characters. Scripts that cost about three
// tokens a character (Yi, Hangul jamo, Braille), CJK and emoji ZWJ sequences, at the longest name,
// summary, key points and model the schemas accept, under the smallest response cap (1000) and the
// default (25000): the card stays within HEAD_TOKEN_BOUND, every tier can be read (tier 1.5 and tier 2
// in pages when they pass the cap), the pages hold everything the card left out, and every response
// count is exact (`call`). A write that could never be read is refused before anything is written.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { countBlocks, HEAD_TOKEN_BOUND, renderHead, renderPreview, takePreview, type VersionFacts } from '../../core/budget/tier.ts';
import { oneLine } from '../../core/budget/card-cut.ts';
import { createTiktokenCounter } from '../../core/tokens/counter.ts';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { contextOf, createTestWorld, textOf, type TestWorld } from '../helpers.ts';
import { numRuns } from '../property.ts';

/**
 * The helpers' `call` with its independent recount done by gpt-tokenizer: js-tiktoken's merge is
 * quadratic on long CJK and emoji chunks (seconds per maximal card), gpt-tokenizer's is not.
 */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(contextOf(result).response.tokens).toBe(encodeO200k(textOf(result), { disallowedSpecial: new Set<string>() }).length);
  return result;
}
async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result.structuredContent;
}

const ZWJ = ['👩‍👩‍👧‍👦', '🏳️‍🌈', '👨🏽‍💻', '🧑‍🤝‍🧑', '🏴‍☠️', '👁️‍🗨️'];
/** Code point ranges of each script (emoji: ZWJ sequences, padded with a one-unit symbol). */
const SCRIPTS: Record<string, [number, number] | 'zwj'> = {
  yi: [0xa000, 0xa48c],
  'hangul jamo': [0x1100, 0x11ff],
  braille: [0x2800, 0x28ff],
  cjk: [0x4e00, 0x9fff],
  'emoji zwj': 'zwj',
};

/** Exactly `n` UTF-16 units of a script, varied by `seed` (never a lone surrogate). */
function script(name: string, n: number, seed = 0): string {
  const range = SCRIPTS[name]!;
  let s = '';
  if (range === 'zwj') {
    for (let i = seed; s.length + ZWJ[i % ZWJ.length]!.length <= n; i++) s += ZWJ[i % ZWJ.length];
    return s.padEnd(n, '☺');
  }
  const [lo, hi] = range;
  for (let i = 0; s.length < n; i++) s += String.fromCodePoint(lo + ((i * 7919 + seed * 104729) % (hi - lo + 1)));
  return s;
}

/** The longest fields the schemas accept, in one script. */
function maximal(name: string) {
  return {
    name: script(name, 200, 1),
    summary: script(name, 600, 2),
    keyPoints: Array.from({ length: 8 }, (_, i) => script(name, 160, 10 + i)),
    model: script(name, 120, 3),
    content: Array.from({ length: 12 }, (_, i) => `${script(name, 300, 20 + i)}\n`).join(''),
  };
}

/** Follows cursors to the last page; each page is one exact, within-cap answer. */
async function readPages(client: Client, args: Record<string, unknown>, cap: number): Promise<CallToolResult[]> {
  const out: CallToolResult[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 300; i++) {
    const r = await call(client, 'get_binding', { ...args, ...(cursor ? { cursor } : {}) });
    if (r.isError) throw new Error(textOf(r));
    expect((r._meta as any).context.response.tokens).toBeLessThanOrEqual(cap);
    out.push(r);
    cursor = (r.structuredContent as any).binding.page?.nextCursor ?? undefined;
    if (!cursor) return out;
  }
  throw new Error('too many pages');
}

/** The bodies of a text's fenced regions, in order. */
function fencedBodies(text: string): string[] {
  return [...text.matchAll(/^<content fence="([0-9a-f]+)"[^>\n]*>\n([\s\S]*?)\n<\/content fence="\1">$/gm)].map((m) => m[2]!);
}

/**
 * Reads one binding at every tier and checks what a reader gets: the card within its bound; at tier
 * 1.5 the card plus everything it left out (in pages if need be) and the preview; at tier 2 the content.
 */
async function readEveryTier(client: Client, id: string, fields: ReturnType<typeof maximal>, cap: number) {
  const card = await call(client, 'get_binding', { id, tier: '1' });
  expect(card.isError).toBeFalsy();
  const cardTokens = (card._meta as any).context.response.tokens as number;
  expect(cardTokens).toBeLessThanOrEqual(HEAD_TOKEN_BOUND);
  const head = textOf(card);

  const t15 = await readPages(client, { id, tier: '1.5' }, cap);
  // Everything after the card on each page (the card repeats on every page), lines joined back.
  const rest = t15
    .map((r) =>
      textOf(r)
        .slice(head.length)
        .replace(/^Page \d+ of \d+.*\n$/m, ''),
    )
    .join('');
  const flat = (head + rest).replace(/\n/g, '');
  for (const k of fields.keyPoints) expect(flat).toContain(oneLine(k));
  expect(flat).toContain(oneLine(fields.name));
  expect(flat).toContain(oneLine(fields.model));
  const shown = head.match(/^Summary: (.*)$/m)![1]!;
  const summary = oneLine(fields.summary);
  if (shown.endsWith('…')) expect(flat).toContain(`Summary, continued: …${summary.slice(shown.length - 1)}`);
  else expect(shown).toBe(summary);
  expect(fencedBodies(rest).join('')).toBe(takePreview(fields.content));

  const t2 = await readPages(client, { id, tier: '2' }, cap);
  expect(t2.map((r) => fencedBodies(textOf(r)).join('')).join('')).toBe(fields.content);
  return { cardTokens, pages15: t15.length, pages2: t2.length };
}

for (const cap of [1000, 25000]) {
  describe(`maximal fields in dense scripts, BINDERY_MAX_RESPONSE_TOKENS=${cap}`, () => {
    let world: TestWorld;
    let client: Client;
    beforeAll(async () => {
      world = await createTestWorld({ BINDERY_MAX_RESPONSE_TOKENS: String(cap) });
      client = await world.connect('dense');
    });
    afterAll(() => world.close());

    for (const name of Object.keys(SCRIPTS)) {
      test(`${name}: accepted; the card is within ${HEAD_TOKEN_BOUND} tokens and every tier reads back whole`, async () => {
        const fields = maximal(name);
        expect([fields.name.length, fields.summary.length, fields.model.length, ...fields.keyPoints.map((k) => k.length)]).toEqual([
          200,
          600,
          120,
          ...Array(8).fill(160),
        ]);
        const made = await call(client, 'create_binding', fields);
        expect(made.isError).toBeFalsy();
        const id = (made.structuredContent as any).binding.id as string;
        // The write's answer shows the card (it always fits), with the note of what is at tier 1.5.
        expect(textOf(made)).toContain(`### `);
        expect(textOf(made)).toMatch(/^- ….* at tier 1\.5$/m);
        const { pages15, pages2 } = await readEveryTier(client, id, fields, cap);
        if (cap === 1000) expect(pages15).toBeGreaterThan(1);
        else expect(pages15).toBe(1);
        if (cap === 1000) expect(pages2).toBeGreaterThan(1);
        // An update in the same script is accepted too, and reads the same way.
        const next = { ...maximal(name), name: script(name, 200, 99) };
        const updated = await call(client, 'update_binding', { id, ...next });
        expect(updated.isError).toBeFalsy();
        await readEveryTier(client, id, next, cap);
      }, 30_000);
    }

    test('a list of dense cards pages under the cap and names every binding once', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 20; i++) {
        const page = await ok(client, 'list_bindings', { tier: '1', limit: 50, ...(cursor ? { cursor } : {}) });
        expect(page.results.length).toBeGreaterThan(0);
        seen.push(...page.results.map((r: { id: string }) => r.id));
        cursor = page.pagination.nextCursor ?? undefined;
        if (!cursor) break;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toHaveLength(Object.keys(SCRIPTS).length);
    });
  });
}

describe('a write that could never be read is refused, and nothing is written', () => {
  test('fixed card lines past the bound (a huge BINDERY_PUBLIC_URL) refuse every write with the field and the rule', async () => {
    const world = await createTestWorld({
      BINDERY_PUBLIC_URL: `https://kb.example.org/${script('yi', 400)}`,
      BINDERY_MAX_RESPONSE_TOKENS: '1000',
    });
    const client = await world.connect('refused');
    const r = await call(client, 'create_binding', { name: 'N', summary: 'S', content: 'c' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^Error TOO_LARGE: BINDERY_PUBLIC_URL: a tier-1 card must fit in 300 tokens .* Nothing was written/);
    const rows = await world.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM versions`);
    expect(Number(rows[0]!.n)).toBe(0);
    world.close();
  });
});

describe('the card cut (pure): any script, both tokenizers', () => {
  const ranges: [number, number][] = [
    [0x20, 0x7e],
    [0xc0, 0x24f],
    [0x300, 0x36f],
    [0x400, 0x4ff],
    [0x600, 0x6ff],
    [0x900, 0x97f],
    [0xe00, 0xe7f],
    [0x1100, 0x11ff],
    [0x2800, 0x28ff],
    [0x3040, 0x30ff],
    [0x3400, 0x4dbf],
    [0x4e00, 0x9fff],
    [0xa000, 0xa48c],
    [0xac00, 0xd7a3],
    [0x1f300, 0x1f6ff],
    [0x20000, 0x2a6df],
  ];
  const char = fc.oneof(
    fc.constantFrom(...ranges).chain(([lo, hi]) => fc.integer({ min: lo, max: hi }).map((cp) => String.fromCodePoint(cp))),
    fc.constantFrom(...ZWJ, '\u200d', '\ufe0f', ' ', '\n', '  '),
  );
  /** Text of at most `max` UTF-16 units, trimmed and non-empty like the schemas leave it. */
  // Lengths uniform up to the limit (fast-check's default sizing would keep them short).
  const field = (max: number) =>
    fc
      .integer({ min: 1, max })
      .chain((n) => fc.array(char, { minLength: n, maxLength: n }))
      .map((cs) => {
        let s = '';
        for (const c of cs) if (s.length + c.length <= max) s += c;
        return s.trim() || 'x';
      });
  const input = fc.record({
    name: field(200),
    summary: field(600),
    keyPoints: fc.array(field(160), { maxLength: 8 }),
    model: fc.option(field(120), { nil: null }),
    preview: field(500),
  });

  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    test(`${encoding}: the card is within the bound, its stored cut renders the count it was stored with`, async () => {
      const tokens = createTiktokenCounter(encoding);
      await tokens.load();
      fc.assert(
        fc.property(input, (x) => {
          const facts: VersionFacts = {
            bindingId: 'bnd_0123456789abcdef',
            spaceSlug: 'a-space-slug-of-forty-characters-exactly',
            bindingSlug: 'untitled',
            number: 12,
            name: x.name,
            summary: x.summary,
            keyPoints: x.keyPoints,
            contentTokenCount: 1_234_567,
            summaryTokenCount: 1,
            contentPreview: x.preview,
            contentChars: 100_000,
            fence: '0123456789ab',
            source: 'llm',
            model: x.model,
            createdAt: 0,
          };
          const blocks = countBlocks(facts, x.preview, 'https://kb.example-company.com/some/path', tokens);
          expect(blocks.headBlockTokens).toBeLessThanOrEqual(HEAD_TOKEN_BOUND);
          const stored = { ...facts, ...blocks };
          const head = renderHead(stored, 'https://kb.example-company.com/some/path');
          expect(tokens.count(head)).toBe(blocks.headBlockTokens);
          expect(head.isWellFormed()).toBe(true);
          expect(tokens.count(renderPreview(stored))).toBe(blocks.previewBlockTokens);
          // What the card leaves out is all at tier 1.5.
          const flat = (head + renderPreview(stored)).replace(/\n/g, '');
          for (const k of x.keyPoints) expect(flat).toContain(oneLine(k));
          expect(flat).toContain(oneLine(x.name));
        }),
        { numRuns: numRuns(150) },
      );
    }, 60_000);
  }

  test('rows written before the cut existed (headCut "") still render by the character rule', () => {
    const facts: VersionFacts & { headCut: string } = {
      bindingId: 'bnd_0123456789abcdef',
      spaceSlug: 's',
      bindingSlug: 'b',
      number: 1,
      name: 'Old row',
      summary: 'x'.repeat(600),
      keyPoints: Array.from({ length: 8 }, (_, i) => `${i}`.repeat(160)),
      contentTokenCount: 1,
      summaryTokenCount: 1,
      contentPreview: 'p',
      contentChars: 1,
      fence: '0123456789ab',
      source: 'human',
      model: null,
      createdAt: 0,
      headCut: '',
    };
    const head = renderHead(facts, 'http://x');
    // 7 + 600 + 160 + 160 + 160 = 1087 characters: three key points fit in 1100, five move on.
    expect(head).toContain(`- ${'2'.repeat(160)}\n- …5 more key points at tier 1.5\n`);
    expect(renderPreview(facts)).toContain(`More key points:\n- ${'3'.repeat(160)}\n`);
  });

  test('one grapheme cluster hundreds of units long (conjoining jamo, stacked marks) is still cut to the bound', async () => {
    const tokens = createTiktokenCounter('o200k_base');
    await tokens.load();
    for (const summary of ['\u1100'.repeat(600), `a${'\u0301\u0316'.repeat(299)}`]) {
      const facts: VersionFacts = {
        bindingId: 'bnd_0123456789abcdef',
        spaceSlug: 's',
        bindingSlug: 'b',
        number: 1,
        name: 'N',
        summary,
        keyPoints: [],
        contentTokenCount: 1,
        summaryTokenCount: 1,
        contentPreview: 'p',
        contentChars: 1,
        fence: '0123456789ab',
        source: 'human',
        model: null,
        createdAt: 0,
      };
      const blocks = countBlocks(facts, 'p', 'http://x', tokens);
      expect(blocks.headBlockTokens).toBeLessThanOrEqual(HEAD_TOKEN_BOUND);
      // Most of the bound goes to the summary, not to an empty "Summary: …".
      expect(JSON.parse(blocks.headCut).s).toBeGreaterThan(20);
    }
  });
});
