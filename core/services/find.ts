import type { LinkScope } from '../../db/store/access.ts';
import type { BindingVersionRow } from '../../db/store/bindings.ts';
import { ftsQuery, listBindingRows, searchBindingRows } from '../../db/store/search.ts';
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
export function searchBindings(deps: Pick<CoreDeps, 'db'>, caller: Caller, query: string, field: string, scope: FindScope) {
  const match = ftsQuery(query);
  if (!match) throw fail.invalid(field, 'must contain at least one letter or digit');
  return searchBindingRows(deps.db, match, { userId: caller.id, ...scope });
}
