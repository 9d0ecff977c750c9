import type { LinkScope } from '../../db/store/access.ts';
import type { BindingVersionRow } from '../../db/store/bindings.ts';
import { ftsQuery, listBindingRows, searchBindingRows, searchScopeSql } from '../../db/store/search.ts';
import type { Semantic } from '../../db/store/search-rerank.ts';
import { GOOD_MATCH_SHARE, matchQuality, prefixQuery, suggestTerms } from '../../db/store/search-suggest.ts';
import type { Caller } from '../context.ts';
import { fail } from '../errors.ts';
import type { CoreDeps } from './bindings.ts';

/** Which bindings a list or search covers: one space (by id, already resolved) or all the caller may read. */
export interface FindScope {
  spaceId?: string;
  /** Which public-link shares count inside that space (a link page passes its secret's scope). */
  links?: LinkScope;
  offset: number;
  limit: number;
}

/**
 * A page of the live bindings the caller may read, most recently updated first: what list_bindings,
 * the web app's list and a space link's page show.
 */
export function listBindings(
  deps: Pick<CoreDeps, 'db'>,
  caller: Caller,
  scope: FindScope,
): Promise<{ rows: BindingVersionRow[]; total: number }> {
  return listBindingRows(deps.db, { userId: caller.id, ...scope });
}

/**
 * A page of BM25 hits among the bindings the caller may read, as search_bindings ranks them. A query
 * with no letter or digit is INVALID_INPUT on `field` (the name the caller gave it).
 */
export function searchBindings(
  deps: Pick<CoreDeps, 'db'>,
  caller: Caller,
  query: string,
  field: string,
  scope: FindScope & { semantic?: Semantic },
) {
  return searchBindingRows(deps.db, searchMatch(query, field), { userId: caller.id, ...scope, text: query });
}

/** The index's match expression for a query, or INVALID_INPUT on `field` when it holds no letter or digit. */
export function searchMatch(query: string, field: string): string {
  const match = ftsQuery(query);
  if (!match) throw fail.invalid(field, 'must contain at least one letter or digit');
  return match;
}

/** What a first page says when its best hit holds too little of the query. */
export interface WeakMatchFigures {
  held: number;
  words: number;
  share: number;
  tryWords: string[];
}

/**
 * The weak-match report for the first page `found` of searching `query` in the caller's scope (one
 * space, else its default scope), or undefined when the best hit holds enough of the query. Every
 * figure is counted over what this search reads: nothing private to others moves it.
 */
export async function weakMatch(
  deps: Pick<CoreDeps, 'db'>,
  caller: Caller,
  query: string,
  found: { rows: BindingVersionRow[]; idf?: number[] },
  spaceId?: string,
): Promise<WeakMatchFigures | undefined> {
  const match = searchMatch(query, 'query');
  const scope = { userId: caller.id, spaceId };
  const rows = found.rows;
  const inScope = searchScopeSql(scope);
  const q = await matchQuality(deps.db, match, rows[0]?.bindingId, inScope, found.idf);
  if (rows.length && q.share >= GOOD_MATCH_SHARE) return undefined;
  let near = rows;
  if (!near.length) {
    // Nothing matched: the documents (the caller may read) sharing a word's first letters.
    const prefix = prefixQuery(match);
    near = prefix ? (await searchBindingRows(deps.db, prefix, { ...scope, offset: 0, limit: 3 })).rows : [];
  }
  return { ...q, share: Math.round(q.share * 100) / 100, tryWords: await suggestTerms(deps.db, match, near, inScope) };
}
