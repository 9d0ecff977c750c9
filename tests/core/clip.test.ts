// One clipping function, surrogate-safe, wherever author text is shortened.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { clip } from '../../core/clip.ts';
import { clip as cardClip } from '../../core/budget/card-cut.ts';
import { cutAtWord } from '../../core/services/import.ts';
import { ok, textOf, createTestWorld } from '../helpers.ts';

/** Strings rich in astral characters (surrogate pairs), spaces and plain letters. */
const astral = fc.string({
  unit: fc.oneof(fc.constantFrom('🦓', '𝔘', '😀', ' ', 'a', 'é'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })),
  maxLength: 300,
});

describe('clip', () => {
  test('never splits a surrogate pair, keeps within max, and is a prefix of the text plus "…"', () => {
    fc.assert(
      fc.property(astral, fc.integer({ min: 1, max: 320 }), fc.boolean(), (text, max, word) => {
        const out = clip(text, max, { word });
        expect(out.isWellFormed()).toBe(true);
        expect(out.length).toBeLessThanOrEqual(Math.max(max, 1));
        if (text.length <= max) expect(out).toBe(text);
        else {
          expect(out.endsWith('…')).toBe(true);
          expect(text.startsWith(out.slice(0, -1))).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('the card cut and the import cut go through it (a pair at the cut is kept whole or left out)', () => {
    const text = `${'a'.repeat(9)}🦓tail`;
    // Before: `text.slice(0, 10)` kept the high half of 🦓 alone.
    expect(cardClip(text, 10).isWellFormed()).toBe(true);
    expect(cardClip(text, 10)).toBe(`${'a'.repeat(9)}…`);
    expect(cutAtWord(`${'a'.repeat(8)}🦓 more`, 10)).toBe(`${'a'.repeat(8)}…`);
  });
});

describe('stored outline blocks', () => {
  test('a heading cut in the middle of an astral character reads back well-formed at tier 1.5', async () => {
    const world = await createTestWorld();
    const client = await world.connect('alice');
    // The outline shows 80 characters of a heading: 79 letters then 🦓 straddle the cut.
    const heading = `${'x'.repeat(79)}🦓🦓 and more words after the cut`;
    const content = `# ${heading}\n\nSome text.\n\n# Second\n\nMore text.\n`;
    const created = await ok(client, 'create_binding', { name: 'Astral outline', summary: 'Headings with astral characters.', content });
    const read = await ok(client, 'get_binding', { id: created.binding.id, tier: '1.5' });
    const text = textOf(read._result);
    expect(text.isWellFormed()).toBe(true);
    expect(text).not.toContain('\uFFFD');
    expect(text).toContain(`${'x'.repeat(79)}…`);
    world.close();
  });
});
