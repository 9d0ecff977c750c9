import type { TokenCounter } from '../tokens/counter.ts';
import type { SectionSpan } from '../budget/sections.ts';
import { DENSE, searchableBody, termCounts, termHits } from './score.ts';
import { textTerms } from '../../db/text/analyzer.ts';
import { BEFORE_SHARE, holdsValue, units, VALUE_BONUS, withContext, withoutTargets, type Unit } from './units.ts';

// Query-focused excerpts, computed at query time for the hits a search shows. Pure: no I/O.

/** The most an excerpt may cost, counted exactly with the server's tokenizer. */
export const EXCERPT_TOKENS = 60;
/** Excerpts are also kept short in characters, so counting one (and its Match line) is always a short count. */
const EXCERPT_CHARS = 280;
/** Within both caps; text over the character cap is never counted (stored text is not tokenized on read). */
const fits = (text: string, tokens: TokenCounter, cap = EXCERPT_TOKENS): number | undefined => {
  if (text.length > Math.round((EXCERPT_CHARS * cap) / EXCERPT_TOKENS)) return undefined;
  const n = tokens.count(text);
  return n <= cap ? n : undefined;
};

/**
 * What saying "default" adds to a unit when the question asks about a default (on top of the word
 * itself). Replaying models' first searches (tuning half, 50 more questions than before): third-party
 * 83.8 → 85.4 % at 10 or more, private unchanged; held-out unchanged.
 */
const DEFAULT_BONUS = 10;

/**
 * What a query word counts for again when a list item is about it: it names the item's leading label
 * ("* `retries`: … Default is `10`." defines retries; its neighbour only mentions them).
 */
const LABEL_BONUS = 5;
/**
 * What a query word counts for in a unit when the section's heading path holds it too (10 otherwise).
 * Replaying models' first searches (tuning half, 30 more questions' first searches): private 93.1 →
 * 93.6 % ("acknowledge researcher report within" under "Our commitments to researchers" quotes
 * "Acknowledge within 2 business days"), nothing lost; 5 lost a third-party answer.
 */
const HEADING_WORD = 7;
/**
 * What a query word counts for in a unit when the document's title (its top heading, above the
 * section) holds it: the question names the document ("zod-to-json-schema default target"), and
 * every unit is about it. Replaying models' first searches (81 logs): third-party held out 202 → 205
 * of 230 at 1–5 (an `X-Rate-Limit` row no longer beats the option asked for), nothing lost; the
 * questions' own words as queries: 2 more third-party answers at 1–3, 1 at 5. 3 was chosen.
 */
