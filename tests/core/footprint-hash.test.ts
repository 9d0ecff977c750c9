// The synchronous SHA-256 the footprint hashes definitions with, against node:crypto and the async one.
import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sha256HexSync } from '../../core/footprint/hash.ts';
import { sha256Hex } from '../../core/ids.ts';
import { numRuns } from '../property.ts';

describe('sha256HexSync', () => {
  test('known vectors (FIPS 180-2), including the padding edge at 55/56/64 bytes', () => {
    expect(sha256HexSync('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256HexSync('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const n of [55, 56, 63, 64, 65, 119, 120])
      expect(sha256HexSync('a'.repeat(n))).toBe(createHash('sha256').update('a'.repeat(n)).digest('hex'));
  });

  test('equals node:crypto and the async Web Crypto sha256Hex on any text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 300 }), async (text) => {
        const sync = sha256HexSync(text);
        expect(sync).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
        expect(sync).toBe(await sha256Hex(text));
      }),
      { numRuns: numRuns(200) },
    );
  });
});
