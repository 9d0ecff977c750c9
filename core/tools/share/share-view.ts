import { z } from 'zod';
import type { ShareListRow } from '../../../db/store/shares.ts';
import { line, type Piece } from '../../tokens/doc.ts';

/** JSON shape of a share. */
export const shareView = z.object({
  id: z.string(),
  target: z.object({ type: z.enum(['binding', 'set', 'space']), id: z.string(), label: z.string().nullable() }),
  user: z.string().nullable().describe('the handle it is shared with; null for a public link'),
  public: z.boolean(),
  permission: z.enum(['read', 'comment']),
  createdBy: z.string(),
  createdAt: z.string(),
  revoked: z.boolean(),
  accepted: z.boolean().describe('false until its user accepts it'),
});
export type ShareView = z.infer<typeof shareView>;

/** A stored share as the tools show it. */
export function toShareView(r: ShareListRow): ShareView {
  return {
    id: r.id,
    target: { type: r.targetType, id: r.targetId, label: r.targetLabel },
    user: r.granteeHandle ? `@${r.granteeHandle}` : null,
    public: r.public,
    permission: r.permission,
    createdBy: `@${r.creatorHandle}`,
    createdAt: new Date(r.createdAt).toISOString(),
    revoked: r.revokedAt !== null,
    accepted: r.public || r.acceptedAt !== null,
  };
}

/** One line naming a share: what, with whom, which permission, whether it still waits for acceptance. */
export function shareLine(v: ShareView): Piece {
  const label = v.target.label ? ` "${v.target.label.replace(/\s+/g, ' ')}"` : '';
  const pending = v.accepted ? '' : ' · pending';
  return line(
    `- ${v.id} · ${v.target.type} ${v.target.id}${label} · ${v.public ? 'anyone with the link' : v.user} · ${v.permission} · by ${v.createdBy} · ${v.createdAt.slice(0, 10)}${pending}`,
  );
}
