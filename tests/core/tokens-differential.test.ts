// Differential tests of the token counter against js-tiktoken itself, on generated adversarial text:
// emoji sequences, combining marks, CJK, right-to-left scripts, lone surrogates, long repeated runs,
// white-space runs and digits, for both encodings. The counter exposes counts only (no token ids), so
// counts are what must be equal. A second property feeds whole strings to the byte-pair merge as one
// chunk (bypassing the pre-tokenizer) so both merge paths (quadratic and heap) meet inputs the
// pre-tokenizer would normally cut short. And `loadRanks` must refuse a rank table it cannot read.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { bpeCount } from '../../core/tokens/bpe.ts';
import { loadRanks } from '../../core/tokens/rank-file.ts';
import { createTiktokenCounter } from '../../core/tokens/counter.ts';
import { numRuns } from '../property.ts';

const tables = { o200k_base: o200k, cl100k_base: cl100k } as const;

/** Pieces that stress the pre-tokenizer and the merge: every one is a string fast-check mixes freely. */
const ADVERSARIAL = [
  // emoji: ZWJ families, flags, skin tones, keycaps, variation selectors
  '👩‍👩‍👧‍👦',
  '🏳️‍🌈',
  '🇫🇷',
  '🇩🇪',
  '👍🏽',
  '1️⃣',
  '❤️',
  '🫠',
  '😀',
  // combining marks, stacked and alone
  'e\u0301',
  'a\u0308\u0323',
  '\u0301',
  '\u0336\u0336\u0336',
  'Z\u0351\u0352\u0353\u0354',
  'ñ',
  'n\u0303',
  // CJK, kana, Hangul (precomposed and jamo)
  '日本語',
  '中文',
  '한국어',
  '\u1100\u1161\u11a8',
  'カタカナ',
  '々',
  '〇',
  // right-to-left: Arabic with harakat, Hebrew with niqqud, bidi controls
  'مَرْحَبًا',
  'שָׁלוֹם',
  '\u200f',
  '\u202e',
  '\u2067',
  '\u061c',
  // lone and swapped surrogates (UTF-8 encoding replaces them with U+FFFD on both sides)
  '\ud800',
  '\udfff',
  '\udc00\ud800',
  '\ud83d',
  // zero-width and odd white space
  '\u200b',
  '\u200d',
  '\ufeff',
  '\u00a0',
  '\u3000',
  '\u2028',
  '\u2029',
  '\v',
  '\f',
  '\u0085',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\n\n',
  // digits of several scripts, fractions, signs
  '0',
  '42',
  '1234567',
  '٣٤٥',
  '१२३',
  '①',
  '½',
  '-',
  '+',
  '.',
  ',',
  'e10',
  // letters, case changes, contractions the pattern special-cases
  'a',
  'Z',
  'the',
  'The',
  'THE',
  "'s",
  "'S",
  "'ll",
  "'LL",
  "'ve",
  '’s',
  'ß',
  'ǅ',
  'İ',
  // punctuation runs, slashes and the special-token text (counted as plain text)
  '/',
  '//',
  '!?',
  '...',
  '—',
  '“',
  '```',
  '<|endoftext|>',
  '<|endofprompt|>',
  '\\',
  '\u0000',
  '\u007f',
];

const piece = fc.constantFrom(...ADVERSARIAL);
/** Any UTF-16 code unit, surrogate halves included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
/** Any code point outside the surrogate range. */
const codePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((c) => c < 0xd800 || c > 0xdfff)
  .map((c) => String.fromCodePoint(c));
/** A long run of one piece (the merge's worst case: many equal pairs) or of a short mix. */
const run = fc
  .tuple(
    fc.oneof(
      piece,
      fc.array(piece, { minLength: 1, maxLength: 3 }).map((a) => a.join('')),
    ),
    fc.integer({ min: 2, max: 120 }),
  )
  .map(([p, n]) => p.repeat(n));
const text = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: piece },
      { weight: 2, arbitrary: codeUnit },
      { weight: 2, arbitrary: codePoint },
      { weight: 1, arbitrary: run },
    ),
    { maxLength: 40 },
  )
  .map((a) => a.join(''));

