import { fail } from '../../errors.ts';
import { acceptShare, createShare, revokeShare, shareLinkUrls } from '../../services/shares.ts';
import { callTool } from '../../tools/call.ts';
import { TOOLS } from '../../tools/registry.ts';
import type { ShareView } from '../../tools/share/share-view.ts';
import { defineAction, definePage, show } from '../page.ts';
import { redirect } from '../respond.ts';
import type { WebContext, WebRoute } from '../route.ts';
import { linkMadeView, sharesView } from '../views/shares.ts';

// Shares: read or comment access for another person (they accept it to see it in their lists), or a
// public link whose secret is shown once, on the page right after it is made (only its hash is kept).

/** A same-site path to go back to after a form (never another origin). */
function backTo(form: URLSearchParams, fallback: string): string {
  const back = form.get('back') ?? '';
  return /^\/(?![/\\])[\w\-/@.?=&%#]*$/.test(back) ? back : fallback;
}

/** The live shares of one target (its owner's view; list_shares refuses anyone else). */
export async function shareRowsOf(ctx: WebContext, target: string): Promise<ShareView[]> {
  return (await callTool(ctx.tools(), TOOLS.list_shares, { target, limit: 100 })).shares.filter((s) => !s.revoked);
}

/** The shares pages' routes (each a definePage or defineAction). */
export const shareRoutes: WebRoute[] = [
  {
    method: 'GET',
    path: /^\/shares$/,
    page: definePage({
      async load(ctx) {
        const mine = (await callTool(ctx.tools(), TOOLS.list_shares, { limit: 100 })).shares.filter(
          (s) => !s.revoked && s.createdBy === `@${ctx.user.caller.handle}`,
        );
        const incoming = (await callTool(ctx.tools(), TOOLS.list_shares, { incoming: true, limit: 100 })).shares.filter((s) => !s.revoked);
        return show({ user: ctx.user, incoming, mine });
      },
      view: sharesView,
    }),
  },
  {
    method: 'POST',
    path: /^\/shares$/,
    page: definePage({
      async load(ctx) {
        const f = ctx.form;
        const target = f.get('target') ?? '';
        const user = (f.get('user') ?? '').trim().replace(/^@/, '');
        const permission: 'read' | 'comment' = f.get('permission') === 'comment' ? 'comment' : 'read';
        if (!target) throw fail.invalid('target', 'is required');
        const back = backTo(f, '/shares');
        const made = await createShare(ctx.core, ctx.user.caller, { target, permission, ...(user ? { user } : { public: true }) });
        if (!made.linkSecret) return redirect(back);
        // The secret is shown here once: it is not stored, and this page is not cached.
        const { linkUrl, linkTextUrl } = shareLinkUrls(ctx.deps.config.publicUrl, made.target.path, made.linkSecret);
        return show({ user: ctx.user, permission, label: made.target.label, linkUrl, linkTextUrl, back }, 200, {
          'Referrer-Policy': 'no-referrer',
        });
      },
      view: linkMadeView,
    }),
  },
  {
    method: 'POST',
    path: /^\/shares\/(shr_[A-Za-z0-9_-]{1,64})\/revoke$/,
    page: defineAction(async (ctx, m) => {
      await revokeShare(ctx.core, ctx.user.caller, m[1]!);
      return redirect(backTo(ctx.form, '/shares'));
    }),
  },
  {
    method: 'POST',
    path: /^\/shares\/(shr_[A-Za-z0-9_-]{1,64})\/accept$/,
    page: defineAction(async (ctx, m) => {
      await acceptShare(ctx.core, ctx.user.caller, m[1]!);
      return redirect('/shares');
    }),
  },
];
