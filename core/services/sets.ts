import type { Caller } from '../context.ts';
import { BinderyError, fail } from '../errors.ts';
import { newId } from '../ids.ts';
import { tierCost, type Tier } from '../budget/tier.ts';
/** The tiers a set's stored cost is reported at (tier 0, one line per item, is left out of that figure). */
type CardTier = Exclude<Tier, '0'>;
import { readableBindingsCurrent, type BindingVersionRow } from '../../db/store/bindings.ts';
import {
  insertSet,
  listSetRows,
  readableSet,
  replaceSetItems,
  setItemRows,
  softDeleteSet,
  updateSetMeta,
  type SetItemInput,
  type SetWithSpace,
} from '../../db/store/sets.ts';
import { resolveWritableSpace, type CoreDeps } from './bindings.ts';
import { applyItemEdits, type ItemEdits } from './set-edits.ts';
import { freshCounts } from './counts.ts';

/** A set holds at most this many items: enough for any curated context, small enough to pack in one call. */
export const MAX_SET_ITEMS = 500;
/** Edits that lose a race against another edit of the same set are re-applied on top of it, up to this often. */
const EDIT_ATTEMPTS = 30;

/** A live set the caller may read, or NOT_FOUND (same text whether missing or private). */
export async function readSet(deps: CoreDeps, caller: Caller, id: string): Promise<SetWithSpace> {
  const set = await readableSet(deps.db, caller.id, id);
  if (!set) throw setNotFound(id);
  return set;
}

function setNotFound(id: string): BinderyError {
  return new BinderyError('NOT_FOUND', fail.notFound('set', id).message, 'id', 'list_sets shows the sets you can read.');
}

/** A set the caller may change: only its space's owner; readable-but-not-owned is FORBIDDEN. */
export async function writableSet(deps: CoreDeps, caller: Caller, id: string): Promise<SetWithSpace> {
  const set = await readSet(deps, caller, id);
  if (set.spaceOwnerId !== caller.id) throw fail.forbidden(`set ${id} is in @${set.spaceSlug}, which you may read but not change`);
  return set;
}

export interface SetEntry {
  position: number;
  pinned: boolean;
  row: BindingVersionRow;
}
export interface SkippedEntry {
  position: number;
  id: string;
  reason: 'deleted' | 'no longer readable';
}
export interface SetContents {
  /** Live items the caller may read, in order. */
  items: SetEntry[];
  /** Items shown to the caller as skipped: deleted ones it could read, and (to the owner) unreadable ones. */
  skipped: SkippedEntry[];
  totalTokenCount: number;
  /** Stored cost of the whole set at each tier. */
  tierTokens: Record<CardTier, number>;
  /** Every stored item (the owner's edit base). */
  stored: SetItemInput[];
}

/**
 * A set's items as the caller sees them, from stored counts only. Items the caller cannot read are
 * invisible to anyone but the owner (no id, no count, no gap in positions): a set never reveals a
 * private binding. Deleted bindings are reported as skipped, never a failure.
 */
export async function setContents(deps: CoreDeps, caller: Caller, set: SetWithSpace): Promise<SetContents> {
  const all = await setItemRows(deps.db, caller.id, set.id);
  await freshCounts(
    deps,
    all.filter((i) => i.readable).map((i) => i.row),
  );
  const owner = set.spaceOwnerId === caller.id;
  const items: SetEntry[] = [];
  const skipped: SkippedEntry[] = [];
  const tierTokens: Record<CardTier, number> = { '1': 0, '1.5': 0, '2': 0 };
  let totalTokenCount = 0;
  for (const it of all) {
    if (!it.readable && !owner) continue;
    const position = owner ? it.position : items.length + skipped.length;
    if (!it.readable) skipped.push({ position, id: it.bindingId, reason: 'no longer readable' });
    else if (it.deleted) skipped.push({ position, id: it.bindingId, reason: 'deleted' });
    else {
      items.push({ position, pinned: it.pinnedVersion !== null, row: it.row });
      totalTokenCount += it.row.contentTokenCount;
      for (const t of ['1', '1.5', '2'] as const) tierTokens[t] += tierCost(it.row, t);
    }
  }
  return { items, skipped, totalTokenCount, tierTokens, stored: all.map(({ bindingId, pinnedVersion }) => ({ bindingId, pinnedVersion })) };
}

/** Checks that the caller may read every binding added and that pinned versions exist. */
async function checkAdditions(
  deps: CoreDeps,
  caller: Caller,
  adds: { bindingId: string; version?: number; field: string }[],
): Promise<void> {
  const ids = [...new Set(adds.map((a) => a.bindingId))];
  const found = new Map<string, BindingVersionRow>();
  for (let i = 0; i < ids.length; i += 90) {
    for (const [k, v] of await readableBindingsCurrent(deps.db, caller.id, ids.slice(i, i + 90), false)) found.set(k, v);
  }
  for (const a of adds) {
    const row = found.get(a.bindingId);
    if (!row)
      throw new BinderyError(
        'NOT_FOUND',
        `${a.field}: binding ${a.bindingId} was not found (it does not exist or you may not read it).`,
        a.field,
      );
    if (a.version !== undefined && a.version > row.currentVersion) {
      throw fail.invalid(
        a.field.replace(/bindingId$/, 'version'),
        `binding ${a.bindingId} has versions 1 to ${row.currentVersion}; ${a.version} does not exist`,
      );
    }
  }
}

