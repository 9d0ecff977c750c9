import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { bindingsTable, spacesTable, versionsTable } from '../schema/index';
import type { BinderyDb } from '../types';
import { canReadBindingSql, defaultScopeSql, type LinkScope } from './access';
import { bindingColumns, versionMetaColumns, type BindingVersionRow } from './bindings';

export interface ScopeOptions {
  userId: string;
  /** Restrict to one space (then public spaces count too); else the caller's default scope. */
  spaceId?: string;
  /** Which public-link shares count inside that space (default any: the space was named by id or is readable anyway). */
  links?: LinkScope;
  offset: number;
  limit: number;
}

function scope(opts: ScopeOptions): SQL {
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

/** Turns free text into a safe FTS5 query: every word quoted, any word may match, BM25 ranks. */
export function ftsQuery(text: string): string | undefined {
  const words = text.match(/[\p{L}\p{N}_]+/gu)?.slice(0, 32);
  if (!words?.length) return undefined;
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

/**
 * Full-text search: BM25 with column weights (name 10, headings 6, summary 5, key points 3, content 1)
 * times the boosts above. `bm25()` is negative, lower is better, so results are ordered ascending.
 *
 * Speed: an FTS row's rowid is its binding's rowid (see ./fts.ts), so matches join `bindings` by
 * integer key (the index is contentless: it has no columns to read). Ranking runs on bindings and
 * spaces only; version columns are fetched for the page of hits alone.
 */
export async function searchBindingRows(db: BinderyDb, match: string, opts: ScopeOptions): Promise<{ rows: (BindingVersionRow & { rank: number })[]; total: number }> {
  const cols = Object.entries({ ...bindingColumns, ...versionMetaColumns })
    .map(([alias, col]) => sql`${col} AS ${sql.identifier(alias)}`);
  const hits = sql`FROM bindings_fts
    JOIN bindings ON bindings.rowid = bindings_fts.rowid
    JOIN spaces ON spaces.id = bindings.space_id
    WHERE bindings_fts MATCH ${match} AND bindings.deleted_at IS NULL AND ${scope(opts)}`;
  const rows = await db.all<Record<string, unknown>>(
    sql`SELECT ${sql.join(cols, sql`, `)}, hit.rank AS rank
    FROM (SELECT bindings.rowid AS rid, ${WEIGHTS} * ${boosts(match)} AS rank ${hits}
          ORDER BY rank ASC, bindings.id LIMIT ${opts.limit} OFFSET ${opts.offset}) AS hit
    JOIN bindings ON bindings.rowid = hit.rid
    JOIN spaces ON spaces.id = bindings.space_id
    JOIN versions ON versions.binding_id = bindings.id AND versions.number = bindings.current_version
    ORDER BY hit.rank ASC, bindings.id`,
  );
  const total = await db.get<{ n: number }>(sql`SELECT count(*) AS n ${hits}`);
  return {
    rows: rows.map((r) => ({ ...r, keyPoints: JSON.parse(String(r.keyPoints)) }) as BindingVersionRow & { rank: number }),
    total: Number(total?.n ?? 0),
  };
}
