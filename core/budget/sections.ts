import { slugify } from '../ids.ts';
import { atxHeading as readAtx } from '../../db/text/atx.ts';

/** One section of a document: from its heading line to the next heading of the same or a higher level. */
export interface SectionSpan {
  /** Short and stable within a version: the heading's slug, `-2`, `-3`… when repeated; `intro` for text before the first heading. */
  id: string;
  /** The heading text (without `#` marks or setext underline); '' for the intro. */
  heading: string;
  /** Headings from the top level down to this one. */
  path: string[];
  /** 1 to 6; 0 for the intro. */
  level: number;
  /** Character offsets into the content: [start, end). A section ends where the next heading starts, whatever its level. */
  start: number;
  end: number;
}

const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ID_CHARS = 40;

/** An ATX heading line's level and text (`## Title ##` → 2, "Title"), or undefined (db/text/atx.ts). */
export function atxHeading(line: string): { level: number; heading: string } | undefined {
  const atx = readAtx(line);
  return atx && { level: atx.level, heading: atx.text.trim() };
}

/** The id a heading's section gets when no other section took it first (an id is this, then -2, -3…). */
export function headingSlug(heading: string): string {
  return slugify(heading).slice(0, ID_CHARS).replace(/-+$/, '');
}

/**
 * Splits Markdown into sections at ATX (`## Title`) and setext (`Title` over `===` / `---`) headings,
 * never inside fenced code blocks. Sections are flat and in order (a section ends at the next heading
 * of any level) so they tile the content exactly: concatenating every span gives the content back.
 * Text before the first heading is the `intro` section (absent when empty or blank).
 */
export function splitSections(content: string): SectionSpan[] {
  const lines = lineStarts(content);
  const heads: { start: number; level: number; heading: string }[] = [];
  let fence: { char: string; len: number } | undefined;
  let paragraphStart: number | undefined; // line index of a paragraph that a setext underline can close
  for (let i = 0; i < lines.length; i++) {
    const text = lineText(content, lines, i);
    const f = FENCE.exec(text);
    if (fence) {
      if (f && f[1]![0] === fence.char && f[1]!.length >= fence.len && f[2]!.trim() === '') fence = undefined;
      continue;
    }
    if (f && !(f[1]![0] === '`' && f[2]!.includes('`'))) {
      fence = { char: f[1]![0]!, len: f[1]!.length };
      paragraphStart = undefined;
      continue;
    }
    const atx = atxHeading(text);
    if (atx) {
      heads.push({ start: lines[i]!, level: atx.level, heading: atx.heading });
      paragraphStart = undefined;
      continue;
    }
    const setext = SETEXT.exec(text);
    if (setext && paragraphStart !== undefined) {
      const heading = Array.from({ length: i - paragraphStart }, (_, k) => lineText(content, lines, paragraphStart! + k).trim()).join(' ');
      heads.push({ start: lines[paragraphStart]!, level: setext[1]![0] === '=' ? 1 : 2, heading });
      paragraphStart = undefined;
      continue;
    }
    if (text.trim() === '') paragraphStart = undefined;
    // Indented code, list items, quotes and tables are not paragraphs a setext underline can turn into a heading.
    else if (paragraphStart === undefined && !/^(?: {4,}|\t| {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)| {0,3}>| {0,3}\|)/.test(text))
      paragraphStart = i;
  }
  const out: SectionSpan[] = [];
  const used = new Map<string, number>();
  const uniqueId = (base: string) => {
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    return n === 1 ? base : `${base.slice(0, ID_CHARS - String(n).length - 1)}-${n}`;
  };
  if ((heads[0]?.start ?? content.length) > 0 && content.slice(0, heads[0]?.start ?? content.length).trim() !== '') {
    out.push({ id: uniqueId('intro'), heading: '', path: [], level: 0, start: 0, end: heads[0]?.start ?? content.length });
  }
  const stack: { level: number; heading: string }[] = [];
  heads.forEach((h, k) => {
    while (stack.length && stack[stack.length - 1]!.level >= h.level) stack.pop();
    stack.push({ level: h.level, heading: h.heading });
    // Headings with no Latin letters or digits (日本語, emoji) slugify to nothing useful: number them.
    const slug = headingSlug(h.heading);
    const base = slug === 'untitled' || slug === '' ? `s${k + 1}` : slug;
    out.push({
      id: uniqueId(base),
      heading: h.heading,
      path: stack.map((s) => s.heading),
      level: h.level,
      start: h.start,
      end: heads[k + 1]?.start ?? content.length,
    });
  });
  // Blank text before the first heading belongs to it, so the spans still tile the whole content.
  if (out.length && out[0]!.start > 0) out[0]!.start = 0;
  return out;
}

function lineStarts(content: string): number[] {
  const starts = [0];
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) if (i + 1 < content.length) starts.push(i + 1);
  return starts;
}

function lineText(content: string, starts: number[], i: number): string {
  const end = i + 1 < starts.length ? starts[i + 1]! - 1 : content.length;
  return content.slice(starts[i]!, end).replace(/\r?\n?$/, '');
}
