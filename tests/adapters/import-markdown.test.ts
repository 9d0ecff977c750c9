// parseMarkdownDoc reads structure from markdown-it's tokens: cases a line-by-line reading got wrong.
import { describe, expect, test } from 'bun:test';
import { parseMarkdownDoc } from '../../core/services/import.ts';

describe('parseMarkdownDoc on markdown-it tokens', () => {
  test('link reference definitions are not the summary', () => {
    const doc = parseMarkdownDoc(
      '# Tool\n\n[npm-url]: https://npmjs.org/package/tool\n[ci-url]: https://ci.example/tool\n\nDoes one thing well.\n',
      't.md',
    );
    expect(doc).toMatchObject({ name: 'Tool', summary: 'Does one thing well.' });
  });

  test('indented code is neither a heading nor the summary', () => {
    const doc = parseMarkdownDoc('Intro line.\n\n    # not a heading\n    code\n\n## Real\n', 'c.md');
    // The one heading named the document, so it is not also a section (core/services/card.ts).
    expect(doc).toMatchObject({ name: 'Real', summary: 'Intro line.', keyPoints: [] });
  });

  test('an HTML heading line names the document; HTML text can summarise it', () => {
    const doc = parseMarkdownDoc(
      '<div align="center">\n<h1>Gizmo</h1>\n<p>Small gizmos for everyone.</p>\n</div>\n\n## Options\n\nPass a size in pixels.\n',
      'g.md',
    );
    expect(doc).toMatchObject({ name: 'Gizmo', summary: 'Small gizmos for everyone.', keyPoints: ['Options'] });
  });

  test('headings inside an unclosed HTML comment are hidden, as a renderer hides them', () => {
    const doc = parseMarkdownDoc('# Shown\n\nBody.\n\n<!--\n## Hidden\n', 'h.md');
    expect(doc).toMatchObject({ name: 'Shown', keyPoints: [] });
  });

  test('a list before any paragraph summarises as its items on one line; tables are skipped', () => {
    const doc = parseMarkdownDoc('# L\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- fast\n- small\n', 'l.md');
    expect(doc.summary).toBe('fast; small');
  });

  test('a quote with several paragraphs gives its first one', () => {
    const doc = parseMarkdownDoc('# Q\n\n> First said.\n>\n> Then more.\n', 'q.md');
    expect(doc.summary).toBe('First said.');
  });
});
