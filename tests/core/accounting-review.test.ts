// Token-accounting review: `_meta.context.response.tokens` equals an exact recount for every tool,
// whatever the stored text holds; no answer passes maxTokens or the response cap; reads never
// re-tokenize stored blocks; long content pages reassemble exactly.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { createDatabase, migrate } from '../../db/index.ts';
import { createBinderyServer, createTiktokenCounter, parseConfig, type BinderyConfig, type ToolMode } from '../../core/index.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { importDocument } from '../../core/services/import.ts';
import { setHelpTopic } from '../../core/services/help.ts';
import { isSafeSeam } from '../../core/tokens/doc.ts';
import { splitPages } from '../../core/budget/page.ts';
import { renderContent } from '../../core/budget/tier.ts';
import { newFence } from '../../core/ids.ts';
import type { TokenCounter } from '../../core/tokens/counter.ts';
import { contextOf, testCounter, textOf } from '../helpers.ts';
import { numRuns } from '../property.ts';

// The independent recount: gpt-tokenizer (not js-tiktoken, whose merge is quadratic on long chunks, and
// not our counter), with special-token text counted as plain text, as the contract says.
const encoders = { o200k_base: encodeO200k, cl100k_base: encodeCl100k };
const plain = { disallowedSpecial: new Set<string>() };
const exact = (s: string, enc: keyof typeof encoders = 'o200k_base') => encoders[enc](s, plain).length;

/** A counter that remembers every long text it was asked to count while `watching`. */
interface WatchCounter extends TokenCounter {
  watching: boolean;
  long: string[];
}
function watchCounter(inner: TokenCounter): WatchCounter {
  const w: WatchCounter = {
    encoding: inner.encoding,
    stats: inner.stats,
    watching: false,
    long: [],
    load: () => inner.load(),
    count(text: string) {
      if (w.watching && text.length > 400) w.long.push(text);
      return inner.count(text);
    },
  };
  return w;
}

interface World {
  db: ReturnType<typeof createDatabase>['db'];
  config: BinderyConfig;
  tokens: WatchCounter;
  connect(handle?: string, clientName?: string, config?: BinderyConfig, tokens?: TokenCounter, mode?: ToolMode): Promise<Client>;
  close(): void;
}

async function world(env: Record<string, string> = {}): Promise<World> {
  const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager', ...env });
  const database = createDatabase({ url: config.dbUrl });
  await migrate(database.db);
  const tokens = watchCounter(await testCounter());
  const clients: Client[] = [];
  return {
    db: database.db,
    config,
    tokens,
    async connect(handle = 'rev', clientName = 'review-client', cfg = config, tk: TokenCounter = tokens, mode?: ToolMode) {
      const deps = { db: database.db, tokens: tk, config: cfg, now: () => Date.now() };
      const caller = await ensureCaller(deps, handle);
      const server = createBinderyServer(deps, { caller, mode });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(b);
      const client = new Client({ name: clientName, version: '1' });
      await client.connect(a);
      clients.push(client);
      return client;
    },
    close() {
      for (const c of clients) void c.close();
      database.close();
    },
  };
}

/** Calls a tool and checks the exact-count invariant (with the given encoding) and the cap. */
async function run(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  cap: number,
  enc: keyof typeof encoders = 'o200k_base',
): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = textOf(result);
  const n = exact(text, enc);
  if (contextOf(result).response.tokens !== n) {
    throw new Error(
      `${name} ${JSON.stringify(args).slice(0, 200)}: response.tokens ${contextOf(result).response.tokens} but the text counts ${n}\n${JSON.stringify(text.slice(0, 600))}`,
    );
  }
  expect(n).toBeLessThanOrEqual(cap);
  if (typeof args.maxTokens === 'number' && !result.isError) expect(n).toBeLessThanOrEqual(args.maxTokens);
  return result;
}
/** A budgeted call: it may only fail because the budget is below the empty answer. */
async function budgetRun(client: Client, name: string, args: Record<string, unknown>) {
  const r = await run(client, name, args, 25_000);
  if (r.isError) expect(textOf(r)).toMatch(/^Error INVALID_INPUT: maxTokens: .* needs \d+ tokens/);
  else expect(contextOf(r).budget.usedTokens).toBe(contextOf(r).response.tokens);
  return r;
}
async function okRun(client: Client, name: string, args: Record<string, unknown>, cap = 25_000, enc: keyof typeof encoders = 'o200k_base') {
  const r = await run(client, name, args, cap, enc);
  if (r.isError) throw new Error(`${name} failed: ${textOf(r)}`);
  return r.structuredContent as any;
}

