import type { SectionSpan } from '../budget/sections.ts';
import { camelParts, contentWords, stem, textTerms, WORD } from '../../db/text/analyzer.ts';

// The one section scorer: search's match (which section of a hit answers) and query reads
// (get_bindings / get_set_context {query}: which sections to pack, best first) both rank sections
// here, with the words and stems of db/text/analyzer.ts, so they name the same section. Pure: no I/O.

const WORD_AT = /[\p{L}\p{N}_]+/uy;
const WORD_END = /[\p{L}\p{N}_]$/u;
/** A lower-case letter or digit, then a capital: where a camelCase part starts. */
const CAMEL_START = /^[\p{Ll}\p{N}]\p{Lu}$/u;
/** Scripts written without spaces: a term matches as a substring, and excerpts are cut by characters. */
export const DENSE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** How often each term occurs in `text` (a word counts for a term when it stems to it; in dense scripts, when it contains it). */
export function termCounts(text: string, terms: readonly string[]): number[] {
  const lower = text.toLowerCase();
  // Fast path: a word stems to t only if it starts with t (a stem is a prefix of its lower-cased
  // word), so only the places where t occurs at a word start are looked at, not every word.
  if (lower.length === text.length && !DENSE.test(text)) {
    return terms.map((t) => {
      let n = 0;
      for (let at = lower.indexOf(t); at !== -1; at = lower.indexOf(t, at + 1)) {
        if (at > 0 && WORD_END.test(text.slice(Math.max(0, at - 2), at))) {
          // Inside a word: a camelCase part that starts here ("…Truncation…" of preferTruncationOnSpace).
          if (CAMEL_START.test(text.slice(at - 1, at + 1)) && stem(camelPartAt(text, at)) === t) n++;
          continue;
        }
        WORD_AT.lastIndex = at;
        const word = WORD_AT.exec(text)?.[0];
        if (word === undefined) continue;
        if (stem(word) === t) n++;
        else {
          // A camelCase word's first part starts where the word does ("prefer" of preferTruncation…).
          const first = camelParts(word)[0];
          if (first !== undefined && stem(first) === t) n++;
        }
      }
      return n;
    });
  }
  const out = terms.map(() => 0);
  for (const w of text.match(WORD) ?? []) {
    const s = stem(w);
    const parts = camelParts(w).map(stem);
    terms.forEach((t, i) => {
      if (s === t || (DENSE.test(w) && w.toLowerCase().includes(t))) out[i]!++;
      else out[i]! += parts.filter((p) => p === t).length;
    });
  }
  return out;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const LOWER_OR_DIGIT = /[\p{Ll}\p{N}]/u;
const UPPER = /\p{Lu}/u;

/**
 * The camelCase part of `text` that starts at `at`, up to the next part's start or the word's end (as
 * analyzer.camelParts splits a word). Reads only that part: a word of a million camelCase parts costs
 * its length once, not once per part.
 */
function camelPartAt(text: string, at: number): string {
  let end = at;
  let prev = '';
  while (end < text.length) {
    const ch = String.fromCodePoint(text.codePointAt(end)!);
    if (!WORD_CHAR.test(ch) || (end > at && UPPER.test(ch) && LOWER_OR_DIGIT.test(prev))) break;
    prev = ch;
    end += ch.length;
  }
  return text.slice(at, end);
}

/** How many distinct terms `text` contains, and how many occurrences in all. */
export function termHits(text: string, terms: readonly string[]): { distinct: number; total: number } {
  const counts = termCounts(text, terms);
  return { distinct: counts.filter((n) => n > 0).length, total: counts.reduce((a, b) => a + b, 0) };
}

/**
 * Each query term's weight (analyzer.queryTerms order) from the IDF of the query's words among the
 * documents searched (`idf` in analyzer.contentWords order, as search ranks with them), scaled to a
 * mean of 1; a term two words stem to takes the rarer one's. Undefined without IDF (one-word queries).
 */
export function termWeights(query: string, idf: readonly number[] | undefined): number[] | undefined {
  const words = contentWords(query);
  if (!idf || idf.length !== words.length) return undefined;
  const byTerm = new Map<string, number>();
  words.forEach((w, i) => byTerm.set(stem(w), Math.max(byTerm.get(stem(w)) ?? 0, idf[i]!)));
  const raw = [...byTerm.values()];
  const mean = raw.reduce((a, b) => a + b, 0) / raw.length;
  return mean > 0 ? raw.map((x) => Math.sqrt(x / mean)) : undefined;
}

/** A section to rank: its own heading, its heading path (top level down, itself included) and its body (text under the heading). */
export interface RankedSection {
  heading: string;
  path: readonly string[];
  body: string;
}

/** A section's text without its heading line (and a setext underline). */
export function sectionBody(content: string, s: Pick<SectionSpan, 'start' | 'end' | 'level'>): string {
  const text = content.slice(s.start, s.end);
  if (s.level === 0) return text;
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  lines.splice(0, i + 1);
  if (lines.length && /^ {0,3}(?:=+|-+)[ \t]*$/.test(lines[0]!)) lines.shift();
  return lines.join('\n');
}

/** A Markdown link reference definition's first line ("[label]: https://…", or "[label]:" with the target below); not a footnote ("[^1]: …"). */
const LINK_DEFINITION = /^ {0,3}\[(?!\^)[^\]\n]{1,999}\]:(?:[ \t]|$)/;

