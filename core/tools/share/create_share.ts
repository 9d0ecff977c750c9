import { z } from 'zod';
import { defineTool } from '../define';
import { createShare } from '../../services/shares';
import { line } from '../../tokens/doc';
import { shareLine, shareView, toShareView } from './share-view';

export const createShareTool = defineTool({
  name: 'create_share',
  title: 'Share',
  category: 'share',
  description:
    'Give another user (by handle) or anyone with the link (public: true) access to a binding, set or space you own. permission "read" lets them read; "comment" also lets them add_comment. A set share covers the set and the bindings in it that you own. Revoke with revoke_share.',
  aliases: ['give access', 'invite', 'publish link', 'collaborate'],
  input: z.strictObject({
    target: z.string().min(1, { message: 'must not be empty' }).max(80).describe('a binding (bnd_…), set (set_…) or space (spc_… or @slug) you own'),
    user: z.string().min(1, { message: 'must not be empty' }).max(80).optional().describe('handle of the user to share with'),
    public: z.literal(true, { message: 'must be true when given' }).optional().describe('share with anyone who has the link'),
    permission: z.enum(['read', 'comment'], { message: 'must be "read" or "comment"' }),
  }),
  output: z.object({ share: shareView, created: z.boolean() }),
  bound: { kind: 'tokens', maxTokens: 100 },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async handler(args, ctx) {
    const { share, created } = await createShare(ctx, ctx.caller, args);
    const view = toShareView(share);
    const head = created ? `Shared (${view.id}); it takes effect now.` : `Already shared this way (${view.id}); nothing changed.`;
    return { pieces: [line(head), shareLine(view)], data: { share: view, created } };
  },
});