// Fragments chosen to sit on every edge the accounting has: seams, surrogates, CR, special tokens.
const FRAGMENTS = [
  '/',
  '//',
  ' ',
  '  ',
  '\n',
  '\r',
  '\r\n',
  '\t',
  '\u00a0',
  '\u2028',
  '<|endoftext|>',
  '<|fim_prefix|>',
  '<|im_start|>',
  'é',
  'e\u0301',
  '日本語',
  '😀',
  '𝐀',
  'word',
  'Zebra',
  '42',
  '.',
  ')',
  '-',
  '#',
  '`',
  '```',
  '</content>',
  '- ',
  '...',
];
const frag = fc.constantFrom(...FRAGMENTS);
const textOfFrags = (min: number, max: number) => fc.array(frag, { minLength: min, maxLength: max }).map((a) => a.join(''));
/** A schema-valid field: trimmed, non-empty, at most `max` characters, still full of edge cases. */
const field = (max: number) =>
  fc
    .tuple(textOfFrags(0, 12), fc.constantFrom('Alpha', '/root', '日本', '😀x', '<|endoftext|>', '9'), textOfFrags(0, 12))
    .map(([a, m, b]) => {
      let s = `${a}${m}${b}`.trim();
      if (s.length > max) s = s.slice(0, max).trim();
      if (s.length && s.charCodeAt(s.length - 1) >= 0xd800 && s.charCodeAt(s.length - 1) <= 0xdbff) s = s.slice(0, -1);
      return s.trim() || 'x';
    });
/** Content around the preview boundary and beyond: leading "/" or white space, CRLF, surrogates at 499/500. */
const contentArb = fc
  .record({
    head: fc.constantFrom('', '/', ' ', '\n', '\r\n', '\t', '<|endoftext|>'),
    body: textOfFrags(0, 60),
    pad: fc.oneof(fc.constant(0), fc.integer({ min: 480, max: 520 }), fc.integer({ min: 0, max: 2000 })),
    padChar: fc.constantFrom('a', ' ', '\r', '\n', '日', '/'),
    tail: fc.constantFrom('', '😀', '\r', '\r\n', '\n', ' ', '/', '😀😀'),
    more: textOfFrags(0, 20),
  })
  .map(({ head, body, pad, padChar, tail, more }) => {
    const base = `${head}${body}`;
    const filler = padChar.repeat(Math.max(0, pad - base.length));
    return `${base}${filler}${tail}${more}` || '/';
  });
const bindingArb = fc.record({
  name: field(200),
  summary: field(600),
  keyPoints: fc.array(field(160), { maxLength: 8 }),
  content: contentArb,
  model: fc.option(field(120), { nil: undefined }),
});

describe('seams', () => {
  test('a seam isSafeSeam accepts adds exactly, in both encodings', () => {
    const line = textOfFrags(0, 8).map((s) => `${s}\n`);
    const next = fc.tuple(frag, textOfFrags(0, 8)).map(([a, b]) => a + b);
    fc.assert(
      fc.property(line, next, (prev, nxt) => {
        fc.pre(isSafeSeam(prev, nxt));
        for (const enc of ['o200k_base', 'cl100k_base'] as const) expect(exact(prev + nxt, enc)).toBe(exact(prev, enc) + exact(nxt, enc));
      }),
      { numRuns: numRuns(3000) },
    );
  });
});

