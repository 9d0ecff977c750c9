// The token counter against js-tiktoken's own encoder, on real text, for both encodings; and the
// additivity that lets responses reuse stored counts (joinPieces) checked as a property.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { createTiktokenCounter, type TokenizerName } from '../../core/tokens/counter.ts';
import { isSafeSeam, joinPieces, line, type Piece } from '../../core/tokens/doc.ts';
import { numRuns } from '../property.ts';

const ROOT = join(import.meta.dir, '..', '..');

/** Real text of many kinds: Markdown, TypeScript, JSON, licences, from the installed packages and this repo. */
function realTexts(): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < 3 && !entry.name.startsWith('.')) walk(path, depth + 1);
      else if (entry.isFile() && /\.(md|ts|json)$|^LICENSE$/i.test(entry.name) && statSync(path).size < 40_000)
        out.push(readFileSync(path, 'utf8'));
    }
  };
  walk(join(ROOT, 'node_modules'), 0);
  walk(join(ROOT, 'core'), 0);
  // A spread of ~150 files keeps the run to a few seconds while covering every kind of file.
  const step = Math.max(1, Math.floor(out.length / 150));
  return out.filter((_, i) => i % step === 0);
}

const texts = realTexts();
const tricky = [
  '',
  ' ',
  '\n\n\n',
  'Hello, world!',
  "It's the user's token; they'll count it. I'M SURE WE'VE DONE IT",
  '    indented code\n\tand tabs\r\nand CRLF\r\n',
  '日本語のテキストと中文的文本，还有한국어 텍스트.',
  'emoji 👩‍👩‍👧‍👦 🏳️‍🌈 and flags 🇫🇷🇩🇪 with skin tones 👍🏽',
  'numbers 1234567890 3.14159 1e10 0xdeadbeef',
  'a/b/c //comment /* block */ https://example.com/a/b?c=d#e',
  'x'.repeat(5000),
  ' '.repeat(300) + 'end',
  'mixed Ünïcödé naïve café résumé — “quotes” ‘single’ … ellipsis',
];

const references: Record<TokenizerName, Tiktoken> = { o200k_base: new Tiktoken(o200k), cl100k_base: new Tiktoken(cl100k) };

for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
  describe(`TokenCounter ${encoding}`, () => {
    const counter = createTiktokenCounter(encoding);
    const reference = references[encoding];

    test('refuses to count before load()', () => {
      expect(() => createTiktokenCounter(encoding).count('x')).toThrow(/before load/);
    });

    test(`equals encode().length on ${texts.length} real files and tricky strings`, async () => {
      await counter.load();
      expect(texts.length).toBeGreaterThan(50);
      let total = 0;
      const mismatches: string[] = [];
      for (const text of [...texts, ...tricky]) {
        const expected = reference.encode(text, [], []).length;
        const got = counter.count(text);
        total += got;
        if (got !== expected) mismatches.push(`${JSON.stringify(text.slice(0, 60))}: ${got} ≠ ${expected}`);
      }
      expect(mismatches).toEqual([]);
      expect(total).toBeGreaterThan(100_000);
    }, 30_000);

    test('counts the same text the same way twice (chunk cache)', async () => {
      await counter.load();
      const text = texts[3]!;
      expect(counter.count(text)).toBe(counter.count(text));
      expect(counter.count(text)).toBe(reference.encode(text, [], []).length);
    });

    test('special-token text is counted as plain text, never as a special token', async () => {
      await counter.load();
      for (const text of ['<|endoftext|>', 'before <|endoftext|> after', '<|endoftext|><|endoftext|>\n<|endoftext|>']) {
        const plain = reference.encode(text, [], []).length;
        expect(counter.count(text)).toBe(plain);
        // As plain text "<|endoftext|>" is several tokens, not the single special token.
        expect(plain).toBeGreaterThan(reference.encode(text, 'all').length);
      }
      expect(counter.count('<|endoftext|>')).toBeGreaterThan(1);
    });

    test('long chunks (the heap merge) count exactly like js-tiktoken', async () => {
      await counter.load();
      const letters = (n: number, seed: number) =>
        Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i * seed + (i >> 3)) % 26))).join('');
      const long = [
        letters(400, 7),
        letters(1500, 13),
        'ab'.repeat(300),
        'x'.repeat(1200),
        ' '.repeat(900),
        '日本語'.repeat(200),
        'é'.repeat(500),
        '=-'.repeat(400),
      ];
      for (const text of long) expect(counter.count(text)).toBe(reference.encode(text, [], []).length);
    }, 30_000);

    test('a megabyte without a space is counted in well under a few seconds (no quadratic merge)', async () => {
      await counter.load();
      const started = performance.now();
      const n = counter.count('q'.repeat(1_000_000));
      expect(n).toBeGreaterThan(100_000);
      expect(performance.now() - started).toBeLessThan(4000);
    });

    test('load() is shared: concurrent calls resolve once to a working counter', async () => {
      const fresh = createTiktokenCounter(encoding);
      const a = fresh.load();
      const b = fresh.load();
      expect(a).toBe(b);
      await Promise.all([a, b]);
      expect(fresh.count('hello world')).toBe(reference.encode('hello world').length);
    });
  });
}

