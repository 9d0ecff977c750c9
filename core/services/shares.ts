import type { Caller } from '../context.ts';
import { BinderyError, fail } from '../errors.ts';
import { newId, newLinkSecret, sha256Hex } from '../ids.ts';
import { findUserByHandle } from '../../db/store/users.ts';
import {
  acceptShareRow,
  findLiveShare,
  getShare,
  listSharesOfTarget,
  listSharesOfUser,
  listSharesToUser,
  putShare,
  revokeShareRow,
  setShareLinkHash,
  type ShareListRow,
  type ShareTargetType,
} from '../../db/store/shares.ts';
import { resolveSpace, type CoreDeps } from './bindings.ts';
import { readBinding } from './binding-reads.ts';
import { readSet } from './sets.ts';

export interface ShareTarget {
  type: ShareTargetType;
  id: string;
  label: string;
  ownerId: string;
  /** Where its public link points: `/@space/slug` for a binding, `/@space` (the link's index page) for a set or space. */
  path: string;
}

/** A public link's page and Markdown addresses: the target's path with the secret as `share`. */
export function shareLinkUrls(publicBase: string, path: string, secret: string): { linkUrl: string; linkTextUrl: string } {
  const linkUrl = `${publicBase}${path}?share=${secret}`;
  return { linkUrl, linkTextUrl: `${publicBase}${path}?format=md&share=${secret}` };
}

/**
 * What a share points at, by id (`bnd_…`, `set_…`, `spc_…`) or space slug. What the caller cannot read
 * is NOT_FOUND exactly as a missing target; what it can read but does not own is FORBIDDEN.
 */
export async function resolveShareTarget(deps: CoreDeps, caller: Caller, ref: string, forWrite = true): Promise<ShareTarget> {
  let target: ShareTarget;
  if (ref.startsWith('bnd_')) {
    const row = await readBinding(deps, caller, ref);
    target = {
      type: 'binding',
      id: row.bindingId,
      label: `binding ${row.bindingId} ("${row.name}")`,
      ownerId: row.spaceOwnerId,
      path: `/@${row.spaceSlug}/${row.bindingSlug}`,
    };
  } else if (ref.startsWith('set_')) {
    const set = await readSet(deps, caller, ref);
    target = { type: 'set', id: set.id, label: `set ${set.id} ("${set.name}")`, ownerId: set.spaceOwnerId, path: `/@${set.spaceSlug}` };
  } else {
    const space = await resolveSpace(deps, caller, ref);
    target = { type: 'space', id: space.id, label: `space @${space.slug}`, ownerId: space.ownerId, path: `/@${space.slug}` };
  }
  if (forWrite && target.ownerId !== caller.id)
    throw fail.forbidden(`${target.label} is not yours; only its owner can share it or see its shares`);
  return target;
}

export interface CreateShareInput {
  target: string;
  user?: string;
  public?: boolean;
  permission: 'read' | 'comment';
}

export interface CreateShareResult {
  share: ShareListRow;
  created: boolean;
  target: ShareTarget;
  /** The public link's secret, when this call minted it: it is never stored, so it is shown only now. */
  linkSecret?: string;
  /** The share this one replaced (another permission); a public link keeps its secret across it. */
  replaced?: string;
}

/** Rounds of createShare before it gives up on a target many calls share at once. */
const SHARE_ATTEMPTS = 8;

/**
 * Shares a target the caller owns with one user (by handle) or with anyone who has the link. A new
 * user share is pending: the grantee reaches it by naming it, and it enters their default searches and
 * lists once they accept it. An identical live share is returned as is; one with another permission is
 * replaced in one batch and keeps its acceptance (only the permission changed, not the invitation).
 * A new public link gets a random secret whose SHA-256 alone is stored; replacing a link's permission
 * keeps its secret, so the addresses already handed out keep working with the new permission.
 */
export async function createShare(deps: CoreDeps, caller: Caller, input: CreateShareInput, attempt = 0): Promise<CreateShareResult> {
  if (!!input.user === !!input.public) throw fail.invalid('user', 'give either user (a handle) or public: true, not both and not neither');
  const target = await resolveShareTarget(deps, caller, input.target);
  let granteeId: string | null = null;
  if (input.user) {
    const handle = input.user.replace(/^@/, '');
    const grantee = await findUserByHandle(deps.db, handle);
    if (!grantee) {
      throw new BinderyError(
        'NOT_FOUND',
        `user: no user with handle "${handle}" (a user exists once they have used Bindery); nothing was shared`,
        'user',
        'Check the handle with the person; whoami shows a user their handle.',
      );
    }
    if (grantee.id === caller.id) throw fail.invalid('user', `"${handle}" is you; you already own ${target.label}`);
    granteeId = grantee.id;
  }
  const existing = await findLiveShare(deps.db, target.type, target.id, granteeId);
  if (existing && existing.permission === input.permission) {
    // A link made before links carried a secret has no working address: give it one now.
    let linkSecret: string | undefined;
    if (!granteeId && !existing.linkHash) {
      const secret = newLinkSecret();
      if (await setShareLinkHash(deps.db, existing.id, await sha256Hex(secret))) linkSecret = secret;
    }
    return { share: (await getShare(deps.db, existing.id))!, created: false, target, linkSecret };
  }
  let linkHash: string | null = null;
  let linkSecret: string | undefined;
  if (!granteeId) {
    linkHash = existing?.linkHash ?? null;
    if (!linkHash) {
      linkSecret = newLinkSecret();
      linkHash = await sha256Hex(linkSecret);
    }
  }
  const id = newId('shr');
  const written = await putShare(
    deps.db,
    {
      id,
      targetType: target.type,
      targetId: target.id,
      granteeId,
      public: !granteeId,
      permission: input.permission,
      createdBy: caller.id,
      createdAt: deps.now(),
      linkHash,
      acceptedAt: existing?.acceptedAt ?? null,
    },
    existing?.id,
  );
  if (!written) {
    // Nothing was written: a racing call shared it first (the next round returns that share) or the
    // target went away (the next round answers NOT_FOUND). Each lost round is another call's win.
    if (attempt >= SHARE_ATTEMPTS)
      throw fail.conflict('target', `${target.label} is being shared by many calls at once; nothing was written, retry`);
    return createShare(deps, caller, input, attempt + 1);
  }
  return { share: (await getShare(deps.db, id))!, created: true, target, linkSecret, replaced: existing?.id };
}