describe('every read answers an exact count, with no stored block re-tokenized', () => {
  let w: World;
  let writer: Client;
  beforeAll(async () => {
    w = await world();
    writer = await w.connect('rev');
  });
  afterAll(() => w.close());

  test('bindings full of edge cases, read by every tool at every tier', async () => {
    const all: string[] = [];
    const clientName = fc.option(
      fc.tuple(field(150), fc.constantFrom('', '\u0000x', '\ud800', '\n\t')).map(([a, b]) => a + b),
      { nil: undefined },
    );
    const packing = fc.record({
      strategy: fc.constantFrom('ordered', 'fill'),
      fallback: fc.boolean(),
      tier: fc.constantFrom('1', '1.5', '2'),
    });
    await fc.assert(
      fc.asyncProperty(bindingArb, fc.integer({ min: 50, max: 3000 }), clientName, packing, async (b, maxTokens, name, p) => {
        w.tokens.watching = false;
        const author = name === undefined ? writer : await w.connect('rev', name);
        const made = await run(author, 'create_binding', { ...b, summary: `${b.summary} zqxmark` }, 25_000);
        if (made.isError) throw new Error(textOf(made));
        const id = (made.structuredContent as any).binding.id as string;
        all.unshift(id);
        await okRun(author, 'add_comment', { id, body: b.content.trim() || 'c' });
        await okRun(writer, 'add_comment', { id, body: b.summary });
        const set = await okRun(writer, 'create_set', { name: b.name, bindingIds: [id], description: b.summary });
        const many = await okRun(writer, 'create_set', { name: 'many', bindingIds: all.slice(0, 50) });
        w.tokens.watching = true;
        w.tokens.long = [];
        await budgetRun(writer, 'get_set_context', { setId: many.set.id, maxTokens, ...p });
        await budgetRun(writer, 'get_bindings', { ids: all.slice(0, 50), maxTokens, tier: p.tier });
        await okRun(writer, 'get_bindings', { ids: all.slice(0, 50), tier: p.tier });
        for (const tier of ['1', '1.5', '2']) {
          await okRun(writer, 'get_binding', { id, tier });
          await okRun(writer, 'get_version', { id, version: 1, tier });
          await okRun(writer, 'get_bindings', { ids: [id], tier });
          await budgetRun(writer, 'get_bindings', { ids: [id], tier, maxTokens });
          await okRun(writer, 'list_bindings', { tier, limit: 3 });
          await budgetRun(writer, 'list_bindings', { tier, limit: 3, maxTokens });
          await okRun(writer, 'search_bindings', { query: 'zqxmark', tier, limit: 3 });
          await budgetRun(writer, 'search_bindings', { query: 'zqxmark', tier, limit: 3, maxTokens });
          await budgetRun(writer, 'get_set_context', { setId: set.set.id, maxTokens, tier });
        }
        await okRun(writer, 'list_versions', { id });
        await okRun(writer, 'list_comments', { id });
        await okRun(writer, 'get_set', { id: set.set.id });
        await okRun(writer, 'list_sets', {});
        w.tokens.watching = false;
        if (w.tokens.long.length) throw new Error(`re-tokenized on a read: ${JSON.stringify(w.tokens.long.map((t) => t.slice(0, 100)))}`);
      }),
      { numRuns: numRuns(40), endOnFailure: true },
    );
  }, 60_000);
});

describe('stored text is what was counted', () => {
  let w: World;
  let writer: Client;
  beforeAll(async () => {
    w = await world();
    writer = await w.connect('nul');
  });
  afterAll(() => w.close());

  test('NUL characters are refused (libSQL cuts text at NUL, so stored counts and content would disagree)', async () => {
    const cases: Record<string, unknown>[] = [
      { name: 'N', summary: 'S', content: 'before\u0000after' },
      { name: 'a\u0000b', summary: 'S', content: 'c' },
      { name: 'N', summary: 's\u0000t', content: 'c' },
      { name: 'N', summary: 'S', content: 'c', keyPoints: ['k\u0000'] },
      { name: 'N', summary: 'S', content: 'c', model: 'm\u0000' },
    ];
    for (const args of cases) {
      const r = await run(writer, 'create_binding', args, 25_000);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^Error INVALID_INPUT: \w+(\.\d+)?: must not contain NUL/);
    }
    const made = await okRun(writer, 'create_binding', { name: 'N', summary: 'S', content: 'c' });
    const r = await run(writer, 'add_comment', { id: made.binding.id, body: 'x\u0000y' }, 25_000);
    expect(r.isError).toBe(true);
    // Imports and hand-set help topics skip the tools' schemas; they are refused too.
    const deps = { db: w.db, tokens: w.tokens, config: w.config, now: () => Date.now() };
    const caller = await ensureCaller(deps, 'nul');
    const imported = await importDocument(deps, caller, {
      sourcePath: 'bin.md',
      bytes: new TextEncoder().encode('# Title\n\nText\u0000more\n'),
    });
    expect(imported).toEqual({ status: 'skipped', reason: expect.stringContaining('NUL') });
    await expect(setHelpTopic(deps, 'binary', '# B\n\u0000')).rejects.toThrow(/NUL/);
  });

  test('a client name with a lone surrogate, NUL, newlines or 100k characters cannot desync the stored head', async () => {
    for (const clientName of ['bad\ud800name', 'nul\u0000client', 'multi\nline\r\nclient  ', 'x'.repeat(100_000)]) {
      const client = await w.connect('nul', clientName);
      const made = await okRun(client, 'create_binding', { name: 'Client name', summary: 'S', content: 'body' });
      expect(made.binding.model.length).toBeLessThanOrEqual(120);
      expect(made.binding.model).not.toMatch(/[\u0000\n\r]/);
      expect(made.binding.model.isWellFormed()).toBe(true);
      for (const tier of ['1', '1.5', '2']) await okRun(client, 'get_binding', { id: made.binding.id, tier });
      const c = await okRun(client, 'add_comment', { id: made.binding.id, body: 'hello' });
      expect(c.comment.model.length).toBeLessThanOrEqual(120);
      await okRun(client, 'list_comments', { id: made.binding.id });
    }
  });
});

