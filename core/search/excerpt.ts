import type { TokenCounter } from '../tokens/counter.ts';
import type { SectionSpan } from '../budget/sections.ts';
import { oneLine } from '../budget/card-cut.ts';
import { contentWords } from '../../db/store/search-words.ts';

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
const WORD_AT = /[\p{L}\p{N}_]+/uy;
const WORD_END = /[\p{L}\p{N}_]$/u;
/** Scripts written without spaces: a term matches as a substring, and excerpts are cut by characters. */
const DENSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** A light suffix stripper: close enough to the index's Porter stemmer to find the words it matched. */
export function stem(word: string): string {
  // Every word of the hits' sections passes here on each search: remembered (bounded), it is a lookup.
  let out = stems.get(word);
  if (out === undefined) {
    const w = word.toLowerCase();
    out = w.length <= 3 ? w : w.replace(/(?:ational|ization|ations|ation|ness|ments|ment|ings|ing|edly|ed|ies|es|ly|s)$/, '').replace(/e$/, '') || w;
    if (stems.size >= STEM_MEMO) stems.clear();
    stems.set(word, out);
  }
  return out;
}
const stems = new Map<string, string>();
const STEM_MEMO = 50_000;

/** The query's content words (as the FTS query uses: stop words out, none cut off), stemmed and de-duplicated. */
export function queryTerms(query: string): string[] {
  return [...new Set(contentWords(query).map(stem))];
}

/** How many distinct terms `text` contains, and how many occurrences in all. */
export function termHits(text: string, terms: readonly string[]): { distinct: number; total: number } {
  const lower = text.toLowerCase();
  // Fast path: a word stems to t only if it starts with t (a stem is a prefix of its lower-cased
  // word), so only the places where t occurs at a word start are looked at, not every word.
  if (lower.length === text.length && !DENSE.test(text)) {
    let distinct = 0;
    let total = 0;
    for (const t of terms) {
      let n = 0;
      for (let at = lower.indexOf(t); at !== -1; at = lower.indexOf(t, at + 1)) {
        if (at > 0 && WORD_END.test(text.slice(Math.max(0, at - 2), at))) continue;
        WORD_AT.lastIndex = at;
        const word = WORD_AT.exec(text)?.[0];
        if (word !== undefined && stem(word) === t) n++;
      }
      if (n > 0) distinct++;
      total += n;
    }
    return { distinct, total };
  }
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
  // A stem is a prefix of its lower-cased word, so a section whose text holds no term as a substring
  // has no body hit: only those that do are read word by word (long documents have many sections).
  // One pass per term over the text finds the sections that mention it (sections are in order).
  const lower = content.toLowerCase();
  const exactCase = lower.length === content.length;
  const mentioned = new Set<number>();
  for (const t of exactCase ? terms : []) {
    for (let at = lower.indexOf(t); at !== -1; ) {
      const i = sectionAt(sections, at);
      if (i < 0) break;
      mentioned.add(i);
      at = lower.indexOf(t, sections[i]!.end);
    }
  }
  for (const [i, s] of sections.entries()) {
    const head = termHits(s.path.join(' '), terms);
    const body = exactCase && !mentioned.has(i) ? { distinct: 0, total: 0 } : termHits(content.slice(s.start, s.end), terms);
    const score = head.distinct * 4 + body.distinct * 2 + Math.log1p(body.total);
    if (score > bestScore) [best, bestScore] = [s, score];
  }
  return best;
}

/** The index of the section holding character `at` (sections tile the text in order), or -1. */
function sectionAt(sections: readonly SectionSpan[], at: number): number {
  let [lo, hi] = [0, sections.length - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at < sections[mid]!.start) hi = mid - 1;
    else if (at >= sections[mid]!.end) lo = mid + 1;
    else return mid;
  }
  return -1;
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
