import type { Caller } from '../context.ts';
import { fail } from '../errors.ts';
import { bindingAtVersion } from '../../db/store/binding-writes.ts';
import { versionContent } from '../../db/store/bindings.ts';
import { deletedBindingsOwnedBy, undeleteBinding, type DeletedBinding } from '../../db/store/binding-restore.ts';
import type { CoreDeps } from './bindings.ts';

/** Deleted bindings the caller may restore (in spaces it owns), newest deletion first. */
export function deletedBindings(deps: CoreDeps, caller: Caller, limit = 100): Promise<DeletedBinding[]> {
  return deletedBindingsOwnedBy(deps.db, caller.id, { limit });
}

/**
 * Restores a deleted binding in a space the caller owns, at the version it was deleted at. Anything
 * else (live, missing, someone else's) is NOT_FOUND: restoring reveals nothing about others' bindings.
 */
export async function restoreBinding(deps: CoreDeps, caller: Caller, id: string): Promise<DeletedBinding> {
  const [gone] = await deletedBindingsOwnedBy(deps.db, caller.id, { id, limit: 1 });
  if (!gone) throw fail.notFound('deleted binding', id);
  const row = await bindingAtVersion(deps.db, id, gone.currentVersion);
  const content = await versionContent(deps.db, id, gone.currentVersion);
  if (!row || content === undefined) throw fail.notFound('deleted binding', id);
  if (
    !(await undeleteBinding(
      deps.db,
      id,
      caller.id,
      { name: row.name, summary: row.summary, keyPoints: row.keyPoints, content },
      deps.now(),
    ))
  ) {
    throw fail.notFound('deleted binding', id);
  }
  return gone;
}
