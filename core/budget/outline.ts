import type { TokenCounter } from '../tokens/counter.ts';
import { clip, oneLine } from './card-cut.ts';
import { fenced } from './render.ts';
import { splitSections } from './sections.ts';
import { HAS_TEXT, sectionBody } from '../search/score.ts';

/** A section as stored with its version: its span, heading and the exact tokens of its rendered block. */
export interface StoredSection {
  id: string;
  heading: string;
  level: number;
  start: number;
  end: number;
  /** Exact tokens of `renderSection` for it (what `get_binding {section}` adds to the card). */
  tokens: number;
}

/** The sections of a version and how many of them the outline lists (chosen by tokens at write time). */
export interface SectionIndex {
  sections: StoredSection[];
  shown: number;
}

/** Tokens the tier-1.5 outline may take; the sections past it are summed up on one line. */
export const OUTLINE_TOKEN_BOUND = 240;
/** At most this many sections are listed, however short their lines. */
const OUTLINE_MAX_ENTRIES = 24;
/** Characters of a heading an outline line shows; the section read shows it whole. */
const OUTLINE_HEADING_CHARS = 80;

/** Compact JSON for the `sections` column: `{ k, s: [[id, level, start, end, tokens, heading], …] }`. */
export function encodeSections(index: SectionIndex): string {
  return JSON.stringify({ k: index.shown, s: index.sections.map((s) => [s.id, s.level, s.start, s.end, s.tokens, s.heading]) });
}

/** The stored index, or undefined for rows written before sections existed (''). */
export function parseSections(text: string | undefined): SectionIndex | undefined {
  if (!text) return undefined;
  const raw = JSON.parse(text) as { k: number; s: [string, number, number, number, number, string][] };
  return { shown: raw.k, sections: raw.s.map(([id, level, start, end, tokens, heading]) => ({ id, level, start, end, tokens, heading })) };
}

/** Headings from the top level down to section `i` (rebuilt from levels, as splitSections made them). */
export function sectionPath(sections: readonly StoredSection[], i: number): string[] {
  return pathsOf(sections).headings[i]!;
}

/** The section's place by ids (slugs of [a-z0-9-]): headings are author text and stay inside fences. */
function pathIds(sections: readonly StoredSection[], i: number): string {
  return pathsOf(sections).ids[i]!;
}

const PATHS = new WeakMap<readonly StoredSection[], { headings: string[][]; ids: string[] }>();

/**
 * Every section's heading path and id path, in one pass over the levels (a stack at most six deep),
 * kept per sections array: asked section by section from the start, a document of 100,000 headings
 * took a minute to write and as long for each search that quoted it.
 */
function pathsOf(sections: readonly StoredSection[]): { headings: string[][]; ids: string[] } {
  const known = PATHS.get(sections);
  if (known) return known;
  const headings: string[][] = [];
  const ids: string[] = [];
  const named: StoredSection[] = [];
  const all: StoredSection[] = [];
  for (const s of sections) {
    while (all.length && all[all.length - 1]!.level >= s.level) all.pop();
    all.push(s);
    ids.push(all.map((x) => x.id).join(' › '));
    if (s.level === 0) {
      headings.push([]);
      continue;
    }
    while (named.length && named[named.length - 1]!.level >= s.level) named.pop();
    named.push(s);
    headings.push(named.map((x) => x.heading));
  }
  const paths = { headings, ids };
  PATHS.set(sections, paths);
  return paths;
}

/**
 * A section as a read shows it: a line naming it and its path by section ids, then its text (which
 * starts with its heading line) between fence lines (the version's fence, absent from the content).
 * `page` when it comes in parts; 'cut' for the part of it a budget holds.
 */
export function renderSection(
  sections: readonly StoredSection[],
  i: number,
  text: string,
  fence: string,
  page?: { index: number; count: number } | 'cut',
): string {
  const s = sections[i]!;
  const attrs = ` section="${s.id}"${page === 'cut' ? ` cut="of ${s.tokens}"` : page ? ` page="${page.index}/${page.count}"` : ''}`;
  // A cut is a read squeezed into a small budget, of a section the caller named: the fence alone names
  // it (and what the whole costs), so every token left goes to its text.
  if (page === 'cut') return fenced(text, fence, attrs);
  const only = page === undefined ? headingOnlyRead(sections, i, text) : '';
  return only || `${sectionHead(sections, i)}\n${fenced(text, fence, attrs)}`;
}

const sectionHead = (sections: readonly StoredSection[], i: number) =>
  `Section "${sections[i]!.id}" (${i + 1} of ${sections.length}), path ${pathIds(sections, i)}:`;

/**
 * The read of a section that is only its heading: where its text is (`subsections`, naming up to
 * `most`); the heading itself is in the path and the outline. '' for any other section.
 */
export function headingOnlyRead(sections: readonly StoredSection[], i: number, text: string, most = SUBSECTIONS_NAMED): string {
  const under = subsections(sections, i, text, most);
  return under ? `${sectionHead(sections, i)} ${under}` : '';
}

/** Subsections a heading-only read names, at most. */
export const SUBSECTIONS_NAMED = 12;

/**
 * For a section that is only its heading ("## API" over "### is(value)", …): a line naming the
 * subsections its text is in (up to `most`), with what each costs, so a read never comes back with
 * nothing to go on. Their counts are known first (countSections counts from the last section up). ''
 * for any other section.
 */