export interface CreateSetInput {
  name: string;
  description?: string;
  space?: string;
  bindingIds?: string[];
}

/** Creates a set in a space the caller owns, with its first items, in one batch. */
export async function createSet(deps: CoreDeps, caller: Caller, input: CreateSetInput): Promise<SetWithSpace> {
  const space = await resolveWritableSpace(deps, caller, input.space);
  const ids = input.bindingIds ?? [];
  if (ids.length > MAX_SET_ITEMS) throw fail.tooLarge('bindingIds', `has ${ids.length} ids; a set holds at most ${MAX_SET_ITEMS} items`);
  const seen = new Map<string, number>();
  ids.forEach((id, i) => {
    if (seen.has(id))
      throw fail.invalid(`bindingIds.${i}`, `${id} is listed twice (also at ${seen.get(id)}); a set holds each binding once`);
    seen.set(id, i);
  });
  await checkAdditions(
    deps,
    caller,
    ids.map((bindingId, i) => ({ bindingId, field: `bindingIds.${i}` })),
  );
  const now = deps.now();
  const id = newId('set');
  await insertSet(
    deps.db,
    {
      id,
      spaceId: space.id,
      name: input.name,
      description: input.description ?? null,
      createdBy: caller.id,
      createdAt: now,
      updatedAt: now,
      revision: 0,
    },
    ids.map((bindingId) => ({ bindingId, pinnedVersion: null })),
  );
  return readSet(deps, caller, id);
}

/** Renames or re-describes a set the caller owns; a set deleted meanwhile is NOT_FOUND, unchanged. */
export async function updateSet(
  deps: CoreDeps,
  caller: Caller,
  id: string,
  patch: { name?: string; description?: string },
): Promise<SetWithSpace> {
  const set = await writableSet(deps, caller, id);
  const written = await updateSetMeta(deps.db, id, patch, deps.now());
  if (!written) throw setNotFound(id);
  // Answered from the row written: a delete right after must not turn a done write into an error.
  return { ...set, ...written };
}

/** Deletes a set the caller owns (the bindings in it are untouched); of racing deletes, one wins and the rest are NOT_FOUND. */
export async function deleteSet(deps: CoreDeps, caller: Caller, id: string): Promise<SetWithSpace> {
  const set = await writableSet(deps, caller, id);
  if (!(await softDeleteSet(deps.db, id, deps.now()))) throw setNotFound(id);
  return set;
}

/**
 * Applies removes, then adds, then moves to a set the caller owns, validating every step before
 * anything is written; the new item list is written in one batch guarded by the set's revision and
 * liveness. A concurrent edit makes this re-apply the same edits on top of it; a concurrent delete
 * makes it NOT_FOUND, having written nothing.
 */
export async function editSetItems(deps: CoreDeps, caller: Caller, id: string, edits: ItemEdits) {
  await checkAdditions(
    deps,
    caller,
    (edits.add ?? []).map((a, i) => ({ bindingId: a.bindingId, version: a.version, field: `add.${i}.bindingId` })),
  );
  for (let attempt = 0; attempt < EDIT_ATTEMPTS; attempt++) {
    // Writers that lost a race back off a little, at random, so they do not collide again in step.
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * 4 * attempt));
    const set = await writableSet(deps, caller, id);
    const before = (await setItemRows(deps.db, caller.id, id)).map(({ bindingId, pinnedVersion }) => ({ bindingId, pinnedVersion }));
    const after = applyItemEdits(before, edits);
    if (after.length > MAX_SET_ITEMS) throw fail.tooLarge('add', `would make ${after.length} items; a set holds at most ${MAX_SET_ITEMS}`);
    const now = deps.now();
    if (await replaceSetItems(deps.db, id, set.revision, after, now)) {
      // Answered from what was written: a delete right after must not turn a done edit into an error.
      return { set: { ...set, revision: set.revision + 1, updatedAt: now }, before: before.length, after: after.length };
    }
  }
  throw new BinderyError(
    'CONFLICT',
    `id: set ${id} is being edited by many writers at once; nothing was written`,
    'id',
    'Call edit_set_items again.',
  );
}

/** A page of the sets the caller may read, in one space (already resolved) or all, with the total. */
export function listSets(deps: Pick<CoreDeps, 'db'>, caller: Caller, opts: { spaceId?: string; offset: number; limit: number }) {
  return listSetRows(deps.db, caller.id, opts);
}
