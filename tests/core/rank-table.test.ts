// The typed-array rank table against an independent reading of js-tiktoken's rank files (atob per
// token into a Map, as the table was built before): every token of both encodings maps to its rank,
// read whole or as a span of a longer string, and byte strings that are no token map to -1. Rows given
// out of rank order land in rank order; a gap in the ranks is refused.
import { describe, expect, test } from 'bun:test';
import o200k from 'js-tiktoken/ranks/o200k_base';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { loadRanks } from '../../core/tokens/rank-file.ts';
import { RankTable } from '../../core/tokens/rank-table.ts';

/** Token bytes (binary string) → rank, read with atob and split: the reference. */
function reference(bpeRanks: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const row of bpeRanks.split('\n')) {
    if (!row) continue;
    const [, offset, ...tokens] = row.split(' ');
    tokens.forEach((t, i) => out.set(atob(t), Number(offset) + i));
  }
  return out;
}

for (const [name, file] of [
  ['o200k_base', o200k],
  ['cl100k_base', cl100k],
] as const) {
  describe(`rank table: ${name}`, () => {
    const expected = reference(file.bpe_ranks);
    const table = loadRanks(file.bpe_ranks);

    test('holds every token, each at its rank, whole and as a span inside a longer string', () => {
      expect(table.size).toBe(expected.size);
      let wrong = 0;
      let wrongSpan = 0;
      for (const [bytes, rank] of expected) {
        if (table.rank(bytes) !== rank) wrong++;
        if (table.rank(`\u00ff${bytes}\u0000`, 1, bytes.length + 1) !== rank) wrongSpan++;
      }
      expect({ wrong, wrongSpan }).toEqual({ wrong: 0, wrongSpan: 0 });
    });

    test('byte strings that are no token are -1: extended tokens, cut tokens, the empty span', () => {
      let checked = 0;
      const misses: string[] = [];
      for (const bytes of expected.keys()) {
        for (const other of [`${bytes}\u0000\u00ff`, `\u00fe\u00fe${bytes}`, bytes.slice(0, -1)]) {
          if (other.length === 0 || expected.has(other)) continue;
          checked++;
          if (table.rank(other) !== -1) misses.push(other);
        }
        if (checked > 60_000) break;
      }
      expect(checked).toBeGreaterThan(60_000);
      expect(misses).toEqual([]);
      expect(table.rank('abc', 1, 1)).toBe(-1);
    });
  });
}

describe('rank table layout', () => {
  const single = Array.from({ length: 256 }, (_, b) => btoa(String.fromCharCode(b)));

  test('rows given out of rank order are read into rank order', () => {
    const table = loadRanks(`! 256 ${btoa('ab')} ${btoa('the')}\n! 0 ${single.join(' ')}`);
    expect(table.size).toBe(258);
    expect([table.rank('ab'), table.rank('the'), table.rank('a'), table.rank('\u0000')]).toEqual([256, 257, 97, 0]);
  });

  test('a gap in the ranks is refused, naming the missing ranks and the row after them', () => {
    expect(() => loadRanks(`! 0 ${single.join(' ')}\n! 300 ${btoa('ab')}`)).toThrow(/rank table: ranks 256–299 have no token \(row 2/);
  });

  test('a table built from a pool and starts, and one made from its parts, find the same ranks; a duplicate token is reported', () => {
    const pool = new Uint8Array([97, 98, 99, 97, 98]);
    const table = RankTable.build(pool, new Uint32Array([0, 2, 3, 5]));
    const handed = new RankTable(table.parts());
    expect([handed.rank('ab'), handed.rank('c'), handed.rank('abc')]).toEqual([0, 1, -1]);
    expect([table.rank('ab'), table.rank('c'), table.rank('abc')]).toEqual([0, 1, -1]);
    expect(table.duplicate).toBe(2);
  });
});