describe('stored counts follow the configuration on every runtime (edge and embedders never ran ensureCountsCurrent)', () => {
  test('BINDERY_PUBLIC_URL changes: reads count the URL they show', async () => {
    const w = await world({ BINDERY_PUBLIC_URL: 'http://localhost:8787' });
    const before = await w.connect('url');
    const made = await okRun(before, 'create_binding', {
      name: 'URL',
      summary: 'S',
      content: 'body of the document. '.repeat(100),
      keyPoints: ['k'],
    });
    const moved = parseConfig({
      BINDERY_DB_URL: ':memory:',
      BINDERY_TOOL_MODE: 'eager',
      BINDERY_PUBLIC_URL: 'https://kb.example-company.com/some/long/path-/x',
    });
    const after = await w.connect('url', 'c', moved);
    // A new URL changes only the heads: they alone are recounted, no content is read or counted.
    w.tokens.watching = true;
    w.tokens.long = [];
    await okRun(after, 'get_binding', { id: made.binding.id, tier: '1' });
    w.tokens.watching = false;
    expect(w.tokens.long).toEqual([]);
    for (const tier of ['1', '1.5', '2']) {
      const got = await okRun(after, 'get_binding', { id: made.binding.id, tier });
      expect(got.binding.textUrl.startsWith('https://kb.example-company.com/')).toBe(true);
    }
    await okRun(after, 'list_bindings', { tier: '1' });
    w.close();
  });

  test('BINDERY_TOKENIZER changes: reads count with the tokenizer in use', async () => {
    const w = await world();
    const before = await w.connect('tok');
    const made = await okRun(before, 'create_binding', {
      name: 'Tokenizer',
      summary: 'S',
      content: '日本語のテキスト 😀 '.repeat(40),
      keyPoints: ['k'],
    });
    const cl = createTiktokenCounter('cl100k_base');
    await cl.load();
    const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager', BINDERY_TOKENIZER: 'cl100k_base' });
    const after = await w.connect('tok', 'c', config, cl);
    for (const tier of ['1', '1.5', '2']) await okRun(after, 'get_binding', { id: made.binding.id, tier }, 25_000, 'cl100k_base');
    const got = await okRun(after, 'get_binding', { id: made.binding.id, tier: '1' }, 25_000, 'cl100k_base');
    expect(got.binding.contentTokenCount).toBe(exact('日本語のテキスト 😀 '.repeat(40), 'cl100k_base'));
    w.close();
  });
});

/** 200 characters that cost about 575 o200k tokens (CJK extension A, never merged). */
function costlyName(seed: number): string {
  let s = '';
  for (let cp = 0x3400 + seed; s.length < 200; cp += 37) s += String.fromCodePoint(cp);
  return s;
}

