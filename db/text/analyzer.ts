// The one text analyzer: which words of a text carry meaning and what they reduce to.
// The search index (db/store), search's match and excerpts (core/search), query reads (core/tools) and
// tool search (core/footprint) all take words, stop words and stems from here, so they cannot disagree
// ("configure" finds §configuration everywhere or nowhere). A leaf: it imports nothing, so db/ and
// core/ may both use it.

/**
 * Function words and question framing that say nothing about what a document is about. Never domain
 * words (not even "get", "not" or "all", which name things in technical text).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a am an and are as at be because been being but by can could did do does doing for from had has have having he her hers him his how ' +
    'i if in into is it its itself me my myself of on or our ours she should so than that the their theirs them then there these they this those to ' +
    'us was we were what when where whether which while who whom whose why will with would you your yours'
  ).split(' '),
);

/** A word: letters, digits and `_` (as the FTS index splits them). */
export const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * The words of a query that carry meaning, lower-cased and de-duplicated in order: every word of the
 * query (no cut; the tools bound a query to 500 characters), stop words left out unless nothing else
 * is left, so nothing is ever searched for empty.
 */
export function contentWords(text: string): string[] {
  const all = [...new Set((text.match(WORD) ?? []).map((w) => w.toLowerCase()))];
  const kept = all.filter((w) => !STOP_WORDS.has(w));
  return kept.length ? kept : all;
}

const STEM_MEMO = 50_000;
const stems = new Map<string, string>();

/**
 * A light suffix stripper, close to the index's Porter stemmer ("configure" and "configuration" both
 * give "configur"). A stem is always a prefix of its lower-cased word, which lets scorers find a
 * term's occurrences by substring before reading words.
 */
export function stem(word: string): string {
  // Every word of the hits' sections passes here on each search: remembered (bounded), it is a lookup.
  let out = stems.get(word);
  if (out === undefined) {
    const w = word.toLowerCase();
    out = w.length <= 3 || /\d/.test(w) ? w : strip(w);
    if (stems.size >= STEM_MEMO) stems.clear();
    stems.set(word, out);
  }
  return out;
}

/**
 * A three-letter base that lost a silent "e" before "-ing" ("naming", "coding", "making" meet "name",
 * "code", "make", as Porter's do; "thing", "string" and "being" keep theirs). Replaying 1,516 models'
 * first searches: "Semaphore feature flag naming convention" found "Flag names are `<team>.<feature>`",
 * and one more; none fewer, the everyday and keyword benches unchanged.
 */
const CVC = /^[^aeiou][aeiou][^aeiouwxy]$/;
const SUFFIX = /(?:ational|ization|ations|ation|ness|ments|ment|ings|ing|edly|ed|ies|es|ly|(?<![su])s)$/;

/** The stem of a lower-cased word: a suffix off when enough is left ("comment" keeps its "ment"; "comments" loses only its "s"), then a final "e". */
function strip(w: string): string {
  const m = SUFFIX.exec(w);
  let base = m ? w.slice(0, m.index) : w;
  if (m && (base.length < 3 || (m[0].length > 2 && base.length < 4 && !(m[0] === 'ing' && CVC.test(base)))))
    base = /[^s]s$/.test(w) ? w.slice(0, -1) : w;
  // A final "ll" loses an "l" past four letters, as Porter's does: "totalled", "cancelled" and "install"
  // meet "total", "cancel" and "installed".
  if (base.length > 4 && base.endsWith('ll')) base = base.slice(0, -1);
  return base.length > 3 ? base.replace(/e$/, '') : base;
}

/** The query's content words, stemmed and de-duplicated (what every scorer looks for). */
export function queryTerms(query: string): string[] {
  return [...new Set(contentWords(query).map(stem))];
}

/**
 * The parts of a camelCase word, lower-cased ("preferTruncationOnSpace": prefer, truncation, on,
 * space); none for a word without a lower-case letter followed by a capital. Option and function names
 * are written so; a question names them in words ("prefer truncation on a space").
 */
export function camelParts(word: string): string[] {
  if (!CAMEL.test(word)) return [];
  return word.split(CAMEL_SPLIT).map((p) => p.toLowerCase());
}
const CAMEL = /[\p{Ll}\p{N}]\p{Lu}/u;
const CAMEL_SPLIT = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})/u;

/**
 * The stemmed words of a text, in order, repeats kept, stop words and lone letters left out; a
 * camelCase word is followed by its parts unless `parts` is false.
 */
export function textTerms(text: string, parts = true): string[] {
  const out: string[] = [];
  const keep = (w: string) => !STOP_WORDS.has(w) && (w.length >= 2 || /\d/.test(w));
  for (const m of text.matchAll(WORD)) {
    const w = m[0].toLowerCase();
    if (keep(w)) out.push(stem(w));
    if (parts) for (const part of camelParts(m[0])) if (keep(part)) out.push(stem(part));
  }
  return out;
}