for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
  describe(`differential: ${encoding} against js-tiktoken`, () => {
    const table = tables[encoding];
    const reference = new Tiktoken(table);
    // The same table with a pattern that keeps the whole text as one chunk: js-tiktoken's merge alone.
    const wholeChunk = new Tiktoken({ ...table, pat_str: '[\\s\\S]+' });
    const counter = createTiktokenCounter(encoding);
    const ranks = loadRanks(table.bpe_ranks);

    test('count(text) equals encode(text).length on generated adversarial text', async () => {
      await counter.load();
      fc.assert(
        fc.property(text, (t) => {
          expect(counter.count(t)).toBe(reference.encode(t, [], []).length);
        }),
        { numRuns: numRuns(600) },
      );
    }, 60_000);

    test('the byte-pair merge alone equals js-tiktoken on whole strings as one chunk (both merge paths)', () => {
      const chunk = fc
        .array(fc.oneof({ weight: 4, arbitrary: piece }, { weight: 1, arbitrary: codeUnit }, { weight: 1, arbitrary: run }), {
          minLength: 1,
          maxLength: 24,
        })
        .map((a) => a.join(''))
        .filter((s) => new TextEncoder().encode(s).length <= 700);
      fc.assert(
        fc.property(chunk, (c) => {
          expect(bpeCount(c, ranks)).toBe(wholeChunk.encode(c, [], []).length);
        }),
        { numRuns: numRuns(300) },
      );
    }, 60_000);

    test('fixed worst cases: huge runs, long white space, digit runs, marks and emoji without a break', async () => {
      await counter.load();
      const cases = [
        '\u0301'.repeat(2000),
        '👍🏽'.repeat(300),
        '\ud800'.repeat(500),
        ' \t'.repeat(700) + 'x',
        '\n'.repeat(1500) + ' '.repeat(1500),
        '9'.repeat(3001),
        'مَرْحَبًا'.repeat(150),
        '日本'.repeat(700),
        'aB'.repeat(800),
        "'s".repeat(600),
        '<|endoftext|>'.repeat(100),
      ];
      for (const c of cases)
        expect({ c: c.slice(0, 12), n: counter.count(c) }).toEqual({ c: c.slice(0, 12), n: reference.encode(c, [], []).length });
    }, 60_000);
  });
}

describe('loadRanks refuses a table it cannot read', () => {
  // Every single byte (a byte-level merge needs all 256), then two merged tokens.
  const bytes = Array.from({ length: 256 }, (_, b) => btoa(String.fromCharCode(b)));
  const good = `! 0 ${bytes.join(' ')}\n! 256 ${btoa('ab')} ${btoa('the')}`;
  const withRow = (row: string) => `${good}\n${row}`;

  test('reads a well-formed table: offsets per row, tokens in order', () => {
    const ranks = loadRanks(good);
    expect(ranks.size).toBe(258);
    expect(ranks.rank('\u0000')).toBe(0);
    expect(ranks.rank('ÿ')).toBe(255);
    expect(ranks.rank('ab')).toBe(256);
    expect(ranks.rank('the')).toBe(257);
  });

  test.each([
    ['a row without an offset', withRow(`! ${btoa('cd')}`), /row 3.*offset/],
    ['a negative offset', withRow(`! -1 ${btoa('cd')}`), /row 3.*offset/],
    ['an offset that is not a whole number', withRow(`! 258.5 ${btoa('cd')}`), /row 3.*offset/],
    ['a token that is not base64', withRow(`! 258 ${btoa('cd')} not*b64`), /row 3.*token 2/],
    ['a token with a bad length', withRow(`! 258 ${btoa('cd')} Y2Q`), /row 3.*token 2/],
    ['an empty token', withRow(`! 258 ${btoa('cd')}  ${btoa('ef')}`), /row 3.*token 2/],
    ['a row with another marker', withRow(`? 258 ${btoa('cd')}`), /row 3.*"!"/],
    ['a token given twice', withRow(`! 258 ${btoa('ab')}`), /row 3.*twice/],
    ['a rank given twice', withRow(`! 257 ${btoa('cd')}`), /row 3.*rank 257/],
    ['a single byte missing', `! 0 ${bytes.slice(1).join(' ')}`, /byte 0x00/],
    ['a rank too large for the heap merge', withRow(`! ${2 ** 40} ${btoa('cd')}`), /beyond/],
    ['an empty table', '', /empty/],
    ['JSON instead of the compressed table', '{"IQ==": 0}', /row 1/],
  ])('%s', (_, table, message) => {
    expect(() => loadRanks(table)).toThrow(/rank table/);
    expect(() => loadRanks(table)).toThrow(message);
  });

  test('a real table with one token damaged fails and names where', () => {
    const damaged = o200k.bpe_ranks.replace(' IQ== ', ' I?== ');
    expect(damaged).not.toBe(o200k.bpe_ranks);
    expect(() => loadRanks(damaged)).toThrow(/rank table.*row 1, token 1/);
  });

  test('a real table missing one single byte fails: counts would silently come out wrong', () => {
    const missing = cl100k.bpe_ranks.replace(/ AA==(?= )/, '');
    expect(missing).not.toBe(cl100k.bpe_ranks);
    expect(() => loadRanks(missing)).toThrow(/rank table.*byte 0x00/);
  });
});
