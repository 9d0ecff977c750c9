import type { TokenCounter } from '../tokens/counter';
import type { SectionSpan } from '../budget/sections';
import { oneLine } from '../budget/card-cut';

// Query-focused excerpts, computed at query time for the hits a search shows. Pure: no I/O.

/** The most an excerpt may cost, counted exactly with the server's tokenizer. */
export const EXCERPT_TOKENS = 60;
/** Excerpts are also kept short in characters, so counting one (and its Match line) is always a short count. */
const EXCERPT_CHARS = 280;
/** Within both caps; text over the character cap is never counted (stored text is not tokenized on read). */
const fits = (text: string, tokens: TokenCounter): number | undefined => {
  if (text.length > EXCERPT_CHARS) return undefined;
  const n = tokens.count(text);
  return n <= EXCERPT_TOKENS ? n : undefined;
};

const WORD = /[\p{L}\p{N}_]+/gu;
/** Scripts written without spaces: a term matches as a substring, and excerpts are cut by characters. */
const DENSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** A light suffix stripper: close enough to the index's Porter stemmer to find the words it matched. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 3) return w;
  return w.replace(/(?:ational|ization|ations|ation|ness|ments|ment|ings|ing|edly|ed|ies|es|ly|s)$/, '').replace(/e$/, '') || w;
}

/** The query's terms, stemmed and de-duplicated (at most 32, as the FTS query uses). */
export function queryTerms(query: string): string[] {
  return [...new Set((query.match(WORD) ?? []).slice(0, 32).map(stem))];
}

/** How many distinct terms `text` contains, and how many occurrences in all. */
export function termHits(text: string, terms: readonly string[]): { distinct: number; total: number } {
  const seen = new Set<string>();
  let total = 0;
  for (const w of text.match(WORD) ?? []) {
    const s = stem(w);
    for (const t of terms) {
      if (s === t || (DENSE.test(w) && w.toLowerCase().includes(t))) {
        seen.add(t);
        total++;
      }
    }
  }
  return { distinct: seen.size, total };
}

/** The section that best answers the terms: heading hits count most, then distinct and repeated body hits. */
export function bestSection(content: string, sections: readonly SectionSpan[], terms: readonly string[]): SectionSpan | undefined {
  let best: SectionSpan | undefined;
  let bestScore = -1;
  for (const s of sections) {
    const head = termHits(s.path.join(' '), terms);
    const body = termHits(content.slice(s.start, s.end), terms);
    const score = head.distinct * 4 + body.distinct * 2 + Math.log1p(body.total);
    if (score > bestScore) [best, bestScore] = [s, score];
  }
  return best;
}

/** A section's text without its heading line (and a setext underline). */
function sectionBody(content: string, s: SectionSpan): string {
  const lines = content.slice(s.start, s.end).split('\n');
  if (s.level > 0) {
    let i = 0;
    while (i < lines.length && lines[i]!.trim() === '') i++;
    lines.splice(0, i + 1);
    if (lines.length && /^ {0,3}(?:=+|-+)[ \t]*$/.test(lines[0]!)) lines.shift();
  }
  return lines.join('\n');
}

/** Sentences and list items, each on one line with runs of white space folded. */
function units(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？])\s+|\n\s*\n|\n(?=\s*(?:[-*+>|]|\d{1,9}[.)]|#{1,6})\s)/)
    .map((u) => oneLine(u).replace(/\s+/g, ' ').trim())
    .filter((u) => /[\p{L}\p{N}]/u.test(u));
}

/**
 * The sentence(s) of `section` around the query's terms, one line, at most EXCERPT_TOKENS tokens
 * (exact): the best sentence, then its neighbours while they fit; a sentence too long alone is cut
 * at word boundaries (characters in dense scripts) around its first hit, with "…" where it was cut.
 */
export function excerptOf(content: string, section: SectionSpan, terms: readonly string[], tokens: TokenCounter): { text: string; tokens: number } {
  const us = units(sectionBody(content, section));
  if (us.length === 0) return { text: '', tokens: 0 };
  let at = 0;
  let best = -1;
  us.forEach((u, i) => {
    const h = termHits(u, terms);
    const score = h.distinct * 10 + h.total;
    if (score > best) [at, best] = [i, score];
  });
  const first = fits(us[at]!, tokens);
  if (first === undefined) return cutAround(us[at]!, terms, tokens);
  let [lo, hi, used] = [at, at, first];
  for (let grew = true; grew; ) {
    grew = false;
    for (const side of [1, -1] as const) {
      const i = side === 1 ? hi + 1 : lo - 1;
      if (i < 0 || i >= us.length) continue;
      const n = fits(us.slice(Math.min(lo, i), Math.max(hi, i) + 1).join(' '), tokens);
      if (n !== undefined) {
        [lo, hi, used] = [Math.min(lo, i), Math.max(hi, i), n];
        grew = true;
      }
    }
  }
  return { text: us.slice(lo, hi + 1).join(' '), tokens: used };
}

/** A window of `unit` around its first hit, grown as far as the token cap allows. */
function cutAround(unit: string, terms: readonly string[], tokens: TokenCounter): { text: string; tokens: number } {
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
  let [lo, hi] = [0, Math.min(parts.length, dense ? EXCERPT_TOKENS * 4 : EXCERPT_TOKENS)];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(render(mid), tokens) !== undefined) lo = mid;
    else hi = mid - 1;
  }
  const text = lo > 0 ? render(lo) : '';
  return { text, tokens: tokens.count(text) };
}
