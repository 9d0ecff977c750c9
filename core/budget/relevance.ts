/**
 * A small term scorer for ranking a document's sections against a question: case-folded words, stop
 * words dropped, a light suffix stemmer, BM25 over the sections being ranked, and a bonus for a term in
 * the heading path (a heading names what its section is about). No index: it runs over the sections of
 * the items one call packs, which it has in hand.
 */

const STOP = new Set(
  'a an and are as at be but by can do does for from had has have how i if in into is it its me my no not of on or our so than that the their them then there these they this to was we were what when where which who why will with you your'.split(' '),
);

/** A word reduced to a rough stem: plurals, -ing, -ed, -ly, -ies (enough to match "caching" with "cache"). */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  const rules: [RegExp, string][] = [
    [/ies$/, 'y'],
    [/sses$/, 'ss'],
    [/(?<=[^aeiou])ing$/, ''],
    [/(?<=[^aeiou])ed$/, ''],
    [/ly$/, ''],
    [/es$/, 'e'],
    [/(?<=[^su])s$/, ''],
  ];
  for (const [re, to] of rules) {
    if (!re.test(word)) continue;
    const out = word.replace(re, to);
    if (out.length >= 3) return out.replace(/e$/, '');
  }
  return word.replace(/e$/, '');
}

/** The scored terms of a text, in order (repeats kept). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    if (STOP.has(w) || (w.length < 2 && !/\d/.test(w))) continue;
    out.push(stem(w));
  }
  return out;
}

export interface ScoredText {
  heading: string;
  body: string;
}

/**
 * BM25 scores (k1 1.2, b 0.75) of each text against the query, plus each query term found in the
 * heading scoring its idf once more. 0 means no query term occurs at all.
 */
export function scoreTexts(query: string, texts: readonly ScoredText[]): number[] {
  const q = [...new Set(terms(query))];
  if (q.length === 0) return texts.map(() => 0);
  const docs = texts.map((t) => {
    const tf = new Map<string, number>();
    const words = terms(t.body);
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    return { tf, length: words.length, heading: new Set(terms(t.heading)) };
  });
  const n = docs.length;
  const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, n) || 1;
  const idf = new Map(q.map((t) => {
    const df = docs.filter((d) => d.tf.has(t) || d.heading.has(t)).length;
    return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
  }));
  return docs.map((d) => {
    let score = 0;
    for (const t of q) {
      const f = d.tf.get(t) ?? 0;
      if (f > 0) score += idf.get(t)! * ((f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avg)));
      if (d.heading.has(t)) score += idf.get(t)!;
    }
    return score;
  });
}
