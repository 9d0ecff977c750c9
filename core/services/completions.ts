import type { Caller } from '../context.ts';
import { completeBindingSlugs, completeSetIds, completeSpaceSlugs, type Completion } from '../../db/store/completions.ts';
import type { CoreDeps } from './bindings.ts';

export type { Completion };

/**
 * Names starting with `prefix` that the caller could list or read by them: space slugs, binding slugs
 * (in one space, or in every space the caller reads), or set ids. Each query is scoped to the caller,
 * so no other user's private name is suggested, counted or told apart from a missing one.
 */
export function completeNames(
  deps: Pick<CoreDeps, 'db'>,
  caller: Caller,
  kind: 'space' | 'binding' | 'setId',
  prefix: string,
  max: number,
  space?: string,
): Promise<Completion> {
  if (kind === 'space') return completeSpaceSlugs(deps.db, caller.id, prefix, max);
  if (kind === 'binding') return completeBindingSlugs(deps.db, caller.id, space, prefix, max);
  return completeSetIds(deps.db, caller.id, prefix, max);
}