describe('no answer passes the response cap; long pages end early and continue by cursor', () => {
  const CAP = 5_000;
  let w: World;
  let owner: Client;
  beforeAll(async () => {
    w = await world({ BINDERY_MAX_RESPONSE_TOKENS: String(CAP) });
    owner = await w.connect('capper');
  });
  afterAll(() => w.close());

  /** Follows cursors to the end; every page is within the cap. Returns the items of all pages. */
  async function allPages(client: Client, tool: string, args: Record<string, unknown>, items: (d: any) => unknown[]) {
    const out: unknown[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 50; i++) {
      const d = await okRun(client, tool, { ...args, ...(cursor ? { cursor } : {}) }, CAP);
      out.push(...items(d));
      cursor = d.pagination.nextCursor ?? undefined;
      if (!cursor) {
        // Every item exactly once, in more than one page (one page of `limit` would pass the cap).
        expect(new Set(out.map((x) => JSON.stringify(x))).size).toBe(out.length);
        expect(i).toBeGreaterThan(0);
        return out;
      }
    }
    throw new Error('too many pages');
  }

  describe('list pages with 200-character CJK names (a page of `limit` lines would pass the cap)', () => {
    const N = 14;
    const ids: string[] = [];
    let setId = '';
    beforeAll(async () => {
      const first = await okRun(owner, 'create_binding', { name: costlyName(0), summary: 'S', content: 'v1' }, CAP);
      ids.push(first.binding.id);
      for (let v = 2; v <= N; v++) await okRun(owner, 'update_binding', { id: ids[0], content: `v${v}`, name: costlyName(v) }, CAP);
      for (let i = 1; i < N; i++)
        ids.push((await okRun(owner, 'create_binding', { name: costlyName(100 + i), summary: 'S', content: 'c' }, CAP)).binding.id);
      setId = (await okRun(owner, 'create_set', { name: costlyName(7), bindingIds: ids }, CAP)).set.id;
      for (let i = 1; i < N; i++) await okRun(owner, 'create_set', { name: costlyName(200 + i) }, CAP);
      for (let i = 0; i < N; i++) await okRun(owner, 'create_space', { slug: `cap-space-${i}`, name: costlyName(300 + i) }, CAP);
      for (const bid of ids) await okRun(owner, 'create_share', { target: bid, public: true, permission: 'read' }, CAP);
    }, 30_000);

    test('list_versions', async () =>
      expect((await allPages(owner, 'list_versions', { id: ids[0], limit: 100 }, (d) => d.versions)).length).toBe(N));
    test('get_set', async () => expect((await allPages(owner, 'get_set', { id: setId, limit: 200 }, (d) => d.items)).length).toBe(N));
    test('list_sets', async () => expect((await allPages(owner, 'list_sets', { limit: 100 }, (d) => d.sets)).length).toBe(N));
    test('list_spaces', async () => expect((await allPages(owner, 'list_spaces', { limit: 100 }, (d) => d.spaces)).length).toBe(N + 1));
    test('list_shares', async () => expect((await allPages(owner, 'list_shares', { limit: 100 }, (d) => d.shares)).length).toBe(N));
  });

  test('get_bindings without a budget names what it left out without passing the cap', async () => {
    const big = await okRun(owner, 'create_binding', { name: 'Big', summary: 'S', content: 'word '.repeat(4_400) }, CAP);
    const small: string[] = [];
    for (let i = 0; i < 49; i++)
      small.push((await okRun(owner, 'create_binding', { name: `Small ${i}`, summary: 'S', content: 'c' }, CAP)).binding.id);
    const d = await okRun(owner, 'get_bindings', { ids: [big.binding.id, ...small], tier: '2' }, CAP);
    expect(d.results.length).toBeGreaterThan(0);
  }, 30_000);

  test('error texts stay short whatever the input echoes', async () => {
    const huge = 'ab '.repeat(8_000);
    const r1 = await run(owner, 'get_binding', { id: 'bnd_0000000000000000', [huge]: 1, [`${huge}2`]: 2 }, CAP);
    expect(r1.isError).toBe(true);
    expect(contextOf(r1).response.tokens).toBeLessThan(200);
    // An unknown tool is a protocol error (-32602), its message clipped however long the name.
    const r2 = await owner.callTool({ name: huge, arguments: {} }).then(
      () => undefined,
      (e: Error & { code?: number }) => e,
    );
    expect(r2?.code).toBe(-32602);
    expect(exact(r2!.message)).toBeLessThan(200);
  });
});

describe('tool catalogue answers under the smallest response cap', () => {
  let w: World;
  beforeAll(async () => {
    w = await world({ BINDERY_MAX_RESPONSE_TOKENS: '1000' });
  });
  afterAll(() => w.close());

  test('search_tools, 20 matches, every mode (proxy-mode signatures make long lines)', async () => {
    for (const mode of ['proxy', 'lazy', 'eager'] as const) {
      const c = await w.connect('tools', 'c', w.config, w.tokens, mode);
      const d = await okRun(
        c,
        'search_tools',
        { query: 'binding set search comment share version space tool help budget', limit: 20 },
        1_000,
      );
      expect(d.matches.length).toBeGreaterThan(5);
      // Lazy mode enables only matches it shows.
      if (mode === 'lazy') for (const name of d.enabled) expect(d.matches.map((m: { name: string }) => m.name)).toContain(name);
    }
  });

  test('list_available_tools once every tool has runtime figures', async () => {
    const c = await w.connect('tools');
    for (const t of (await c.listTools()).tools) await c.callTool({ name: t.name, arguments: {} });
    const all = await run(c, 'list_available_tools', {}, 1_000);
    expect(all.isError).toBeFalsy();
    expect(textOf(all)).toContain('### binding');
  });
});

