// oneLine (core/text.ts) is read in one pass; a card's stored token counts depend on its output, so it
// must answer exactly as the pattern it replaced.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { oneLine } from '../../core/text.ts';
import { numRuns } from '../property.ts';

// The pattern oneLine replaced, kept here as the definition it must agree with.
const byPattern = (s: string) => s.replace(/\s*[\n\r\v\f\u0085\u2028\u2029]\s*/g, ' ').trim();

describe('oneLine', () => {
  test('agrees with the pattern on every text of blanks, breaks, U+0085 and letters (property)', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r', '\v', '\u0085', '\u2028', '\u00a0'), { maxLength: 24 })
      .map((c) => c.join(''));
    fc.assert(
      fc.property(text, (s) => {
        expect(oneLine(s)).toBe(byPattern(s));
      }),
      { numRuns: numRuns(5000) },
    );
  });

  test('a run of a million blanks is read at once', () => {
    // The pattern re-read the run from each blank: 80,000 took 4.5 s, a million would take about twelve minutes.
    expect(oneLine(`a${' '.repeat(1_000_000)}b\nc`)).toBe(`a${' '.repeat(1_000_000)}b c`);
  });
});
