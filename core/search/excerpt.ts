import type { TokenCounter } from '../tokens/counter.ts';
import type { SectionSpan } from '../budget/sections.ts';
import { oneLine } from '../budget/card-cut.ts';
import { DENSE, HAS_TEXT, rankedSpans, scoreSections, sectionBody, termCounts, termHits } from './score.ts';

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
 * True when a question asks for a value (a default, a limit, a time, a date, an amount, a version):
 * then a sentence with a figure in it answers rather than its neighbour that only names the thing.
 */
export function asksForValue(query: string): boolean {
  return VALUE_WORDS.test(query);
}
const VALUE_WORDS =
  /\b(?:defaults?|max(?:imum)?|min(?:imum)?|minimal|limits?|how (?:many|much|long|often|old|big|large|fast|soon)|when|what time|times?|date|deadline|until|starts?|ends?|version|oldest|newest|latest|earliest|size|number|count|timeouts?|duration|cost|price|amount|percent(?:age)?|rate|threshold|days?|hours?|minutes?|seconds?|weeks?|months?|years?)\b/i;
/** A figure other than a list item's number. */
function holdsValue(text: string): boolean {
  return /\d/.test(text.replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+/, ''));
}
/**
 * What a figure in a unit counts for, when the question asks for a value (a query word counts 10).
 * Replaying models' first searches (tuning half), the first call showed the answer 82.2 → 89.1 %
 * (third-party) with any bonus from 3 to 8; private documents, whose answers sit in sentences already
 * holding the question's words, kept 87.9 %.
 */
const VALUE_BONUS = 5;
/**
 * What saying "default" adds to a unit when the question asks about a default (on top of the word
 * itself). Replaying models' first searches (tuning half, 50 more questions than before): third-party
 * 83.8 → 85.4 % at 10 or more, private unchanged; held-out unchanged.
 */
const DEFAULT_BONUS = 10;

