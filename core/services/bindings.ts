import type { BinderyDb } from '../../db/types';
import type { BinderyConfig } from '../config';
import type { TokenCounter } from '../tokens/counter';
import type { Caller, Provenance } from '../context';
import { fail } from '../errors';
import { newId, slugify } from '../ids';
import { canSeeSpace, findSpace, personalSpace, type SpaceRow } from '../../db/store/users';
import {
  appendVersion,
  insertBinding,
  readableBindingVersion,
  slugTaken,
  softDeleteBinding,
  versionContent,
  type BindingVersionRow,
} from '../../db/store/bindings';
import { buildVersionRow, checkContentSize } from './write-version';
import { freshCounts, renderKey } from './counts';

/** What the binding services need; tools, REST and import all pass the same. */
export interface CoreDeps {
  db: BinderyDb;
  tokens: TokenCounter;
  config: BinderyConfig;
  now: () => number;
}

/**
 * A space the caller may read, by reference; unreadable spaces look missing. Default: personal space.
 * A public link on a private space opens it only to callers who name it by id, never by its slug.
 */
export async function resolveSpace(deps: CoreDeps, caller: Caller, ref?: string): Promise<SpaceRow> {
  const space = ref ? await findSpace(deps.db, ref) : await personalSpace(deps.db, caller.id);
  const byId = space !== undefined && ref?.replace(/^@/, '') === space.id;
  if (!space || !(await canSeeSpace(deps.db, caller.id, space, byId))) throw fail.notFound('space', ref ?? '(personal)', 'space');
  return space;
}

/** A space the caller may write to: only its owner writes (shares grant read or comment). */
export async function resolveWritableSpace(deps: CoreDeps, caller: Caller, ref?: string): Promise<SpaceRow> {
  const space = await resolveSpace(deps, caller, ref);
  // resolveSpace already answered NOT_FOUND for spaces the caller cannot read; one it can read (public,
  // or shared with it) is named as such.
  if (space.ownerId !== caller.id) throw fail.forbidden(`space @${space.slug} is not yours; only its owner can add or change bindings or sets in it`);
  return space;
}

async function freeSlug(db: BinderyDb, spaceId: string, name: string): Promise<string> {
  const base = slugify(name);
  if (!(await slugTaken(db, spaceId, base))) return base;
  for (let i = 2; i < 1000; i++) {
    const candidate = `${base}-${i}`;
    if (!(await slugTaken(db, spaceId, candidate))) return candidate;
  }
  return `${base}-${newId('x').slice(2, 8)}`;
}

export interface BindingInput {
  name: string;
  content: string;
  summary: string;
  keyPoints?: string[];
}

/** Creates a binding with version 1 in a space the caller owns. */
export async function createBinding(
  deps: CoreDeps,
  caller: Caller,
  input: BindingInput & { space?: string; sourcePath?: string },
  provenance: Provenance,
): Promise<BindingVersionRow> {
  checkContentSize(input.content, deps.config.maxContentBytes);
  const space = await resolveWritableSpace(deps, caller, input.space);
  const now = deps.now();
  const bindingId = newId('bnd');
  const slug = await freeSlug(deps.db, space.id, input.name);
  const version = await buildVersionRow(
    { ...input, keyPoints: input.keyPoints ?? [], ...provenance, authorId: caller.id },
    { bindingId, spaceSlug: space.slug, bindingSlug: slug, number: 1, now, publicUrl: deps.config.publicUrl, countsKey: renderKey(deps) },
    deps.tokens,
  );
  await insertBinding(
    deps.db,
    { id: bindingId, spaceId: space.id, slug, currentVersion: 1, sourcePath: input.sourcePath ?? null, createdBy: caller.id, createdAt: now, updatedAt: now },
    version,
  );
  const row = await readableBindingVersion(deps.db, caller.id, bindingId);
  if (!row) throw new Error('binding vanished right after insert');
  return row;
}

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

/** Reads a binding the caller owns (for writes); readable-but-not-owned is FORBIDDEN. */
async function readOwned(deps: CoreDeps, caller: Caller, id: string): Promise<BindingVersionRow> {
  const row = await readBinding(deps, caller, id, { withContent: true });
  if (row.spaceOwnerId !== caller.id) throw fail.forbidden(`binding ${id} is in @${row.spaceSlug}, which you may read but not change`);
  return row;
}

const MAX_UPDATE_ATTEMPTS = 64;

export interface UpdateInput extends Partial<BindingInput> {
  expectedVersion?: number;
}

/**
 * Appends a version with the changed fields. A stale `expectedVersion` is a CONFLICT; without it,
 * a concurrent writer makes this retry on top of the newer version, so no update is ever lost.
 */
export async function updateBinding(
  deps: CoreDeps,
  caller: Caller,
  id: string,
  input: UpdateInput,
  provenance: Provenance,
): Promise<{ row: BindingVersionRow; changed: boolean }> {
  if (input.content !== undefined) checkContentSize(input.content, deps.config.maxContentBytes);
  // Every round of a race lands one writer, so N concurrent writers need at most N attempts; the
  // short random pause spreads the losers out so they stop colliding.
  for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(20, 2 * attempt)));
    const current = await readOwned(deps, caller, id);
    if (input.expectedVersion !== undefined && input.expectedVersion !== current.currentVersion) {
      throw fail.conflict('expectedVersion', `is ${input.expectedVersion} but binding ${id} is at version ${current.currentVersion}; re-read it and apply your change to version ${current.currentVersion}`);
    }
    const draft = {
      name: input.name ?? current.name,
      content: input.content ?? current.content ?? (await versionContent(deps.db, id, current.number))!,
      summary: input.summary ?? current.summary,
      keyPoints: input.keyPoints ?? current.keyPoints,
    };
    const unchanged =
      draft.name === current.name && draft.content === current.content && draft.summary === current.summary && JSON.stringify(draft.keyPoints) === JSON.stringify(current.keyPoints);
    if (unchanged) return { row: current, changed: false };
    const version = await buildVersionRow(
      { ...draft, ...provenance, authorId: caller.id },
      { bindingId: id, spaceSlug: current.spaceSlug, bindingSlug: current.bindingSlug, number: current.currentVersion + 1, now: deps.now(), publicUrl: deps.config.publicUrl, countsKey: renderKey(deps) },
      deps.tokens,
    );
    if (await appendVersion(deps.db, id, version, deps.now())) {
      return { row: (await readBinding(deps, caller, id))!, changed: true };
    }
    if (input.expectedVersion !== undefined) {
      throw fail.conflict('expectedVersion', `is ${input.expectedVersion} but another update to binding ${id} landed first; re-read it and apply your change to the new version`);
    }
  }
  throw fail.conflict('id', `binding ${id} is being updated by many writers at once; retry`);
}

/** Soft-deletes a binding the caller owns. */
export async function deleteBinding(deps: CoreDeps, caller: Caller, id: string): Promise<BindingVersionRow> {
  const row = await readOwned(deps, caller, id);
  await softDeleteBinding(deps.db, id, deps.now());
  return row;
}
