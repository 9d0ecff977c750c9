import type { Caller, CoreDeps } from '../context.ts';
import { fail } from '../errors.ts';
import { idPattern } from '../ids.ts';
import { personalSpace } from '../../db/store/users.ts';
import {
  findableIdsWithPrefix,
  listVersionRows,
  readableBindingsCurrent,
  readableBindingVersion,
  versionContent,
  type BindingVersionRow,
} from '../../db/store/bindings.ts';
import { readableBindingBySlug } from '../../db/store/slugs.ts';
import { freshCounts } from './counts.ts';

// Reading bindings as a caller: by id (or the short id a passage line shows), by name, many at once,
// their versions and content. Unreadable looks missing everywhere. Writes are in ./bindings.ts.

/** A binding the caller may read, or NOT_FOUND (same text whether missing or private). */
export async function readBinding(deps: CoreDeps, caller: Caller, id: string, opts: { version?: number; withContent?: boolean } = {}) {
  const row = await readableBindingVersion(deps.db, caller.id, id, opts);
  if (!row) {
    if (opts.version !== undefined && (await readableBindingVersion(deps.db, caller.id, id))) {
      throw fail.notFound('version', `${opts.version} of ${id}`, 'version');
    }
    throw fail.notFound('binding', id);
  }
  await freshCounts(deps, [row]);
  return row;
}

/**
 * The binding id a reference names: a whole id as given, or the one binding the caller can find
 * (findableIdsWithPrefix) whose id starts with the first characters a passage line showed. None is
 * NOT_FOUND, as for a missing id; two is INVALID_INPUT asking for the whole id (both are the caller's).
 */
export async function resolveBindingRef(deps: CoreDeps, caller: Caller, ref: string): Promise<string> {
  const id = await bindingRefId(deps, caller, ref);
  if (id === undefined) throw fail.notFound('binding', ref);
  return id;
}

/** As resolveBindingRef, for many references: each one's id, or the reference itself when it names none (a read then finds nothing). */
export async function resolveBindingRefs(deps: CoreDeps, caller: Caller, refs: readonly string[]): Promise<string[]> {
  return Promise.all(refs.map(async (ref) => (await bindingRefId(deps, caller, ref)) ?? ref));
}

const WHOLE_ID = new RegExp(`^${idPattern('bnd')}$`);

async function bindingRefId(deps: CoreDeps, caller: Caller, ref: string): Promise<string | undefined> {
  if (WHOLE_ID.test(ref)) return ref;
  const ids = await findableIdsWithPrefix(deps.db, caller.id, ref, 2);
  if (ids.length > 1)
    throw fail.invalid(
      'id',
      `${ref} starts the ids of more than one document you can read: give its whole id (search with tier "0" shows it)`,
    );
  return ids[0];
}

/**
 * A page of the versions of a binding the caller has read (pass the row readBinding returned), newest
 * first, their stored counts current, with the total.
 */
export async function listVersions(deps: CoreDeps, binding: BindingVersionRow, offset: number, limit: number) {
  const page = await listVersionRows(deps.db, binding.bindingId, offset, limit);
  await freshCounts(
    deps,
    page.rows.map((v) =>
      Object.assign(v, { bindingId: binding.bindingId, spaceSlug: binding.spaceSlug, bindingSlug: binding.bindingSlug }),
    ),
  );
  return page;
}

/** The full content of a version the caller has read (pass the row readBinding returned), read if the row lacks it. */
export async function contentOf(deps: CoreDeps, row: BindingVersionRow): Promise<string> {
  return row.content ?? (await versionContent(deps.db, row.bindingId, row.number)) ?? '';
}

/**
 * The id of the binding at `slug` in a space (by slug; the caller's personal space when none is given)
 * that the caller may read, or undefined: missing and unreadable look the same.
 */
export async function findReadableBindingId(
  deps: Pick<CoreDeps, 'db'>,
  caller: Caller,
  slug: string,
  spaceSlug?: string,
): Promise<string | undefined> {
  const space = spaceSlug ?? (await personalSpace(deps.db, caller.id))?.slug;
  const row = space ? await readableBindingBySlug(deps.db, caller.id, space, slug, 'none') : undefined;
  return row?.bindingId;
}

/**
 * The live binding `space`/`slug` (at `version`, else the current one) if the caller may read it by
 * these guessable names: public links do not count (as for `/@space/slug` pages). Missing, deleted,
 * unreadable and version-less all come back undefined, after the same queries.
 */
export async function readableByName(
  deps: Pick<CoreDeps, 'db'>,
  caller: Caller,
  space: string,
  slug: string,
  opts: { version?: number; withContent?: boolean } = {},
): Promise<BindingVersionRow | undefined> {
  const current = await readableBindingBySlug(deps.db, caller.id, space, slug, 'none');
  if (!current) return undefined;
  return readableBindingVersion(deps.db, caller.id, current.bindingId, { ...opts, links: 'none' });
}

/** Many bindings the caller may read, at their current versions without content, keyed by id (unreadable ones absent). */
export function readableCurrent(deps: Pick<CoreDeps, 'db'>, caller: Caller, ids: string[]): Promise<Map<string, BindingVersionRow>> {
  return readableBindingsCurrent(deps.db, caller.id, ids, false);
}
