// Query analysis shared by the search index (db) and the excerpt/section scorers (core): which words of
// a query carry meaning. Stop words are English function words and question framing ("how do I …?"),
// never domain words (not even "get", "not" or "all", which name things in technical text); a query made only of them keeps them all, so nothing is ever searched for empty.

/** Function words and question framing that say nothing about what a document is about. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ('a am an and are as at be because been being but by can could did do does doing for from had has have having he her hers him his how ' +
    'i if in into is it its itself me my myself of on or our ours she should so than that the their theirs them then there these they this those to ' +
    'us was we were what when where whether which while who whom whose why will with would you your yours').split(' '),
);

const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * The words of a query that carry meaning, lower-cased and de-duplicated in order: every word of the
 * query (no cut; the tools bound a query to 500 characters), stop words left out unless nothing else
 * is left.
 */
export function contentWords(text: string): string[] {
  const all = [...new Set((text.match(WORD) ?? []).map((w) => w.toLowerCase()))];
  const kept = all.filter((w) => !STOP_WORDS.has(w));
  return kept.length ? kept : all;
}