describe('joinPieces: counts add up exactly at safe seams', () => {
  const reference = references.o200k_base;
  const counter = createTiktokenCounter('o200k_base');
  const exact = (text: string) => reference.encode(text, [], []).length;

  // Characters that stress the pre-tokenizer: letters, digits, punctuation runs, "/", apostrophes,
  // every kind of white space, CJK and emoji.
  const unit = fc.constantFrom(
    'a',
    'Z',
    'é',
    'ß',
    '7',
    '42',
    ' ',
    '  ',
    '\t',
    '\n',
    '\r\n',
    '/',
    '//',
    '.',
    '!?',
    "'s",
    "'T",
    '-',
    '_',
    '#',
    '###',
    '*',
    '`',
    '<',
    '>',
    '日',
    '本',
    '👍',
    '🏽',
    '\u00a0',
    '\u2028',
    'the',
    ' word',
    'Word',
  );
  const body = fc.array(unit, { maxLength: 40 }).map((a) => a.join(''));
  // A piece as responses build them: text ending with a newline, mostly starting where a seam is safe.
  const start = fc.constantFrom('a', 'Z', 'é', '7', '.', '!', "'", '-', '#', '*', '`', '<', '日', '👍', '|', '(', '/', ' ');
  const piece = fc.tuple(start, body).map(([s, t]) => `${s}${t}\n`);

  test('total equals a recount whenever every seam is safe', async () => {
    await counter.load();
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), (texts) => {
        const safe = texts.every((t, i) => i === 0 || isSafeSeam(texts[i - 1]!, t));
        fc.pre(safe);
        // Stored counts for every piece: joinPieces must simply add them.
        const pieces: Piece[] = texts.map((t) => ({ text: t, tokens: exact(t) }));
        const joined = joinPieces(pieces, counter);
        expect(joined.text).toBe(texts.join(''));
        expect(joined.tokens).toBe(exact(joined.text));
      }),
      { numRuns: numRuns(400) },
    );
  });

  test('total stays exact at unsafe seams too (the neighbours are merged and recounted)', async () => {
    await counter.load();
    fc.assert(
      fc.property(
        fc.array(body, { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        (texts, stored) => {
          const pieces: Piece[] = texts.map((t, i) => (stored[i] ? { text: t, tokens: exact(t) } : { text: t }));
          const joined = joinPieces(pieces, counter);
          expect(joined.text).toBe(texts.join(''));
          expect(joined.tokens).toBe(exact(joined.text));
        },
      ),
      { numRuns: numRuns(400) },
    );
  });

  test('framing lines end with a newline and count like the text they hold', async () => {
    await counter.load();
    const pieces = [line('## Heading'), line('Body text.\n'), { text: 'stored\n', tokens: exact('stored\n') }];
    expect(pieces.every((p) => p.text.endsWith('\n'))).toBe(true);
    const joined = joinPieces(pieces, counter);
    expect(joined.text).toBe('## Heading\nBody text.\nstored\n');
    expect(joined.tokens).toBe(exact(joined.text));
  });
});
