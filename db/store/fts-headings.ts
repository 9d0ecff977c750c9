import { atxHeading } from '../text/atx.ts';

// Heading text for the search index's `headings` column. The db layer cannot import core (where
// splitSections lives), so this is a small fence-aware extractor of ATX and setext headings; it only
// feeds ranking, and the section a hit shows is chosen in core with splitSections.

const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The headings of a Markdown text, one per line, outside fenced code. */
export function headingsOf(content: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  let prev = '';
  for (const raw of content.split('\n')) {
    const text = raw.replace(/\r$/, '');
    const f = FENCE.exec(text);
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length) fence = undefined;
      prev = '';
      continue;
    }
    if (f) {
      fence = f[1]!;
      prev = '';
      continue;
    }
    const atx = atxHeading(text);
    if (atx?.spaced) out.push(atx.text);
    // A setext underline under a plain text line (not a list item or a table row) makes it a heading.
    else if (SETEXT.test(text) && prev.trim() && !/^\s*(?:[-*+]\s|\||>)/.test(prev)) out.push(prev.trim());
    prev = atx ? '' : text;
  }
  return out.join('\n');
}