const TITLE_WORD = 3;
const LABEL = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:`([^`]{1,60})`|\*\*([^*]{1,60})\*\*)/;

/** A table row's first cell, as a label: what the row is about ("| **target**?: … | Which spec… |"). */
const ROW_LABEL = /^\s*\|\s*([^|]{1,80}?)\s*\|/;

/** How many of the terms a list item's leading label (a code span or bold words), or a table row's first cell, holds. */
function labelled(u: Unit, terms: readonly string[]): number {
  const m = u.context ? ROW_LABEL.exec(u.text) : LABEL.exec(u.text);
  const label = m ? (u.context ? m[1]! : (m[1] ?? m[2]!)) : undefined;
  return label ? termCounts(label, terms).filter((n) => n > 0).length : 0;
}

/**
 * The sentence(s) of `section` around the query's terms, one line, at most EXCERPT_TOKENS tokens
 * (exact): the best sentence, then its neighbours while they fit; a sentence too long alone is cut
 * at word boundaries (characters in dense scripts) around its first hit, with "…" where it was cut.
 */
export function excerptOf(
  content: string,
  section: SectionSpan,
  terms: readonly string[],
  tokens: TokenCounter,
  wantCode = false,
  cap = EXCERPT_TOKENS,
  wantValue = false,
): { text: string; tokens: number } {
  const all = units(searchableBody(content, section));
  if (all.length === 0) return { text: '', tokens: 0 };
  // The unit holding the most of the query's words wins, each word weighed by how rare it is among the
  // section's units (a word on every line, like the project's own name, tells nothing), and link targets
  // left out (a URL full of the query's words is not an answer). The kind the question asks for (prose
  // for a prose question, code for a code question) only breaks near-ties: as a filter it let a
  // camelCase option name in a prose question pick a code line over the sentence that answered
  // (measured with a model in the loop).
  const counts = all.map((u) => termCounts(withoutTargets(withContext(u)), terms));
  const before = all.map((u) => (u.before ? termCounts(withoutTargets(u.before), terms) : undefined));
  // A word of the section's own heading path describes every unit under it, so it tells less which one answers.
  const path = new Set(textTerms(section.path.join(' ')));
  // The document's own title (its top heading, above this section) names what every unit is about.
  const named = new Set(section.path.length > 1 ? textTerms(section.path[0]!) : []);
  const titled = terms.map((t) => path.has(t));
  const weight = terms.map((_, t) => Math.log((all.length + 1) / (counts.filter((c) => c[t]! > 0).length + 0.5)));
  // A question about a default is answered where the text says "default" ("defaults to 0", "The default
  // value is 'ignore'"), not where it names the option most often.
  const asked = terms.indexOf('default');
  // How many of the query's words first; among units holding as many, the rarer words and then more hits.
  const worth = terms.map((t, i) => (named.has(t) ? TITLE_WORD : titled[i] ? HEADING_WORD : 10) + weight[i]!);
  let pick = 0;
  let best = -1;
  all.forEach((u, i) => {
    const c = counts[i]!;
    const own = c.reduce((n, k, t) => n + (k > 0 ? worth[t]! + Math.min(k, 3) * 0.1 : 0), 0);
    // A sentence pointing back ("This is limited to … by default.") holds some of the one before's
    // words too, when it says something of its own (a word its headings do not hold).
    const b = before[i];
    const anchored = c.some((k, t) => k > 0 && !titled[t]);
    const held = anchored && b ? own + c.reduce((n, k, t) => n + (k === 0 && b[t]! > 0 ? worth[t]! * BEFORE_SHARE : 0), 0) : own;
    const score =
      held +
      (held > 0 && u.code === wantCode ? 3 : 0) +
      (held > 0 && wantValue && holdsValue(u.text) ? VALUE_BONUS : 0) +
      (asked >= 0 && c[asked]! > 0 ? DEFAULT_BONUS : 0) +
      labelled(u, terms) * LABEL_BONUS;
    if (score > best) [pick, best] = [i, score];
  });
  // Neighbours come from the same kind, so a prose excerpt does not run into a code block; but a
  // sentence that introduces what follows ("The default configuration is:") keeps the code after it.
  // A table row is quoted after its header row, with the rows around it while they fit (the row before
  // or after often holds the answer's other half: "up to 10 %" above "10 % to 20 %").
  if (all[pick]!.context) {
    const header = all[pick]!.context;
    const table = all.filter((u) => u.context === header);
    const at = table.indexOf(all[pick]!);
    const render = (lo: number, hi: number) =>
      `${header} ${table
        .slice(lo, hi + 1)
        .map((u) => u.text)
        .join(' ')}`;
    const first = fits(render(at, at), tokens, cap);
    if (first === undefined) return cutAround(render(at, at), terms, tokens, cap);
    let [lo, hi, used] = [at, at, first];
    for (let grew = true; grew; ) {
      grew = false;
      for (const [l, h] of [
        [lo - 1, hi],
        [lo, hi + 1],
      ] as const) {
        if (l < 0 || h >= table.length) continue;
        const n = fits(render(l, h), tokens, cap);
        if (n !== undefined) {
          [lo, hi, used] = [l, h, n];
          grew = true;
        }
      }
    }
    return { text: render(lo, hi), tokens: used };
  }
  const introduces = !all[pick]!.code && /:\s*$/.test(all[pick]!.text);
  const kind = introduces ? all : all.filter((u) => u.code === all[pick]!.code);
  const us = kind.map((u) => u.text);
  const at = kind.indexOf(all[pick]!);
  const first = fits(us[at]!, tokens, cap);
  if (first === undefined) return cutAround(us[at]!, terms, tokens, cap);
  let [lo, hi, used] = [at, at, first];
  for (let grew = true; grew; ) {
    grew = false;
    // A sentence pointing back ("This is limited to … by default.") takes the one it points at first.
    for (const side of all[pick]!.before ? ([-1, 1] as const) : ([1, -1] as const)) {
      // A passage that has just reached a question ("Lost your card?") or a lead-in ("To reset it:")
      // takes what answers it before anything earlier.
      if (side === -1 && grew && DANGLING.test(us[hi]!)) break;
      const i = side === 1 ? hi + 1 : lo - 1;
      if (i < 0 || i >= us.length) continue;
      const n = fits(us.slice(Math.min(lo, i), Math.max(hi, i) + 1).join(' '), tokens, cap);
      if (n !== undefined) {
        [lo, hi, used] = [Math.min(lo, i), Math.max(hi, i), n];
        grew = true;
      }
    }
  }
  return { text: us.slice(lo, hi + 1).join(' '), tokens: used };
}

/** A unit that asks or leads in: what follows it answers it. */
const DANGLING = /[?:？：]$/;

/** A window of `unit` around its first hit, grown as far as the token cap allows. */
function cutAround(unit: string, terms: readonly string[], tokens: TokenCounter, cap: number): { text: string; tokens: number } {
  const dense = DENSE.test(unit) && (unit.match(/\s/g)?.length ?? 0) < unit.length / 20;
  const parts = dense ? Array.from(unit) : unit.split(' ');
  const joiner = dense ? '' : ' ';
  let hit = parts.findIndex((p) => termHits(p, terms).distinct > 0);
  if (hit < 0 && dense) {
    const lower = unit.toLowerCase();
    const pos = Math.min(...terms.map((t) => lower.indexOf(t)).filter((p) => p >= 0), Infinity);
    hit = Number.isFinite(pos) ? Array.from(unit.slice(0, pos)).length : 0;
  }
  hit = Math.max(hit, 0);
  const render = (n: number) => {
    const start = Math.max(0, Math.min(hit - Math.floor(n / 3), parts.length - n));
    const end = Math.min(parts.length, start + n);
    return `${start > 0 ? '…' : ''}${parts.slice(start, end).join(joiner)}${end < parts.length ? '…' : ''}`;
  };
  // The largest window that fits: token counts grow with the window, so a binary search finds it.
  // A word is at least one token, a dense-script character at least a quarter of one: larger windows never fit.
  let [lo, hi] = [0, Math.min(parts.length, dense ? cap * 4 : cap)];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(render(mid), tokens, cap) !== undefined) lo = mid;
    else hi = mid - 1;
  }
  const text = lo > 0 ? render(lo) : '';
  return { text, tokens: tokens.count(text) };
}
