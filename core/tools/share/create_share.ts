import { z } from 'zod';
import { defineTool } from '../define.ts';
import { idOf } from '../schema.ts';
import { acceptShare, createShare, shareLinkUrls } from '../../services/shares.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import type { ToolContext } from '../../context.ts';
import { shareLine, shareView, toShareView } from './share-view.ts';

const SHARE_FIELDS = ['target', 'user', 'public', 'permission'] as const;

export const createShareTool = defineTool({
  name: 'create_share',
  title: 'Share',
  category: 'share',
  description:
    'Give another user (by handle) or anyone with the link (public: true) access to a binding, set or space you own. permission "read" lets them read; "comment" also lets them add_comment. A set share covers the set and the bindings in it that you own. A user share reaches them by id at once, and their searches and lists once they accept it. A new public share returns linkUrl and linkTextUrl carrying a secret: they are shown only once (only a hash is kept), and the plain publicUrl does not open a private binding. Revoke with revoke_share.',
  aliases: ['give access', 'invite', 'publish link', 'collaborate', 'accept share'],
  input: z
    .strictObject({
      target: z
        .string()
        .min(1, { message: 'must not be empty' })
        .max(80)
        .optional()
        .describe('a binding (bnd_…), set (set_…) or space (spc_… or @slug) you own; required unless accept'),
      user: z.string().min(1, { message: 'must not be empty' }).max(80).optional().describe('handle of the user to share with'),
      public: z.literal(true, { message: 'must be true when given' }).optional().describe('share with anyone who has the link'),
      permission: z.enum(['read', 'comment'], { message: 'must be "read" or "comment"' }).optional().describe('required unless accept'),
      accept: idOf('shr', 'share').optional().describe('instead of all else: accept a share given to you (list_shares {incoming: true})'),
    })
    .superRefine((a, issues) => {
      if (a.accept !== undefined) {
        const extra = SHARE_FIELDS.find((k) => a[k] !== undefined);
        if (extra)
          issues.addIssue({ code: 'custom', path: [extra], message: 'must not be given with accept (accepting takes only the share id)' });
        return;
      }
      if (a.target === undefined)
        issues.addIssue({
          code: 'custom',
          path: ['target'],
          message: 'is required (string) to share; to accept a share given to you, give accept instead',
        });
      if (a.permission === undefined)
        issues.addIssue({ code: 'custom', path: ['permission'], message: 'is required with target ("read" or "comment")' });
    }),
  output: z.object({
    share: shareView,
    created: z.boolean(),
    linkUrl: z.string().optional().describe('the public link (HTML page); present only when this call made it, never shown again'),
    linkTextUrl: z.string().optional().describe('the same link as Markdown (?format=md)'),
  }),
  bound: { kind: 'tokens', maxTokens: 220 },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async handler(args, ctx) {
    if (args.accept !== undefined) return accept(args.accept, ctx);
    const input = { ...args, target: args.target!, permission: args.permission! };
    const { share, created, target, linkSecret, replaced } = await createShare(ctx, ctx.caller, input);
    const view = toShareView(share);
    const effect = view.accepted
      ? 'it takes effect now'
      : `${view.user} can open it by id now; it enters their searches and lists once they accept it`;
    const head = created ? `Shared (${view.id}); ${effect}.` : `Already shared this way (${view.id}); nothing changed.`;
    const pieces: Piece[] = [line(head), shareLine(view)];
    if (replaced)
      pieces.push(
        line(
          `It replaces ${replaced}${view.public && !linkSecret ? '; the link handed out before keeps working, with this permission' : ''}.`,
        ),
      );
    if (linkSecret) {
      const urls = shareLinkUrls(ctx.config.publicUrl, target.path, linkSecret);
      const opens = target.type === 'binding' ? 'the page' : `a page listing the ${target.type}'s bindings, each opened by the same link`;
      pieces.push(
        line(`Link (shown only now; only its hash is kept): ${urls.linkUrl}`),
        line(`Markdown: ${urls.linkTextUrl}`),
        line(`It opens ${opens}.`),
      );
      return { pieces, data: { share: view, created, ...urls } };
    }
    if (view.public && !created)
      pieces.push(
        line('Its link was shown when it was made and cannot be shown again; to get a new one, revoke_share it and share again.'),
      );
    return { pieces, data: { share: view, created } };
  },
});

/** `create_share {accept}`: the caller takes a share given to them into their default scope. */
async function accept(id: string, ctx: ToolContext) {
  const { share, changed } = await acceptShare(ctx, ctx.caller, id);
  const view = toShareView(share);
  const head = changed
    ? `Accepted ${view.id}: ${view.target.type} ${view.target.id} now appears in your searches and lists.`
    : `Already accepted (${view.id}); nothing changed.`;
  return { pieces: [line(head), shareLine(view)], data: { share: view, created: false } };
}
