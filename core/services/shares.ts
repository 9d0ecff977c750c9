import type { Caller } from '../context';
import { BinderyError, fail } from '../errors';
import { newId } from '../ids';
import { findUserByHandle } from '../../db/store/users';
import { findLiveShare, getShare, putShare, revokeShareRow, type ShareListRow, type ShareTargetType } from '../../db/store/shares';
import { readBinding, resolveSpace, type CoreDeps } from './bindings';
import { readSet } from './sets';

export interface ShareTarget {
  type: ShareTargetType;
  id: string;
  label: string;
  ownerId: string;
}

/**
 * What a share points at, by id (`bnd_…`, `set_…`, `spc_…`) or space slug. What the caller cannot read
 * is NOT_FOUND exactly as a missing target; what it can read but does not own is FORBIDDEN.
 */
export async function resolveShareTarget(deps: CoreDeps, caller: Caller, ref: string, forWrite = true): Promise<ShareTarget> {
  let target: ShareTarget;
  if (ref.startsWith('bnd_')) {
    const row = await readBinding(deps, caller, ref);
    target = { type: 'binding', id: row.bindingId, label: `binding ${row.bindingId} ("${row.name}")`, ownerId: row.spaceOwnerId };
  } else if (ref.startsWith('set_')) {
    const set = await readSet(deps, caller, ref);
    target = { type: 'set', id: set.id, label: `set ${set.id} ("${set.name}")`, ownerId: set.spaceOwnerId };
  } else {
    const space = await resolveSpace(deps, caller, ref);
    target = { type: 'space', id: space.id, label: `space @${space.slug}`, ownerId: space.ownerId };
  }
  if (forWrite && target.ownerId !== caller.id) throw fail.forbidden(`${target.label} is not yours; only its owner can share it or see its shares`);
  return target;
}

export interface CreateShareInput {
  target: string;
  user?: string;
  public?: boolean;
  permission: 'read' | 'comment';
}

/**
 * Shares a target the caller owns with one user (by handle) or with anyone who has the link. An
 * identical live share is returned as is; one with another permission is replaced in one batch.
 */
export async function createShare(deps: CoreDeps, caller: Caller, input: CreateShareInput): Promise<{ share: ShareListRow; created: boolean }> {
  if (!!input.user === !!input.public) throw fail.invalid('user', 'give either user (a handle) or public: true, not both and not neither');
  const target = await resolveShareTarget(deps, caller, input.target);
  let granteeId: string | null = null;
  if (input.user) {
    const handle = input.user.replace(/^@/, '');
    const grantee = await findUserByHandle(deps.db, handle);
    if (!grantee) {
      throw new BinderyError('NOT_FOUND', `user: no user with handle "${handle}" (a user exists once they have used Bindery); nothing was shared`, 'user', 'Check the handle with the person; whoami shows a user their handle.');
    }
    if (grantee.id === caller.id) throw fail.invalid('user', `"${handle}" is you; you already own ${target.label}`);
    granteeId = grantee.id;
  }
  const existing = await findLiveShare(deps.db, target.type, target.id, granteeId);
  if (existing && existing.permission === input.permission) return { share: (await getShare(deps.db, existing.id))!, created: false };
  const id = newId('shr');
  await putShare(
    deps.db,
    { id, targetType: target.type, targetId: target.id, granteeId, public: !granteeId, permission: input.permission, createdBy: caller.id, createdAt: deps.now() },
    existing?.id,
  );
  return { share: (await getShare(deps.db, id))!, created: true };
}

/**
 * Revokes a share the caller made or whose target it owns; it stops granting access on the next
 * call. A share the caller cannot see is NOT_FOUND; revoking twice is a CONFLICT.
 */
export async function revokeShare(deps: CoreDeps, caller: Caller, id: string): Promise<ShareListRow> {
  const share = await getShare(deps.db, id);
  const ownsTarget = share ? await targetOwnedBy(deps, caller, share) : false;
  const mayRevoke = !!share && (share.createdBy === caller.id || ownsTarget);
  if (!share || (!mayRevoke && share.granteeId !== caller.id)) throw new BinderyError('NOT_FOUND', fail.notFound('share', id).message, 'id', 'list_shares shows the shares you made or were given.');
  if (!mayRevoke) throw fail.forbidden(`share ${id} was given to you; only its owner can revoke it`);
  if (share.revokedAt !== null || !(await revokeShareRow(deps.db, id, deps.now()))) {
    throw new BinderyError('CONFLICT', `id: share ${id} is already revoked; nothing changed`, 'id', 'Nothing to do: that access has already ended. list_shares shows the live shares.');
  }
  return (await getShare(deps.db, id))!;
}

async function targetOwnedBy(deps: CoreDeps, caller: Caller, share: ShareListRow): Promise<boolean> {
  try {
    const t = await resolveShareTarget(deps, caller, share.targetId, false);
    return t.ownerId === caller.id;
  } catch {
    return false;
  }
}
