import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { bindingsTable, spacesTable, versionsTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';
import { canReadBindingSql, defaultScopeSql, type LinkScope } from './access.ts';
import { bindingColumns, versionMetaColumns, type BindingVersionRow } from './bindings.ts';
import { contentWords } from '../text/analyzer.ts';
import { rerank, type Semantic } from './search-rerank.ts';

export interface ScopeOptions {
  userId: string;
  /** Restrict to one space (then public spaces count too); else the caller's default scope. */
  spaceId?: string;
  /** Which public-link shares count inside that space (default any: the space was named by id or is readable anyway). */
  links?: LinkScope;
  offset: number;
  limit: number;
  /** Overrides TOTAL_CAP (tests reach the capped total with few rows). */
  caps?: { total: number };
  /** The optional embedding signal for the re-ranker (./search-rerank.ts `fuse`). */
  semantic?: Semantic;
  /** The query as typed: a document it names ranks higher (./search-rerank.ts). */
  text?: string;
}

function scope(opts: Pick<ScopeOptions, 'userId' | 'spaceId' | 'links'>): SQL {
  return opts.spaceId
    ? sql`(bindings.space_id = ${opts.spaceId} AND ${canReadBindingSql(opts.userId, opts.links)})`
    : defaultScopeSql(opts.userId);
}

/** Live bindings in scope at their current version, most recently updated first. */
export async function listBindingRows(db: BinderyDb, opts: ScopeOptions): Promise<{ rows: BindingVersionRow[]; total: number }> {
  const where = and(isNull(bindingsTable.deletedAt), scope(opts));
  const rows = await db
    .select({ ...bindingColumns, ...versionMetaColumns })
    .from(bindingsTable)
    .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
    .innerJoin(versionsTable, and(eq(versionsTable.bindingId, bindingsTable.id), eq(versionsTable.number, bindingsTable.currentVersion)))
    .where(where)
    .orderBy(desc(bindingsTable.updatedAt), desc(bindingsTable.id))
    .limit(opts.limit)
    .offset(opts.offset)
    .all();
  const total = await db
    .select({ n: sql<number>`count(*)` })
    .from(bindingsTable)
    .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
    .where(where)
    .get();
  return { rows: rows as BindingVersionRow[], total: total?.n ?? 0 };
}

/**
 * Turns free text into a safe FTS5 query: its content words (stop words such as "how do I" left out,
 * see ../text/analyzer.ts; none cut off) each quoted, any word may match; BM25 and the re-ranker rank.
 */
export function ftsQuery(text: string): string | undefined {
  const words = contentWords(text);
  if (!words.length) return undefined;
  return words.map((w) => `"${w}"`).join(' OR ');
}

/** Column weights for bm25(): name, summary, key points, headings, content. */
const WEIGHTS = sql.raw('bm25(bindings_fts, 10.0, 5.0, 3.0, 6.0, 1.0)');

/**
 * The boosts on top of BM25, as FTS expressions built from `ftsQuery`'s quoted words (letters, digits
 * and `_` only, so nothing in them is FTS syntax): a hit with every word counts 1.5×, one with the
 * words as a phrase (or all within a few words of each other) 2× more. One-word queries get none.
 */
function boosts(match: string): SQL {
  const words = [...new Set(match.match(/"[^"]+"/g) ?? [])];
  if (words.length < 2) return sql`1.0`;
  const all = words.join(' AND ');
  const near = `"${words.map((w) => w.slice(1, -1)).join(' ')}" OR NEAR(${words.join(' ')}, ${Math.max(6, words.length * 2)})`;
  const within = (expr: string) => sql`(bindings_fts.rowid IN (SELECT rowid FROM bindings_fts WHERE bindings_fts MATCH ${expr}))`;
  return sql`(1.0 + 0.5 * ${within(all)} + 1.0 * ${within(near)})`;
}

/** Matches counted exactly; past this, `total` is a lower bound (`totalCapped`). */
export const TOTAL_CAP = 1000;

/**
 * A superset of what the default scope reads, as plain id lists SQLite materialises once per
 * statement: owned spaces, spaces shared by name, bindings shared one by one or through a set. It
 * lets a match be dropped by an indexed lookup; `scope()` still decides, on the rows that pass.
 */
function scopeHint(opts: Pick<ScopeOptions, 'userId' | 'spaceId'>): SQL {
  if (opts.spaceId) return sql`bindings.space_id = ${opts.spaceId}`;
  const mine = sql`s.grantee_id = ${opts.userId} AND s.revoked_at IS NULL AND s.accepted_at IS NOT NULL`;
  return sql`(bindings.space_id IN (SELECT id FROM spaces WHERE owner_id = ${opts.userId}
      UNION ALL SELECT s.target_id FROM shares s WHERE ${mine} AND s.target_type = 'space')
    OR bindings.id IN (SELECT s.target_id FROM shares s WHERE ${mine} AND s.target_type = 'binding'
      UNION ALL SELECT si.binding_id FROM shares s JOIN set_items si ON si.set_id = s.target_id WHERE ${mine} AND s.target_type = 'set'))`;
}

/**
 * What a search reads: live bindings in its scope (expects `bindings` and `spaces` under those names),
 * without the index hint, which only pays where the scope drives the query: counting a word's
 * documents (FTS drives) costs 23 instead of 40 ms for four words in 92 % of 10k bindings.
 */
export function searchScopeSql(opts: Pick<ScopeOptions, 'userId' | 'spaceId' | 'links'>): SQL {
  return sql`bindings.deleted_at IS NULL AND ${scope(opts)}`;
}

type Hit = BindingVersionRow & { rank: number };

/**
 * Full-text search: BM25 with column weights (name 10, headings 6, summary 5, key points 3, content 1)
 * times the boosts above. `bm25()` is negative, lower is better, so results are ordered ascending.
 *
 * Speed: an FTS row's rowid is its binding's rowid (see ./fts.ts), so matches join `bindings` by
 * integer key, and the caller's readable spaces and shared bindings narrow them by index before the
 * exact access rule runs. Matches are counted up to TOTAL_CAP (past it `total` is a lower bound and
 * `totalCapped` is set), so the count no longer reads every match.
 */
export async function searchBindingRows(
  db: BinderyDb,
  match: string,
  opts: ScopeOptions,
): Promise<{ rows: Hit[]; total: number; totalCapped: boolean; idf?: number[] }> {
  const inScope = sql`bindings.deleted_at IS NULL AND ${scopeHint(opts)} AND ${scope(opts)}`;
  const hits = (m: string) => sql`FROM bindings_fts
    JOIN bindings ON bindings.rowid = bindings_fts.rowid
    JOIN spaces ON spaces.id = bindings.space_id
    WHERE bindings_fts MATCH ${m} AND ${inScope}`;
  const cap = opts.caps?.total ?? TOTAL_CAP;
  const want = Math.max(cap, opts.offset + opts.limit);
  const counted = Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM (SELECT 1 ${hits(match)} LIMIT ${want + 1})`))?.n ?? 0);
  // Every match in scope is ranked: a cheaper pool of candidates (newest, or best by plain BM25 before
  // the boosts) was tried and dropped, as it loses the best document (an old one with a rare word in
  // its body alone) or costs as much as ranking them all. FTS5's BM25 is linear in the matches.
  // The best RERANK_POOL by BM25 × boosts are then re-ranked with per-word signals (./search-rerank.ts).
  const pool = Math.max(RERANK_POOL, opts.offset + opts.limit);
  // With the semantic signal, each candidate's boost tells the re-ranker which hold every word (≥ 1.5).
  const boost = opts.semantic ? sql`, ${boosts(match)} AS boost` : sql``;
  const ranked = await db.all<{
    rid: number;
    rank: number;
    bid: string;
    boost?: number;
  }>(sql`SELECT bindings.rowid AS rid, ${WEIGHTS} * ${boosts(match)} AS rank, bindings.id AS bid${boost} ${hits(match)}
    ORDER BY rank ASC, bindings.id LIMIT ${pool}`);
  const reranked = await rerank(db, match, ranked, searchScopeSql(opts), opts.semantic, opts.text);
  const order = reranked.order.slice(opts.offset, opts.offset + opts.limit);
  if (!order.length) return { rows: [], total: counted, totalCapped: counted > want };
  const values = sql.join(
    order.map((h, i) => sql`(${h.rid}, ${i}, ${h.bid})`),
    sql`, `,
  );
  const page = sql`SELECT column1 AS rid, column2 AS rank, column3 AS bid FROM (VALUES ${values})`;
  return {
    rows: await withVersions(db, page),
    total: counted,
    totalCapped: counted > want,
    ...(reranked.idf ? { idf: reranked.idf } : {}),
  };
}

/** How many of BM25's best candidates the re-ranker orders (more only when a page reaches past them). */
export const RERANK_POOL = 50;

/** The page's rows (rid, rank, bid) with their version columns, in rank order. */
async function withVersions(db: BinderyDb, page: SQL): Promise<Hit[]> {
  const cols = Object.entries({ ...bindingColumns, ...versionMetaColumns }).map(([alias, col]) => sql`${col} AS ${sql.identifier(alias)}`);
  const rows = await db.all<Record<string, unknown>>(
    sql`SELECT ${sql.join(cols, sql`, `)}, hit.rank AS rank
    FROM (${page}) AS hit
    JOIN bindings ON bindings.rowid = hit.rid
    JOIN spaces ON spaces.id = bindings.space_id
    JOIN versions ON versions.binding_id = bindings.id AND versions.number = bindings.current_version
    ORDER BY hit.rank, hit.bid`,
  );
  return rows.map((r) => ({ ...r, keyPoints: JSON.parse(String(r.keyPoints)) }) as Hit);
}
