import { sql, type SQL } from 'drizzle-orm';
import type { BinderyDb } from '../types.ts';
import { idfOf, scopedFrequencies } from './search-stats.ts';
import { stem, STOP_WORDS, WORD } from '../text/analyzer.ts';

// Re-ranking of BM25's best candidates for a query of several words. BM25 over an OR of the words
// lets a long document that repeats one common word of a question outrank the one that holds most of
// its words; a question's answer usually holds the rarer words of the question together, and names
// them in its title, summary, key points or headings. So each candidate is scored again by:
// - BM25 itself (× the all-words and phrase boosts), normalised to the pool's best, so that keyword
//   lookups keep their order;
// - field coverage: the share of the query's word weight (IDF, from document frequencies in the search's scope)
//   that its name, summary, key points and headings hold.
// Measured on the everyday-question tuning half (bench/everyday.bench.ts), coverage of the whole text
// (squared or not) did worse than BM25 alone and was dropped; field coverage lifted success@1 and MRR.
// The signals come from the FTS index (per-word MATCH restricted to the pool), and from the pool's names
// (one short row per candidate): a query that writes out one document's name is about it.
// Tried and dropped on the same tuning half (issue 15, second round), so that nobody tries them blind:
// - pseudo-relevance feedback (RM3-style: words of the first pass's 1–5 best documents' names,
//   summaries and key points, weighed by share, score and IDF, re-queried and interpolated at weights
//   0.1–0.5): success@5 52.6 → 47.4–52.6 %. The first pass's best documents are mostly wrong for these
//   questions, so the expansion drifts ("playwright", "mcp", "heal");
// - proximity of neighbouring query words (NEAR within 8, the sequential dependence model's windows):
//   MRR +0.013, success@5 unchanged, +14 ms p50 at 10k bindings;
// - abbreviation ↔ expansion pairs written side by side ("TTL (time to live)"): the 432 documents
//   hold 22 such pairs and none touches a tuning question, so no table was built for them.
// - term associations the corpus teaches (third round): a small LSA (randomised truncated SVD, 100
//   dimensions, of a tf-idf term × document matrix over names, summaries, key points and headings,
//   1 418 terms in 2–20 % of the 432 documents), learned lazily per process; the question folded in
//   as the IDF-weighted sum of its term vectors; each candidate's cosine fused through `fuse` below
//   (strong lexical best pinned), plus the 10–30 latent-nearest documents BM25 missed as extra
//   candidates. Tuning half success@5 52.6 % at best (weight 0.3, 0–10 added; 50 % at 0.5–1), MRR
//   0.33 → 0.336; weight 2 with 30 added: MRR 0.364 but success@5 still 52.6 %, tier 0 76.3 → 73.7 %,
//   keyword success@5 100 → 96.3 %. On its own the latent ranking holds the target in its top 5/10/20/50
//   for 16/19/23/29 of the 38 tuning questions (with section text in the matrix: 14/15/24/30), but
//   mostly the ones BM25 already finds: of the 10 misses outside BM25's top 50, two come within the
//   latent top 20 (ranks 12, 17), the rest rank 55–300 (cleanup on ctrl-c → signal-exit 157, resume a
//   download → range-parser 215, spaces before each line → indent-string 304). Folding the question
//   in through the documents that hold its words (FTS5's own stems) instead of term vectors did worse
//   (13/17/19/24). Expanding the question with the 8 terms nearest it in latent space (a separate OR
//   query adding 10–20 candidates) changed nothing either: the neighbours are noise ("resume a big
//   download" → onbodysent, maxredirection, statustext). Held-out half at weight 0.3 with 10 added:
//   success@5 50 → 52.6 % (one question), MRR 0.357 → 0.361. Cost at 432 documents: learning 0.73 s, +6.7 MB heap (model 0.74 MB), scoring
//   0.3 ms, search p50 22.8 → 24–27 ms; linear in the field postings, so ~1.7 s at 1k and ~17 s at
//   10k (estimated). 432 short documents teach too little co-occurrence to bridge these gaps, so it
//   was not wired in.
// The misses are vocabulary gaps (10 of 18 tuning misses are not in BM25's top 50 at all): the
// optional embedding signal below (`fuse`) is the way to them.

