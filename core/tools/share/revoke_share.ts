import { z } from 'zod';
import { defineTool } from '../define';
import { idOf } from '../schema';
import { revokeShare } from '../../services/shares';
import { line } from '../../tokens/doc';
import { shareView, toShareView } from './share-view';

export const revokeShareTool = defineTool({
  name: 'revoke_share',
  title: 'Revoke share',
  category: 'share',
  description: 'Revoke a share you made (ids from list_shares). Access ends on the very next call.',
  aliases: ['unshare', 'remove access', 'stop sharing'],
  input: z.strictObject({ id: idOf('shr', 'share') }),
  output: z.object({ share: shareView }),
  bound: { kind: 'tokens', maxTokens: 60 },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  async handler(args, ctx) {
    const view = toShareView(await revokeShare(ctx, ctx.caller, args.id));
    const who = view.public ? 'anyone with the link' : view.user;
    return { pieces: [line(`Revoked ${view.id}: ${who} no longer has ${view.permission} access to ${view.target.type} ${view.target.id}.`)], data: { share: view } };
  },
});