/** True when a question asks about code: backticks, calls, dotted or snake_case names, flags, camelCase. */
export function asksForCode(query: string): boolean {
  return /`|\w\(|[A-Za-z_]\.[A-Za-z_]|\w_\w|(?:^|\s)--?[A-Za-z]|[{}<>=;$]|\b[a-z]+[A-Z]\w*/.test(query);
}

/** The section that best answers the terms (the shared scorer), or the first with a body when none scores. */
export function bestSection(
  content: string,
  sections: readonly SectionSpan[],
  terms: readonly string[],
  weights?: readonly number[],
  wantValue = false,
): SectionSpan | undefined {
  const ranked = rankedSpans(content, sections);
  const scores = weighBySentence(
    scoreSections(terms, ranked, weights),
    ranked.map((r) => r.body),
    terms,
    weights,
    wantValue,
  );
  let best = -1;
  scores.forEach((score, i) => {
    if (score > 0 && (best < 0 || score > scores[best]!)) best = i;
  });
  if (best < 0) best = ranked.findIndex((r) => HAS_TEXT.test(r.body));
  return sections[best < 0 ? 0 : best];
}

/**
 * One document's section scores with its few best weighed again by their best sentence (a copy): the
 * section whose one sentence holds the question answers, not the one that mentions its words most
 * often. Only raises scores, and only the best ones', so the rest keep their order below them.
 */
export function weighBySentence(
  scores: readonly number[],
  bodies: readonly string[],
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
  for (const { s, i } of top) out[i] = s * (1 + SENTENCE_WEIGHT * bestUnitShare(bodies[i]!, terms, weights, wantValue));
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
 * The weighted share (0–1) of the query's terms held by the body's best sentence, list item or table
 * row; a figure counts as half a term's weight when the question asks for a value.
 */
function bestUnitShare(body: string, terms: readonly string[], weights?: readonly number[], wantValue = false): number {
  const w = terms.map((_, i) => weights?.[i] ?? 1);
  const total = w.reduce((a, b) => a + b, 0) || 1;
  let best = 0;
  for (const u of units(body)) {
    const c = termCounts(withoutTargets(withContext(u)), terms);
    const held = c.reduce((n, k, i) => n + (k > 0 ? w[i]! : 0), 0);
    const value = held > 0 && wantValue && holdsValue(u.text) ? (VALUE_BONUS / 10) * (total / terms.length) : 0;
    best = Math.max(best, (held + value) / total);
  }
  return Math.min(best, 1);
}

/**
 * A sentence, list item or table row on one line, and whether it is code (inside a fence or indented
 * as code). A table row carries its table's header row as `context`: "| 4.x | ≥12.17.0 |" says
 * nothing until "| fast-check | node |" says what its cells are.
 */
export interface Unit {
  text: string;
  code: boolean;
  context?: string;
}

const TABLE_ROW = /^ {0,3}\|/;
const TABLE_RULE = /^ {0,3}\|?[\s:|-]*-[\s:|-]*$/;

/** Sentences, list items and table rows of a body, each on one line with runs of white space folded; code blocks line by line. */
export function units(body: string): Unit[] {
  const out: Unit[] = [];
  let prose: string[] = [];
  let header: string | undefined;
  const flush = () => {
    for (const u of prose.join('\n').split(/(?<=[.!?。！？])\s+|\n\s*\n|\n(?=\s*(?:[-*+>|]|\d{1,9}[.)]|#{1,6})\s)/))
      out.push({ text: fold(u), code: false });
    prose = [];
  };
  let fence: string | undefined;
  for (const l of body.split('\n')) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(l);
    if (fence !== undefined) {
      if (f && f[1]!.startsWith(fence)) fence = undefined;
      else out.push({ text: fold(l), code: true });
    } else if (f) {
      flush();
      header = undefined;
      fence = f[1]!;
    } else if (TABLE_ROW.test(l)) {
      flush();
      if (TABLE_RULE.test(l)) continue;
      if (header === undefined) {
        header = fold(l);
        out.push({ text: header, code: false });
      } else out.push({ text: fold(l), code: false, context: header });
    } else {
      header = undefined;
      prose.push(l);
    }
  }
  flush();
  return out.filter((u) => HAS_TEXT.test(u.text));
}

/** A unit as it is scored and quoted: a table row after its header row. */
export const withContext = (u: Unit) => (u.context ? `${u.context} ${u.text}` : u.text);

/** Text as read, without Markdown link targets and bare URLs (for scoring only). */
export const withoutTargets = (u: string) => u.replace(/\]\([^)\s]*\)/g, ']').replace(/https?:\/\/\S+/g, ' ');

const fold = (u: string) => oneLine(u).replace(/\s+/g, ' ').trim();

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
  const all = units(sectionBody(content, section));
  if (all.length === 0) return { text: '', tokens: 0 };
  // The unit holding the most of the query's words wins, each word weighed by how rare it is among the
  // section's units (a word on every line, like the project's own name, tells nothing), and link targets
  // left out (a URL full of the query's words is not an answer). The kind the question asks for (prose
  // for a prose question, code for a code question) only breaks near-ties: as a filter it let a
  // camelCase option name in a prose question pick a code line over the sentence that answered
  // (measured with a model in the loop).
  const counts = all.map((u) => termCounts(withoutTargets(withContext(u)), terms));
  const weight = terms.map((_, t) => Math.log((all.length + 1) / (counts.filter((c) => c[t]! > 0).length + 0.5)));
  // A question about a default is answered where the text says "default" ("defaults to 0", "The default
  // value is 'ignore'"), not where it names the option most often.
  const asked = terms.indexOf('default');
  let pick = 0;
  let best = -1;
  all.forEach((u, i) => {
    const c = counts[i]!;
    // How many of the query's words first; among units holding as many, the rarer words and then more hits.
    const held = c.reduce((n, k, t) => n + (k > 0 ? 10 + weight[t]! + Math.min(k, 3) * 0.1 : 0), 0);
    const score =
      held +
      (held > 0 && u.code === wantCode ? 3 : 0) +
      (held > 0 && wantValue && holdsValue(u.text) ? VALUE_BONUS : 0) +
      (asked >= 0 && c[asked]! > 0 ? DEFAULT_BONUS : 0);
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
    for (const side of [1, -1] as const) {
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