/**
 * A share as the caller may see it: its creator, its target's owner or its grantee. Any other caller
 * gets exactly the NOT_FOUND of a missing share, naming `field`.
 */
async function visibleShare(deps: CoreDeps, caller: Caller, id: string, field: string): Promise<ShareListRow> {
  const share = await getShare(deps.db, id);
  const visible = !!share && (share.createdBy === caller.id || share.granteeId === caller.id || (await targetOwnedBy(deps, caller, share)));
  if (!visible)
    throw new BinderyError(
      'NOT_FOUND',
      fail.notFound('share', id, field).message,
      field,
      'list_shares shows the shares you made or were given.',
    );
  return share;
}

/**
 * Revokes a share the caller made or whose target it owns, or declines one addressed to the caller;
 * either way it stops granting access on the next call. A share the caller cannot see is NOT_FOUND;
 * revoking twice is a CONFLICT.
 */
export async function revokeShare(deps: CoreDeps, caller: Caller, id: string): Promise<ShareListRow> {
  const share = await visibleShare(deps, caller, id, 'id');
  if (share.revokedAt !== null || !(await revokeShareRow(deps.db, id, deps.now()))) {
    throw new BinderyError(
      'CONFLICT',
      `id: share ${id} is already revoked; nothing changed`,
      'id',
      'Nothing to do: that access has already ended. list_shares shows the live shares.',
    );
  }
  return (await getShare(deps.db, id))!;
}

/**
 * Accepts a user share addressed to the caller: what it covers joins the caller's default searches
 * and lists. Accepting twice changes nothing (`changed: false`); a revoked share is a CONFLICT.
 */
export async function acceptShare(deps: CoreDeps, caller: Caller, id: string): Promise<{ share: ShareListRow; changed: boolean }> {
  const share = await visibleShare(deps, caller, id, 'accept');
  if (share.granteeId !== caller.id) {
    const why = share.public
      ? 'is a public link, which needs no acceptance'
      : `is addressed to @${share.granteeHandle}; only they can accept it`;
    throw fail.forbidden(`accept: share ${id} ${why}`);
  }
  const revoked = () =>
    new BinderyError(
      'CONFLICT',
      `accept: share ${id} was revoked; there is nothing to accept`,
      'accept',
      'list_shares {incoming: true} shows the live shares given to you.',
    );
  if (share.revokedAt !== null) throw revoked();
  if (share.acceptedAt !== null) return { share, changed: false };
  const changed = await acceptShareRow(deps.db, id, caller.id, deps.now());
  // Losing the update means a concurrent accept or revoke landed first: report which. A revoke
  // landing after this accept (a permission change replacing the share carries the acceptance
  // over) does not undo it, so a done accept is never answered as an error.
  const fresh = (await getShare(deps.db, id))!;
  if (!changed && fresh.revokedAt !== null) throw revoked();
  return { share: fresh, changed };
}

async function targetOwnedBy(deps: CoreDeps, caller: Caller, share: ShareListRow): Promise<boolean> {
  try {
    const t = await resolveShareTarget(deps, caller, share.targetId, false);
    return t.ownerId === caller.id;
  } catch {
    return false;
  }
}

/**
 * A page of live shares, with the total: on a target the caller may share (resolved by
 * resolveShareTarget), made to the caller (`incoming`, with how many wait for acceptance), or made by
 * the caller.
 */
export async function listShares(
  deps: CoreDeps,
  caller: Caller,
  of: { target?: ShareTarget; incoming?: boolean },
  offset: number,
  limit: number,
) {
  if (of.target) return { ...(await listSharesOfTarget(deps.db, of.target.type, of.target.id, offset, limit)), pending: 0 };
  if (of.incoming) return listSharesToUser(deps.db, caller.id, offset, limit);
  return { ...(await listSharesOfUser(deps.db, caller.id, offset, limit)), pending: 0 };
}