/**
 * A section's body as search reads it (sectionBody): without link reference definitions, which a
 * reader never sees as text. A README's list of them at its end repeats every option's name beside a
 * URL, and was chosen as the match for a question naming one option.
 */
export function searchableBody(content: string, s: Pick<SectionSpan, 'start' | 'end' | 'level'>): string {
  const body = sectionBody(content, s);
  if (!body.includes(']:')) return body;
  const lines = body.split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!LINK_DEFINITION.test(lines[i]!)) kept.push(lines[i]!);
    // "[label]:" alone: its target is the next line.
    else if (/\]:\s*$/.test(lines[i]!) && /^\s*\S+\s*$/.test(lines[i + 1] ?? '')) i++;
  }
  return kept.join('\n');
}

/** A body with something to read: a letter or digit, or a symbol beyond ASCII (box drawing, emoji), not only Markdown punctuation. */
export const HAS_TEXT = /[\p{L}\p{N}]|[^\p{ASCII}\s]/u;

/**
 * Scores of sections against the query's terms (analyzer.queryTerms): BM25 (k1 1.2, b 0.75) over the
 * bodies of the sections given, each term in the heading path adding its idf once, in the section's
 * own heading once more, and a heading the query nearly quotes (two thirds of its words or more)
 * its matched idf again; the sum is weighed by the share of the query's words the section holds and by
 * how many of the query's neighbouring words stand side by side in the body, in order. A
 * heading with no body under it scores 0: it is never the match. `weights` (one per term, mean 1)
 * weigh terms by how rare they are among the documents searched: within one document, the word its
 * every section shares says little, and a word rare everywhere says most.
 */
export function scoreSections(terms: readonly string[], sections: readonly RankedSection[], weights?: readonly number[]): number[] {
  if (terms.length === 0) return sections.map(() => 0);
  const docs = sections.map((s) => {
    const filled = HAS_TEXT.test(s.body);
    const lower = filled ? s.body.toLowerCase() : '';
    // A stem is a prefix of its lower-cased word: a body without the term as a substring has no hit.
    const mentions = filled && (lower.length !== s.body.length || DENSE.test(s.body) || terms.some((t) => lower.includes(t)));
    const tf = mentions ? termCounts(s.body, terms) : terms.map(() => 0);
    const path = new Set(textTerms(s.path.join(' ')));
    // Section numbers ("6.2") are not words a question quotes.
    const own = new Set(textTerms(s.heading).filter((w) => !/^\d+$/.test(w)));
    const pairs = terms.length > 1 && tf.filter((n) => n > 0).length > 1 ? adjacentPairs(s.body, terms) : 0;
    return { filled, tf, length: s.body.length, path, own, ownCount: own.size, pairs };
  });
  const n = docs.length;
  const avg = docs.reduce((a, d) => a + d.length, 0) / Math.max(1, n) || 1;
  const idf = terms.map((t, i) => {
    const df = docs.filter((d) => d.tf[i]! > 0 || d.path.has(t)).length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (weights?.[i] ?? 1);
  });
  return docs.map((d) => {
    if (!d.filled) return 0;
    let score = 0;
    let quoted = 0;
    let quotedIdf = 0;
    terms.forEach((t, i) => {
      const f = d.tf[i]!;
      if (f > 0) score += idf[i]! * ((f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avg)));
      if (d.path.has(t)) score += idf[i]!;
      if (d.own.has(t)) {
        score += idf[i]!;
        quoted++;
        quotedIdf += idf[i]!;
      }
    });
    if (d.ownCount > 0 && quoted * 3 >= d.ownCount * 2) score += quotedIdf;
    // A section holding more of the question's words beats one repeating a few (BM25 saturates slowly on short sections).
    const held = terms.filter((t, i) => d.tf[i]! > 0 || d.path.has(t)).length;
    // The question's words side by side, in its order, as the section writes them (stop words aside):
    // the sentence it recalls, which beats a neighbour using the same words apart.
    const together = terms.length > 1 ? (2 * d.pairs) / (terms.length - 1) : 0;
    return score * (1 + (2 * held) / terms.length) * (1 + together);
  });
}

/** How many consecutive pairs of the query's terms occur next to each other, in that order, in `text` (stop words skipped). */
function adjacentPairs(text: string, terms: readonly string[]): number {
  // Words as written: a camelCase name's parts are not words side by side in a sentence.
  const words = textTerms(text, false);
  const next = new Map<string, Set<string>>();
  for (let i = 0; i + 1 < words.length; i++) {
    const after = next.get(words[i]!) ?? new Set<string>();
    after.add(words[i + 1]!);
    next.set(words[i]!, after);
  }
  let n = 0;
  for (let i = 0; i + 1 < terms.length; i++) if (next.get(terms[i]!)?.has(terms[i + 1]!)) n++;
  return n;
}

/** The spans as the scorer takes them (bodies read from `content`). */
export function rankedSpans(content: string, spans: readonly SectionSpan[]): RankedSection[] {
  return spans.map((s) => ({ heading: s.heading, path: s.path, body: searchableBody(content, s) }));
}
