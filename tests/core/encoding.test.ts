// The shared encodings (core/encoding.ts) against Node's own base64url, and the constant-time compare.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { b64url, constantTimeEqual, fromB64url, ID_ALPHABET, randomIdChars } from '../../core/encoding.ts';
import { newId } from '../../core/ids.ts';
import { numRuns } from '../property.ts';

describe('core/encoding', () => {
  test('b64url equals Buffer base64url and round-trips through fromB64url', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = b64url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64url'));
        expect([...fromB64url(text)]).toEqual([...bytes]);
      }),
      { numRuns: numRuns(100) },
    );
  });

  test('ids and key id parts use the id alphabet only', () => {
    expect(ID_ALPHABET).toHaveLength(32);
    expect(randomIdChars(16)).toMatch(new RegExp(`^[${ID_ALPHABET}]{16}$`));
    expect(newId('bnd')).toMatch(/^bnd_[0-9a-hjkmnp-tv-z]{16}$/);
  });

  test('constantTimeEqual is string equality, lengths included', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => expect(constantTimeEqual(a, b)).toBe(a === b)),
      { numRuns: numRuns(100) },
    );
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('abc\u0000', 'abc')).toBe(false);
  });
});
