import { sql, type SQL } from 'drizzle-orm';
import type { BinderyDb } from '../types.ts';

// The statistics search's own figures are computed from (the re-ranker's IDF, a weak match's share,
// which words are offered): documents holding each word and documents searched, counted over the
// search's scope only, never the whole index. Counted index-wide, another user's private documents
// moved them: as one added 0 → 3 documents holding a word, an outsider's `weakMatch.share` for it
// went 0.03 → 0.34. FTS5's own bm25() still uses index-wide counts: docs/security.md.

/** Documents holding each word and documents in all. */
export interface Frequencies {
  byWord: number[];
  total: number;
}

/**
 * Live documents in `inScope` (a condition on `bindings` and `spaces`, as search.ts builds it) holding
 * each word (`words`: FTS5 strings, quoted), and the live documents in it.
 */
export async function scopedFrequencies(db: BinderyDb, words: string[], inScope: SQL): Promise<Frequencies> {
  const from = sql`FROM bindings JOIN spaces ON spaces.id = bindings.space_id`;
  const row = await db.get<Record<string, number>>(
    sql`SELECT ${sql.join(
      words.map(
        (
          w,
          i,
        ) => sql`(SELECT count(*) FROM bindings_fts JOIN bindings ON bindings.rowid = bindings_fts.rowid JOIN spaces ON spaces.id = bindings.space_id
        WHERE bindings_fts MATCH ${w} AND ${inScope}) AS ${sql.identifier(`d${i}`)}`,
      ),
      sql`, `,
    )}, (SELECT count(*) ${from} WHERE ${inScope}) AS total`,
  );
  return { byWord: words.map((_, i) => Number(row?.[`d${i}`] ?? 0)), total: Number(row?.total ?? 0) };
}

/** BM25's IDF of a word held by `d` of `n` documents (as the re-ranker and the weak-match share weigh words). */
export function idfOf(d: number, n: number): number {
  return Math.log(1 + (Math.max(n, 1) - d + 0.5) / (d + 0.5));
}
