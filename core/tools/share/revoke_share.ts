import { z } from 'zod';
import { defineTool } from '../define.ts';
import { idOf } from '../schema.ts';
import { revokeShare } from '../../services/shares.ts';
import { line } from '../../tokens/doc.ts';
import { shareView, toShareView } from './share-view.ts';

export const revokeShareTool = defineTool({
  name: 'revoke_share',
  title: 'Revoke share',
  category: 'share',
  description: 'Revoke a share you made, or decline (remove) one given to you (ids from list_shares). Access ends on the very next call.',
  aliases: ['unshare', 'remove access', 'stop sharing', 'decline share'],
  input: z.strictObject({ id: idOf('shr', 'share') }),
  output: z.object({ share: shareView }),
  bound: { kind: 'tokens', maxTokens: 60 },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  async handler(args, ctx) {
    const row = await revokeShare(ctx, ctx.caller, args.id);
    const view = toShareView(row);
    const what = `${view.permission} access to ${view.target.type} ${view.target.id}`;
    if (row.granteeId === ctx.caller.id)
      return { pieces: [line(`Declined ${view.id}: it no longer gives you ${what}.`)], data: { share: view } };
    const who = view.public ? 'anyone with the link' : view.user;
    return { pieces: [line(`Revoked ${view.id}: ${who} no longer has ${what}.`)], data: { share: view } };
  },
});