describe('paging tier 2 content', () => {
  const CAP = 1_000;
  let w: World;
  let owner: Client;
  beforeAll(async () => {
    w = await world({ BINDERY_MAX_RESPONSE_TOKENS: String(CAP) });
    owner = await w.connect('pager');
  });
  afterAll(() => w.close());

  async function readAll(
    client: Client,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{ content: string; pages: number; first: any }> {
    let content = '';
    let cursor: string | undefined;
    let first: any;
    for (let i = 0; i < 500; i++) {
      const d = await okRun(client, tool, { ...args, tier: '2', ...(cursor ? { cursor } : {}) }, CAP);
      first ??= d;
      content += d.binding.content;
      cursor = d.binding.page?.nextCursor ?? undefined;
      if (!cursor) return { content, pages: i + 1, first };
    }
    throw new Error('too many pages');
  }

  const hugeArb = fc
    .array(
      fc.oneof(
        fc.constantFrom('\n', '\r\n', '\n\n\n', '   \n', '/', ' ', '\t'),
        fc.integer({ min: 1, max: 6000 }).map((n) => 'x'.repeat(n)),
        fc.integer({ min: 1, max: 3000 }).map((n) =>
          costlyName(n % 50)
            .repeat(Math.ceil(n / 200))
            .slice(0, n),
        ),
        fc.integer({ min: 1, max: 400 }).map((n) => '😀'.repeat(n)),
        fc.integer({ min: 1, max: 300 }).map((n) => 'a line of words\n'.repeat(n)),
        fc.constantFrom('<|endoftext|>', '/path/to/x', '\u00a0'),
      ),
      { minLength: 1, maxLength: 12 },
    )
    .map((parts) => parts.join(''))
    .filter((s) => s.length > 3000);

  test('pages reassemble exactly, each answer within the cap, at an exact count', async () => {
    await fc.assert(
      fc.asyncProperty(hugeArb, async (content) => {
        const made = await okRun(owner, 'create_binding', { name: 'Paged', summary: 'S', content }, CAP);
        const id = made.binding.id;
        const { content: got, pages } = await readAll(owner, 'get_binding', { id });
        expect(got).toBe(content);
        if (made.binding.contentTokenCount > CAP) expect(pages).toBeGreaterThan(1);
      }),
      { numRuns: numRuns(8) },
    );
  }, 60_000);

  test('splitPages: whole lines, exact reassembly, every rendered page within its budget', async () => {
    const tokens = await testCounter();
    await fc.assert(
      fc.property(hugeArb, fc.integer({ min: 100, max: 2_000 }), (content, pageTokens) => {
        const fence = newFence(content);
        const pages = splitPages(content, pageTokens, tokens, fence);
        expect(pages.join('')).toBe(content);
        // Below 64 tokens of text a page keeps 64, plus its fence lines (at most 12 hex digits each).
        pages.forEach((p, i) =>
          expect(exact(renderContent(p, fence, { index: i + 1, count: pages.length }))).toBeLessThanOrEqual(Math.max(pageTokens, 64 + 40)),
        );
      }),
      { numRuns: numRuns(40) },
    );
  }, 60_000);

  test('a cursor belongs to one version of one binding', async () => {
    const content = 'a line of words\n'.repeat(600);
    const made = await okRun(owner, 'create_binding', { name: 'Versioned', summary: 'S', content }, CAP);
    const id = made.binding.id;
    const p1 = await okRun(owner, 'get_binding', { id, tier: '2' }, CAP);
    const cursor = p1.binding.page.nextCursor;
    expect(cursor).toBeString();
    await okRun(owner, 'update_binding', { id, content: `${content}more\n` }, CAP);
    const stale = await run(owner, 'get_binding', { id, tier: '2', cursor }, CAP);
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toContain('cursor');
    // The old version still pages with its own cursor.
    const old = await okRun(owner, 'get_version', { id, version: 1, tier: '2', cursor }, CAP);
    expect(old.binding.page.index).toBe(2);
    const other = await okRun(owner, 'create_binding', { name: 'Other', summary: 'S', content }, CAP);
    const wrong = await run(owner, 'get_binding', { id: other.binding.id, tier: '2', cursor }, CAP);
    expect(wrong.isError).toBe(true);
  });
});