export interface Candidate {
  rid: number;
  rank: number;
  bid: string;
  /** The all-words and phrase boost BM25 was multiplied by (present when search asks for semantics). */
  boost?: number;
}

/** Columns that say what a document is about, as an FTS5 column filter. */
const FIELDS = '{name summary key_points headings}';
/**
 * Weight of field coverage against normalised BM25. 0.5 did best on the tuning half but cost keyword
 * lookups (tests/core/search-ranking.test.ts success@1 87.4 → 84.8 %); 0.2 keeps them (86.7 %).
 */
const FIELD_WEIGHT = 0.2;

/**
 * Candidates in their new order (the same objects), and the IDF of each query word when it was
 * computed (search reuses it to judge the best match). One-word queries and tiny pools keep BM25's order.
 * `inScope` is what the search reads: word weights are counted there (./search-stats.ts).
 */
export async function rerank(
  db: BinderyDb,
  match: string,
  pool: Candidate[],
  inScope: SQL,
  semantic?: Semantic,
  text?: string,
): Promise<{ order: Candidate[]; idf?: number[] }> {
  const words = [...new Set(match.match(/"[^"]+"/g) ?? [])];
  if (words.length < 2 || pool.length < 2) return { order: pool };
  const rids = sql.join(
    pool.map((c) => sql`${c.rid}`),
    sql`, `,
  );
  const rows = await db.all<{ w: number; rid: number }>(
    sql.join(
      words.map(
        (w, i) =>
          sql`SELECT ${i} AS w, rowid AS rid FROM bindings_fts WHERE bindings_fts MATCH ${`${FIELDS} : ${w}`} AND rowid IN (${rids})`,
      ),
      sql` UNION ALL `,
    ),
  );
  const df = await scopedFrequencies(db, words, inScope);
  const idf = df.byWord.map((d) => idfOf(d, df.total));
  const sum = idf.reduce((a, b) => a + b, 0) || 1;
  const head = new Map<number, number>();
  for (const r of rows) head.set(Number(r.rid), (head.get(Number(r.rid)) ?? 0) + idf[Number(r.w)]!);
  const best = Math.min(...pool.map((c) => c.rank)) || -1;
  // BM25 relative to the pool's best (1 there, smaller below; bm25 is negative) plus field coverage
  // (0–1), plus NAME_BONUS for the document the query names.
  const named = await namedBy(db, text, rids);
  const score = (c: Candidate) => c.rank / best + (FIELD_WEIGHT * (head.get(c.rid) ?? 0)) / sum + (named.has(c.rid) ? NAME_BONUS : 0);
  const scored = pool.map((c, i) => ({ c, s: score(c), i }));
  scored.sort((a, b) => b.s - a.s || a.i - b.i);
  if (semantic) await fuse(scored, semantic);
  return { order: scored.map((x) => x.c), idf };
}

/**
 * What a candidate gains when the query writes out its name ("raw-body limit exceeded error type",
 * "@types/node dependencies"), against BM25 normalised to 1 at the pool's best. The question names the
 * package, yet BM25 folds a name's weight into a saturating term frequency, so a long README repeating
 * "limit" and "error" ranked above raw-body's. Replaying 1,456 models' first searches (sets 1–8):
 * 4 more first calls show the answer (json-with-bigint, @types/node, file-type, raw-body), nothing
 * lost, at any bonus from 0.2 to 1; the everyday and keyword benches unchanged.
 */
const NAME_BONUS = 0.5;

/** A name's words as a query writes them: stemmed, stop words kept ("type-is" is not "type"), lone letters ("Vite's") left out. */
const nameWords = (text: string) => (text.match(WORD) ?? []).filter((w) => w.length > 1 || /\d/.test(w)).map(stem);

/** The candidates named by the query (see `namedIn`), by rowid. */
async function namedBy(db: BinderyDb, text: string | undefined, rids: SQL): Promise<Set<number>> {
  if (!text) return new Set();
  const rows = await db.all<{ rid: number; name: string }>(
    sql`SELECT bindings.rowid AS rid, versions.name AS name FROM bindings
      JOIN versions ON versions.binding_id = bindings.id AND versions.number = bindings.current_version
      WHERE bindings.rowid IN (${rids})`,
  );
  const named = namedIn(
    text,
    rows.map((r) => r.name),
  );
  return new Set(named.map((i) => Number(rows[i]!.rid)));
}

/**
 * Which of `names` a query writes out, by index: a name whose words are those of one of the query's
 * white-space separated chunks, or of a run of them, written as a name ("raw-body", "@types/node",
 * "zod-to-json-schema": MARKED). Plain words name nothing: "send the last 404 reply" is not about the
 * package called send, nor "open the browser" about open (measured: every name in plain words cost
 * the everyday bench, 36.8 → 31.6 % of passages naming the document asked for). A word inside a
 * longer identifier ("ingest.rows.v2") does not name "Ingest", a name of stop words alone ("is") is
 * never named, and a query naming two names names neither for sure: only one name, on one or more
 * documents, is returned.
 */
export function namedIn(text: string, names: readonly string[]): number[] {
  const chunks = text
    .split(/\s+/)
    .slice(0, MAX_CHUNKS)
    .map((c) => ({ words: nameWords(c), marked: c.includes('`') || MARKED.test(c.replace(EDGES, '')) }))
    .filter((c) => c.words.length > 0);
  const runs = new Set<string>();
  for (let i = 0; i < chunks.length; i++) {
    let run: string[] = [];
    let marked = false;
    for (const chunk of chunks.slice(i, i + MAX_RUN)) {
      run = [...run, ...chunk.words];
      marked ||= chunk.marked;
      if (marked) runs.add(run.join(' '));
    }
  }
  const named = new Map<string, number[]>();
  names.forEach((name, i) => {
    const words = nameWords(name);
    const key = words.join(' ');
    if (words.some((w) => !STOP_WORDS.has(w)) && runs.has(key)) named.set(key, [...(named.get(key) ?? []), i]);
  });
  return named.size === 1 ? [...named.values()][0]! : [];
}
/** What a chunk's edges may hold without marking it: quotes, brackets, "?" and a possessive "'s". */
const EDGES = /^[^\p{L}\p{N}@]+|(?:['’]s)?[^\p{L}\p{N}]*$/gu;
/** A chunk written as a name, not a word: in backticks, or holding a character other than a letter ("raw-body", "@types/node", "v2"), or camelCase. */
const MARKED = /[^\p{L}]|\p{Ll}\p{Lu}/u;
/** Bounds on the chunks read and on how many make one name (a query is at most 500 characters). */
const MAX_CHUNKS = 100;
const MAX_RUN = 6;

/** An optional semantic signal: cosine of the query with each candidate (by binding id), and its weight. */
export interface Semantic {
  scores(bindingIds: string[]): Promise<Map<string, number>>;
  weight: number;
}

/** A lexical best this many times the runner-up's score is a strong match: no semantic signal moves it. */
const STRONG_LEXICAL = 1.5;
/** So is a lexical best holding every word of the query (its boost is 1.5, 2.5 with the phrase). */
const ALL_WORDS_BOOST = 1.5;

/**
 * Adds the semantic signal to the lexical scores (in place, then re-sorts): each candidate's cosine,
 * scaled to 0–1 across the pool, times its weight. Candidates without a vector get 0 (they keep
 * their lexical standing against the rest with none). A strong lexical best (every word of the query,
 * or far ahead of the runner-up) stays first whatever the vectors say: a weak model must not cost
 * keyword lookups.
 */
async function fuse(scored: { c: Candidate; s: number; i: number }[], semantic: Semantic): Promise<void> {
  const cos = await semantic.scores(scored.map((x) => x.c.bid));
  const values = [...cos.values()];
  if (values.length < 2 || semantic.weight <= 0) return;
  const lo = Math.min(...values);
  const span = Math.max(...values) - lo || 1;
  const top = scored[0]!;
  const strong = (top.c.boost ?? 1) >= ALL_WORDS_BOOST || (scored.length > 1 && top.s >= STRONG_LEXICAL * Math.max(scored[1]!.s, 1e-9));
  const pinned = strong ? top : undefined;
  for (const x of scored) {
    const c = cos.get(x.c.bid);
    if (c !== undefined) x.s += (semantic.weight * (c - lo)) / span;
  }
  scored.sort((a, b) => (a === pinned ? -1 : b === pinned ? 1 : b.s - a.s || a.i - b.i));
}