function subsections(sections: readonly StoredSection[], i: number, text: string, most = SUBSECTIONS_NAMED): string {
  const s = sections[i]!;
  if (s.level === 0 || HAS_TEXT.test(sectionBody(text, { start: 0, end: text.length, level: s.level }))) return '';
  let end = i + 1;
  while (end < sections.length && sections[end]!.level > s.level) end++;
  const under = sections.slice(i + 1, end);
  if (under.length === 0) return '';
  const top = under.reduce((m, x) => Math.min(m, x.level), Number.POSITIVE_INFINITY);
  const named = under.filter((x) => x.level === top).slice(0, most);
  const rest = under.length - named.length;
  const list = named.map((x) => `§${x.id} (${x.tokens} tokens)`).join(', ');
  return `only a heading; its text is in ${list}${rest ? `, and ${rest} more section${rest === 1 ? '' : 's'} under it` : ''}.\n`;
}

function outlineHead(n: number, total: number): string {
  return `Outline: ${n} sections, ${total.toLocaleString('en-US')} tokens in all (get_binding with section: "<id>" reads one):\n`;
}

function outlineLine(s: StoredSection): string {
  const heading = s.heading ? clip(oneLine(s.heading), OUTLINE_HEADING_CHARS) : '(before the first heading)';
  return `- ${s.id} · ${heading} · ${s.tokens} tokens\n`;
}

function moreLine(sections: readonly StoredSection[], from: number): string {
  const rest = sections.slice(from);
  const tokens = rest.reduce((n, s) => n + s.tokens, 0);
  return `- …and ${rest.length} more section${rest.length === 1 ? '' : 's'}, ${tokens.toLocaleString('en-US')} tokens\n`;
}

/**
 * The tier-1.5 outline block: '' for content with fewer than two sections (the preview says it all).
 * The listed lines hold headings (author text), so they sit between the version's fence lines.
 */
export function renderOutline(index: SectionIndex, fence: string): string {
  const { sections, shown } = index;
  if (sections.length < 2) return '';
  const total = sections.reduce((n, s) => n + s.tokens, 0);
  const listed = sections.slice(0, shown).map(outlineLine).join('');
  const body = shown > 0 ? fenced(listed.slice(0, -1), fence, ' outline') : '';
  return `${outlineHead(sections.length, total)}${body}${shown < sections.length ? moreLine(sections, shown) : ''}`;
}

/** The outline as structured content shows it: the listed sections, and the rest summed up. */
export function outlineObject(index: SectionIndex) {
  const { sections, shown } = index;
  const rest = sections.slice(shown);
  return {
    outline: sections.slice(0, shown).map((s) => ({ id: s.id, heading: s.heading, tokens: s.tokens })),
    ...(rest.length ? { outlineRest: { sections: rest.length, tokens: rest.reduce((n, s) => n + s.tokens, 0) } } : {}),
  };
}

/**
 * Splits content into sections and counts, once at write time, each section's block and the outline.
 * Outline lines end with "\n" and the next starts with "-", so their counts add exactly: the longest
 * prefix within OUTLINE_TOKEN_BOUND (with its summary line) is found from per-line counts, and the
 * block is then counted whole.
 */
export function countSections(content: string, fence: string, tokens: TokenCounter): { index: SectionIndex; outlineBlockTokens: number } {
  const spans = splitSections(content);
  const sections: StoredSection[] = spans.map((s) => ({
    id: s.id,
    heading: s.heading,
    level: s.level,
    start: s.start,
    end: s.end,
    tokens: 0,
  }));
  // From the last up: a heading-only section's read names its subsections and their counts.
  for (let i = sections.length - 1; i >= 0; i--) {
    const s = sections[i]!;
    s.tokens = tokens.count(renderSection(sections, i, content.slice(s.start, s.end), fence));
  }
  if (sections.length < 2) return { index: { sections, shown: sections.length }, outlineBlockTokens: 0 };
  const max = Math.min(sections.length, OUTLINE_MAX_ENTRIES);
  const total = sections.reduce((n, s) => n + s.tokens, 0);
  // The fence lines are counted with the heading line; every seam here is safe, so the parts add up.
  const frame =
    tokens.count(`${outlineHead(sections.length, total)}<content fence="${fence}" outline>\n`) +
    tokens.count(`</content fence="${fence}">\n`);
  const prefix = [frame];
  for (let k = 0; k < max; k++) prefix.push(prefix[k]! + tokens.count(outlineLine(sections[k]!)));
  let shown = max;
  while (shown > 0 && prefix[shown]! + (shown < sections.length ? tokens.count(moreLine(sections, shown)) : 0) > OUTLINE_TOKEN_BOUND)
    shown--;
  let index = { sections, shown };
  let outlineBlockTokens = tokens.count(renderOutline(index, fence));
  // Should a tokenizer merge across a seam after all, one entry fewer keeps the bound.
  while (outlineBlockTokens > OUTLINE_TOKEN_BOUND && index.shown > 0)
    outlineBlockTokens = tokens.count(renderOutline((index = { sections, shown: index.shown - 1 }), fence));
  return { index, outlineBlockTokens };
}
