import type { SectionSpan } from '../budget/sections.ts';
import { HAS_TEXT, rankedSpans, scoreSections, searchableBody, termCounts, type RankedSection } from './score.ts';
import { textTerms } from '../../db/text/analyzer.ts';
import { BEFORE_SHARE, holdsValue, units, VALUE_BONUS, withContext, withoutTargets } from './units.ts';

// Which section of a document answers: the shared section scorer (./score.ts), its few best weighed
// again by their best sentence. Search's match and query reads both choose with it. Pure: no I/O.

/** The section that best answers the terms (the shared scorer), or the first with a body when none scores. */
export function bestSection(
  content: string,
  sections: readonly SectionSpan[],
  terms: readonly string[],
  weights?: readonly number[],
  wantValue = false,
): SectionSpan | undefined {
  return chooseSections(content, sections, terms, weights, wantValue).best;
}

/**
 * The best section (as bestSection) and the runner-up with its score as a share of the best's (0–1),
 * when another section scores at all.
 */
export function chooseSections(
  content: string,
  sections: readonly SectionSpan[],
  terms: readonly string[],
  weights?: readonly number[],
  wantValue = false,
): { best: SectionSpan | undefined; runnerUp?: { span: SectionSpan; share: number } } {
  const scores = sectionScores(content, sections, terms, weights, wantValue);
  const order = scores
    .map((s, i) => ({ s, i }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i);
  if (order.length === 0) {
    const first = sections.findIndex((span) => HAS_TEXT.test(searchableBody(content, span)));
    return { best: sections[first < 0 ? 0 : first] };
  }
  const [top, next] = order;
  return {
    best: sections[top!.i],
    ...(next ? { runnerUp: { span: sections[next.i]!, share: next.s / top!.s } } : {}),
  };
}

/** Each section's score as bestSection weighs it (the shared scorer, the best few weighed by their best sentence). */
function sectionScores(
  content: string,
  sections: readonly SectionSpan[],
  terms: readonly string[],
  weights?: readonly number[],
  wantValue = false,
): number[] {
  const ranked = rankedSpans(content, sections);
  return weighBySentence(scoreSections(terms, ranked, weights), ranked, terms, weights, wantValue);
}

/**
 * One document's section scores with its few best weighed again by their best sentence (a copy): the
 * section whose one sentence holds the question answers, not the one that mentions its words most
 * often. Only raises scores, and only the best ones', so the rest keep their order below them.
 */
export function weighBySentence(
  scores: readonly number[],
  sections: readonly Pick<RankedSection, 'body' | 'path'>[],
  terms: readonly string[],
  weights?: readonly number[],
  wantValue = false,
): number[] {
  const out = [...scores];
  const top = scores
    .map((s, i) => ({ s, i }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, SENTENCE_CHECKED);
  for (const { s, i } of top) out[i] = s * (1 + SENTENCE_WEIGHT * bestUnitShare(sections[i]!, terms, weights, wantValue));
  return out;
}

/**
 * How many of the best-scoring sections bestSection weighs by their best sentence, and how much (a
 * section's score times 1 + SENTENCE_WEIGHT × the share). Replaying models' first searches (tuning
 * half), the first call showed the answer 89.1 → 90.1 % (third-party) and 87.9 → 89.7 % (private) at
 * 4 or more; 0.5–2 changed nothing.
 */
const SENTENCE_CHECKED = 3;
const SENTENCE_WEIGHT = 4;

/**
 * What a query word in the section's headings (below the document's title) counts for in a prose
 * sentence that holds another query word itself: "Default: `Infinity`" under "capture([limit])" ›
 * "limit" answers "stack-utils capture default limit" though it says neither "capture" nor "limit".
 * Replaying 1,456 models' first searches: 3 more first calls show the answer (stack-utils, finalhandler,
 * a deletion policy's Legal approval), none fewer, at 0.3 to 1. Counted for code lines too, it lost one
 * (a code line under "Specify a verifier length" beat "Default length for the verifier is 43"); with
 * the title's words, one more ("MCP Inspector Node.js version" quoted the contributing rules).
 */
const PATH_SHARE = 0.5;

/**
 * The weighted share (0–1) of the query's terms held by the body's best sentence, list item or table
 * row; a figure counts as half a term's weight when the question asks for a value, and a term of the
 * section's headings PATH_SHARE of its weight in a prose unit holding a term of its own.
 */
function bestUnitShare(
  section: Pick<RankedSection, 'body' | 'path'>,
  terms: readonly string[],
  weights?: readonly number[],
  wantValue = false,
): number {
  const w = terms.map((_, i) => weights?.[i] ?? 1);
  const total = w.reduce((a, b) => a + b, 0) || 1;
  const path = new Set(textTerms(section.path.slice(1).join(' ')));
  let best = 0;
  for (const u of units(section.body)) {
    const c = termCounts(withoutTargets(withContext(u)), terms);
    const own = c.reduce((n, k, i) => n + (k > 0 ? w[i]! : 0), 0);
    // A prose unit holding a word of its own also holds part of its headings' words and of the sentence it points back at.
    const b = u.before ? termCounts(withoutTargets(u.before), terms) : undefined;
    const around = (i: number) => (path.has(terms[i]!) ? PATH_SHARE : 0) + (b && b[i]! > 0 ? BEFORE_SHARE : 0);
    const held = own > 0 && !u.code ? own + c.reduce((n, k, i) => n + (k === 0 ? w[i]! * Math.min(1, around(i)) : 0), 0) : own;
    const value = held > 0 && wantValue && holdsValue(u.text) ? (VALUE_BONUS / 10) * (total / terms.length) : 0;
    best = Math.max(best, (held + value) / total);
  }
  return Math.min(best, 1);
}
