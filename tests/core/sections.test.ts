import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { atxHeading, splitSections } from '../../core/budget/sections.ts';
import { atxHeading as readAtx } from '../../db/text/atx.ts';
import { headingsOf } from '../../db/store/fts-headings.ts';
import { numRuns } from '../property.ts';

const ids = (md: string) => splitSections(md).map((s) => s.id);

describe('splitSections', () => {
  test('ATX and setext headings, heading paths, an intro, ids unique and stable', () => {
    const md =
      'Lead text.\n\n# Guide\n\nHello.\n\n## Install\n\nsteps\n\nUsage\n-----\n\nrun it\n\n## Install\n\nagain\n\nTop Two\n=======\n\nend\n';
    const s = splitSections(md);
    expect(s.map((x) => [x.id, x.level, x.path.join(' > ')])).toEqual([
      ['intro', 0, ''],
      ['guide', 1, 'Guide'],
      ['install', 2, 'Guide > Install'],
      ['usage', 2, 'Guide > Usage'],
      ['install-2', 2, 'Guide > Install'],
      ['top-two', 1, 'Top Two'],
    ]);
    expect(s.map((x) => md.slice(x.start, x.end)).join('')).toBe(md);
    expect(md.slice(s[2]!.start, s[2]!.end)).toBe('## Install\n\nsteps\n\n');
  });

  test('never inside fenced code; closing fences must match; lists, quotes and rules are not setext headings', () => {
    const md =
      '# A\n\n````md\n# not a heading\n```\nstill code\n````\n\n~~~\n## nor this\n~~~\n\n- item\n---\n\n> quote\n---\n\ntext\n\n---\n\n# B\n';
    expect(ids(md)).toEqual(['a', 'b']);
  });

  test('headings without Latin letters are numbered; closing #s and no-space headings', () => {
    expect(ids('# 日本語\n\nx\n# Title ##\n\n#NotAHeading\n')).toEqual(['s1', 'title']);
  });

  test('no headings: one intro; empty content: nothing', () => {
    expect(splitSections('just text\n').map((s) => [s.id, s.start, s.end])).toEqual([['intro', 0, 10]]);
    expect(splitSections('')).toEqual([]);
    expect(splitSections('\n\n# X\n').map((s) => [s.id, s.start])).toEqual([['x', 0]]);
  });

  test('spans always tile the content exactly, in order, with unique ids (property)', () => {
    const line = fc.oneof(
      fc.constantFrom(
        '# H',
        '## Sub',
        '### Deep',
        '```',
        '~~~',
        '---',
        '===',
        '',
        'text',
        '- item',
        '> q',
        '    code',
        'Title',
        '#',
        '####### seven',
      ),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), (ls) => {
        const md = ls.join('\n');
        const s = splitSections(md);
        expect(s.map((x) => md.slice(x.start, x.end)).join('')).toBe(md.trim() === '' && s.length === 0 ? '' : md);
        expect(new Set(s.map((x) => x.id)).size).toBe(s.length);
        for (const x of s) expect(x.id.length).toBeLessThanOrEqual(40);
      }),
      { numRuns: numRuns(2000) },
    );
  });
});

describe('ATX headings read in one pass', () => {
  // The pattern the reader replaced, kept here as the definition it must agree with.
  const PATTERN = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
  const byPattern = (line: string) => {
    const m = PATTERN.exec(line);
    return m ? { level: m[1]!.length, heading: (m[2] ?? '').trim() } : undefined;
  };

  // The search index's headings column used its own pattern (text not trimmed, a blank required).
  const INDEX_PATTERN = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
  const forIndex = (line: string) => {
    const atx = readAtx(line);
    return atx?.spaced ? atx.text : undefined;
  };

  test('agrees with the patterns on every line of blanks, #, letters and line breaks (property)', () => {
    const line = fc.array(fc.constantFrom('#', ' ', '\t', 'a', 'C', '\r', '\u2028', '\u00a0'), { maxLength: 14 }).map((c) => c.join(''));
    fc.assert(
      fc.property(line, (l) => {
        expect(atxHeading(l)).toEqual(byPattern(l));
        expect(forIndex(l)).toEqual(INDEX_PATTERN.exec(l)?.[1]);
      }),
      { numRuns: numRuns(5000) },
    );
    for (const l of [
      '# Title',
      '## Title ##',
      '# C#',
      '#  #',
      '# ##',
      '####### seven',
      '#no-space',
      '   ### indented ###   ',
      '    # code',
    ])
      expect(atxHeading(l)).toEqual(byPattern(l));
  });

  test('a heading line of a million blanks is read at once', () => {
    // The pattern re-read the run of blanks from each of its characters: minutes for this line.
    const md = `# a${' '.repeat(1_000_000)}b\n\ntext\n`;
    expect(splitSections(md).map((s) => s.heading)).toEqual([`a${' '.repeat(1_000_000)}b`]);
    expect(headingsOf(md)).toBe(`a${' '.repeat(1_000_000)}b`);
  });
});
