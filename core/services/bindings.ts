import type { BinderyDb } from '../../db/types.ts';
import type { Caller, CoreDeps, Provenance } from '../context.ts';
import { BinderyError, fail } from '../errors.ts';
import { newId, slugify } from '../ids.ts';
import { canSeeSpace, findSpace, personalSpace, type SpaceRow } from '../../db/store/users.ts';
import { versionContent, type BindingVersionRow } from '../../db/store/bindings.ts';
import { appendVersion, bindingAtVersion, insertBinding, numberedSlugs, softDeleteBinding } from '../../db/store/binding-writes.ts';
import { findImportedBinding } from '../../db/store/imports.ts';
import { buildVersionRow, checkContentSize } from './write-version.ts';
import { freshCounts, renderKey } from './counts.ts';
import { announceBindingChanged } from './changes.ts';
import { embedWritten } from './embed.ts';
import { readBinding } from './binding-reads.ts';

/** What the binding services need (core/context.ts): tools, REST and import all pass the same. */
export type { CoreDeps } from '../context.ts';

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
  if (space.ownerId !== caller.id)
    throw fail.forbidden(`space @${space.slug} is not yours; only its owner can add or change bindings or sets in it`);
  return space;
}

/**
 * What a command line says when the space it writes to cannot be had (import, sync): the refusal's
 * own words, or for a missing space that the caller cannot see it. Undefined for any other error
 * (the caller rethrows it). `unnamed` is said when no space was named (the default one is missing).
 */
export function spaceRefusal(e: unknown, handle: string, spaceRef: string | undefined, unnamed: string): string | undefined {
  if (!(e instanceof BinderyError) || !['NOT_FOUND', 'FORBIDDEN', 'CONFLICT'].includes(e.code)) return undefined;
  if (e.code !== 'NOT_FOUND') return e.message;
  return spaceRef ? `no space "${spaceRef}" that @${handle} can see` : unnamed;
}

/** The lowest free slug for `base` in a space: `base`, else `base-2`, `base-3`, … */
async function lowestFreeSlug(db: BinderyDb, spaceId: string, base: string): Promise<string> {
  const taken = await numberedSlugs(db, spaceId, base);
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/**
 * Tries at creating a binding under the lowest free slug before a random suffix. Each failed try
 * means another create took that slug meanwhile, so N creates racing with one name all land
 * (`name`, `name-2` … `name-N`) as long as N stays under this.
 */
const SLUG_ATTEMPTS = 32;

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
  input: BindingInput & { space?: string; sourcePath?: string; slug?: string },
  provenance: Provenance,
): Promise<BindingVersionRow> {
  checkContentSize(input.content, deps.config.maxContentBytes);
  const space = await resolveWritableSpace(deps, caller, input.space);
  const bindingId = newId('bnd');
  // An import of an export asks for the slug the binding had (a valid one), so its URL stays its own.
  const base = input.slug && slugify(input.slug) === input.slug ? input.slug : slugify(input.name);
  for (let attempt = 0; attempt <= SLUG_ATTEMPTS; attempt++) {
    // The slug is chosen by a read but taken only by the insert: the unique (space, slug) index
    // refuses a slug another create took meanwhile, and the next try takes the next free one.
    const slug = attempt < SLUG_ATTEMPTS ? await lowestFreeSlug(deps.db, space.id, base) : `${base}-${newId('x').slice(2, 8)}`;
    const now = deps.now();
    // Rebuilt per slug: the tier-1 head (and so its stored counts) holds the binding's URL.
    const version = await buildVersionRow(
      { ...input, keyPoints: input.keyPoints ?? [], ...provenance, authorId: caller.id },
      { bindingId, spaceSlug: space.slug, bindingSlug: slug, number: 1, now, publicUrl: deps.config.publicUrl, countsKey: renderKey(deps) },
      deps.tokens,
    );
    const binding = {
      id: bindingId,
      spaceId: space.id,
      slug,
      currentVersion: 1,
      sourcePath: input.sourcePath ?? null,
      createdBy: caller.id,
      createdAt: now,
      updatedAt: now,
    };
    if (await insertBinding(deps.db, binding, version)) return writtenRow(deps, bindingId, 1);
    if (input.sourcePath && (await findImportedBinding(deps.db, space.id, input.sourcePath))) {
      throw fail.conflict(
        'sourcePath',
        `${input.sourcePath} was imported into @${space.slug} by another import meanwhile; nothing was written`,
      );
    }
  }
  throw fail.conflict(
    'name',
    `no free slug for "${base}" in @${space.slug}: too many bindings with this name are being created at once; retry`,
  );
}

