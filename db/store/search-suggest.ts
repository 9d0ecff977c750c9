import { sql, type SQL } from 'drizzle-orm';
import type { BinderyDb } from '../types.ts';
import { idfOf, scopedFrequencies } from './search-stats.ts';
import { STOP_WORDS, stem } from '../text/analyzer.ts';

// "No good match": when the best hit holds less than half of what the query's words weigh (IDF, from
// document counts in the search's scope, never the index's: ./search-stats.ts), or nothing matches, search says so in one line and offers words the
// index does use, taken from the names, summaries and key points of the documents nearest the query
// (the words that say what those documents are about, weighed like relevance-feedback terms: their
// share of each document's fields, the document's rank, their rarity). With no match at all, the
// nearest documents are those sharing a word's first letters (an FTS5 prefix query), and words that
// share those letters come first. Only the short fields of rows the search already read are used.

/** Share of the query's word weight the best hit must hold to count as a good match. */
export const GOOD_MATCH_SHARE = 0.5;
/** Words offered. */
export const SUGGESTIONS = 5;
/** Documents the words are taken from. */
const FROM_DOCS = 3;

export interface MatchQuality {
  /** Share of the query's word weight (IDF) the best hit holds (0 when nothing matched). */
  share: number;
  /** Query words the best hit holds, out of `words`. */
  held: number;
  words: number;
}

/** What a document says it is about: the fields suggestions are taken from (a search row has them). */
export interface AboutFields {
  name: string;
  summary: string;
  keyPoints: string[];
}

const WORD = /[\p{L}\p{N}_]+/gu;

const wordsOf = (match: string) => [...new Set((match.match(/"[^"]+"/g) ?? []).map((w) => w.slice(1, -1)))];

/**
 * How well the best hit (a binding id; undefined when nothing matched) holds the query's words
 * (`match`, ftsQuery's quoted words). `known` is their IDF when the search already computed it;
 * else it is counted in `inScope`, what the search reads.
 */
export async function matchQuality(
  db: BinderyDb,
  match: string,
  best: string | undefined,
  inScope: SQL,
  known?: number[],
): Promise<MatchQuality> {
  const words = wordsOf(match);
  if (!words.length || best === undefined) return { share: 0, held: 0, words: words.length };
  // A hit holds at least one word: a one-word query's best hit holds all of it.
  if (words.length === 1) return { share: 1, held: 1, words: 1 };
  const idf =
    known?.length === words.length
      ? known
      : await scopedFrequencies(
          db,
          words.map((w) => `"${w}"`),
          inScope,
        ).then((df) => df.byWord.map((d) => idfOf(d, df.total)));
  const sum = idf.reduce((a, b) => a + b, 0) || 1;
  const rows = await db.all<{ w: number }>(
    sql.join(
      words.map(
        (w, i) =>
          sql`SELECT ${i} AS w FROM bindings_fts WHERE bindings_fts MATCH ${`"${w}"`} AND rowid = (SELECT rowid FROM bindings WHERE id = ${best})`,
      ),
      sql` UNION ALL `,
    ),
  );
  const held = rows.map((r) => Number(r.w));
  return { share: held.reduce((a, i) => a + idf[i]!, 0) / sum, held: held.length, words: words.length };
}

/**
 * An FTS5 query for the documents nearest a query that matched nothing: each longer word's first four
 * letters as a prefix (undefined when no word is long enough).
 */
export function prefixQuery(match: string): string | undefined {
  const prefixes = wordsOf(match)
    .filter((w) => w.length >= 5)
    .map((w) => `"${w.slice(0, 4)}"*`);
  return prefixes.length ? prefixes.join(' OR ') : undefined;
}

/**
 * Words to try next, from the fields of the documents nearest the query (best first; the caller's
 * own search results, so nothing outside what it may read): not the query's words, in at least two
 * documents of `inScope` (what the search reads, so counts say nothing of the rest), words sharing a
 * query word's first letters first.
 */
export async function suggestTerms(db: BinderyDb, match: string, docs: AboutFields[], inScope: SQL): Promise<string[]> {
  const asked = wordsOf(match);
  if (!docs.length) return [];
  const skip = new Set(asked.map((w) => stem(w.toLowerCase())));
  const prefixes = asked.filter((w) => w.length >= 5).map((w) => w.slice(0, 4).toLowerCase());
  const mass = new Map<string, number>();
  docs.slice(0, FROM_DOCS).forEach((d, i) => {
    const text = [d.name, ...(d.keyPoints.length ? d.keyPoints : [d.summary])].join(' ');
    const ws = (text.match(WORD) ?? [])
      .map((w) => w.toLowerCase())
      .filter((w) => w.length > 2 && !/^\d+$/.test(w) && !/^_|_$/.test(w) && !STOP_WORDS.has(w) && !skip.has(stem(w)));
    for (const w of ws) mass.set(w, (mass.get(w) ?? 0) + 1 / (i + 1) / ws.length);
  });
  const candidates = [...mass.entries()].sort((a, b) => b[1] - a[1]).slice(0, SUGGESTIONS * 3);
  if (!candidates.length) return [];
  const df = await scopedFrequencies(
    db,
    candidates.map(([w]) => `"${w}"`),
    inScope,
  );
  return (
    candidates
      .map(([w, m], i) => ({
        w,
        d: df.byWord[i]!,
        s: m * idfOf(df.byWord[i]!, df.total) ** 2 * (prefixes.some((p) => w.startsWith(p)) ? 4 : 1),
      }))
      // A word in one document only would find just the document it came from.
      .filter((t) => t.d >= 2)
      .sort((a, b) => b.s - a.s)
      .slice(0, SUGGESTIONS)
      .map((t) => t.w)
  );
}
