import type { Caller } from '../context.ts';
import { BinderyError, fail } from '../errors.ts';
import { newId } from '../ids.ts';
import { insertSpace, listSpaceRows } from '../../db/store/spaces.ts';
import { findSpace, type SpaceRow } from '../../db/store/users.ts';
import type { CoreDeps } from './bindings.ts';

/** Slugs: lowercase letters, digits and single dashes, 2–40 characters, starting and ending alphanumeric. */
export const SPACE_SLUG = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,39}$/;

/** Creates a space owned by the caller; a taken slug is a CONFLICT. */
export async function createSpace(
  deps: CoreDeps,
  caller: Caller,
  input: { slug: string; name: string; visibility?: 'private' | 'public' },
): Promise<SpaceRow> {
  const slug = input.slug.startsWith('@') ? input.slug.slice(1) : input.slug;
  if (!SPACE_SLUG.test(slug))
    throw fail.invalid('slug', 'must be 2–40 lowercase letters, digits and single dashes, starting and ending with a letter or digit');
  const id = newId('spc');
  const inserted = await insertSpace(deps.db, {
    id,
    slug,
    name: input.name,
    visibility: input.visibility ?? 'private',
    ownerId: caller.id,
    personal: false,
    createdAt: deps.now(),
  });
  if (!inserted)
    throw new BinderyError(
      'CONFLICT',
      `slug: @${slug} is taken; choose another slug`,
      'slug',
      'Call create_space again with another slug; list_spaces shows yours.',
    );
  const space = await findSpace(deps.db, id);
  if (!space) throw new Error('space vanished right after insert');
  return space;
}

/** A page of the spaces the caller may see (its own, shared and public), with the total. */
export function listSpaces(deps: Pick<CoreDeps, 'db'>, caller: Caller, offset: number, limit: number) {
  return listSpaceRows(deps.db, caller.id, offset, limit);
}