/**
 * A binding at a version a write just made or hid, deleted or not, with counts for this process: a
 * writer's answer is what it wrote, even when a delete landed right after it.
 */
async function writtenRow(deps: CoreDeps, id: string, number: number): Promise<BindingVersionRow> {
  const row = await bindingAtVersion(deps.db, id, number);
  if (!row) throw new Error(`binding ${id} has no version ${number} right after a write`);
  // The optional embedding of what was written (best effort; off unless BINDERY_EMBEDDINGS_URL is set).
  await embedWritten(deps, id);
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
      throw fail.conflict(
        'expectedVersion',
        `is ${input.expectedVersion} but binding ${id} is at version ${current.currentVersion}; re-read it and apply your change to version ${current.currentVersion}`,
      );
    }
    const draft = {
      name: input.name ?? current.name,
      content: input.content ?? current.content ?? (await versionContent(deps.db, id, current.number))!,
      summary: input.summary ?? current.summary,
      keyPoints: input.keyPoints ?? current.keyPoints,
    };
    const unchanged =
      draft.name === current.name &&
      draft.content === current.content &&
      draft.summary === current.summary &&
      JSON.stringify(draft.keyPoints) === JSON.stringify(current.keyPoints);
    if (unchanged) return { row: current, changed: false };
    const version = await buildVersionRow(
      { ...draft, ...provenance, authorId: caller.id },
      {
        bindingId: id,
        spaceSlug: current.spaceSlug,
        bindingSlug: current.bindingSlug,
        number: current.currentVersion + 1,
        now: deps.now(),
        publicUrl: deps.config.publicUrl,
        countsKey: renderKey(deps),
      },
      deps.tokens,
    );
    if (await appendVersion(deps.db, id, version, deps.now())) {
      announceBindingChanged(deps.db, id);
      // Answered from the version written, not from a re-read that a delete right after would hide.
      return { row: await writtenRow(deps, id, version.number), changed: true };
    }
    // Nothing was written: the binding was deleted meanwhile (the next read answers NOT_FOUND) or
    // another writer's version landed first (a CONFLICT with expectedVersion, else a retry on it).
    if (input.expectedVersion !== undefined) {
      await readOwned(deps, caller, id);
      throw fail.conflict(
        'expectedVersion',
        `is ${input.expectedVersion} but another update to binding ${id} landed first; re-read it and apply your change to the new version`,
      );
    }
  }
  throw fail.conflict('id', `binding ${id} is being updated by many writers at once; retry`);
}

/**
 * Soft-deletes a binding the caller owns and returns it at its last version. A binding deleted
 * meanwhile by another call is NOT_FOUND, exactly as one deleted before: this call changed nothing.
 */
export async function deleteBinding(deps: CoreDeps, caller: Caller, id: string): Promise<BindingVersionRow> {
  const row = await readOwned(deps, caller, id);
  const last = await softDeleteBinding(deps.db, id, deps.now());
  if (last === undefined) throw fail.notFound('binding', id);
  announceBindingChanged(deps.db, id);
  // An update that landed between the read and the delete made a later last version.
  return last === row.currentVersion ? row : writtenRow(deps, id, last);
}
