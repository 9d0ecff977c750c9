import { callTool } from '../../tools/call.ts';
import { TOOLS } from '../../tools/registry.ts';
import { acceptShare, createShare, revokeShare, shareLinkUrls } from '../../services/shares.ts';
import type { ShareView } from '../../tools/share/share-view.ts';
import { fail } from '../../errors.ts';
import { html, when, type Html } from '../html.ts';
import { csrfField, layout, page, postButton, redirect } from '../layout.ts';
import type { WebContext, WebRoute } from '../route.ts';

// Shares: read or comment access for another person (they accept it to see it in their lists), or a
// public link whose secret is shown once, on the page right after it is made (only its hash is kept).

/** A same-site path to go back to after a form (never another origin). */
function backTo(form: URLSearchParams, fallback: string): string {
  const back = form.get('back') ?? '';
  return /^\/(?![/\\])[\w\-/@.?=&%#]*$/.test(back) ? back : fallback;
}

/** The live shares of one target, each with its revoke button. */
export function shareRows(ctx: WebContext, shares: ShareView[]): Html {
  if (!shares.length) return html`<p class="meta">Not shared.</p>`;
  return html`<ul class="list">${shares.map(
    (
      s,
    ) => html`<li>${s.public ? html`<strong>Public link</strong>` : html`with <strong>${s.user}</strong>${s.accepted ? '' : ' (not accepted yet)'}`} · ${s.permission} · ${when(s.createdAt)}
${postButton(ctx.user, `/shares/${s.id}/revoke`, 'Revoke', { cls: 'danger', fields: { back: ctx.url.pathname } })}</li>`,
  )}</ul>`;
}

/** The form that shares a target with a person or as a public link. */
export function shareForm(ctx: WebContext, target: string, back: string): Html {
  return html`<form method="post" action="/shares" class="filters">${csrfField(ctx.user)}<input type="hidden" name="target" value="${target}"><input type="hidden" name="back" value="${back}">
<div><label for="share-user">With (handle, empty for a public link)</label><input type="text" id="share-user" name="user" maxlength="40" placeholder="public link"></div>
<div><label for="share-perm">May</label><select id="share-perm" name="permission"><option value="read">read</option><option value="comment">read and comment</option></select></div>
<button type="submit">Share</button></form>`;
}

async function list(ctx: WebContext): Promise<Response> {
  const mine = (await callTool(ctx.tools(), TOOLS.list_shares, { limit: 100 })).shares.filter(
    (s) => !s.revoked && s.createdBy === `@${ctx.user.caller.handle}`,
  );
  const incoming = (await callTool(ctx.tools(), TOOLS.list_shares, { incoming: true, limit: 100 })).shares.filter((s) => !s.revoked);
  const targetLink = (s: ShareView) => {
    const path =
      s.target.type === 'binding' ? `/b/${s.target.id}` : s.target.type === 'set' ? `/sets/${s.target.id}` : `/?space=${s.target.id}`;
    return html`<a href="${path}">${s.target.label ?? s.target.id}</a>`;
  };
  const body = html`<h1>Shares</h1>
<h2>Shared with you</h2>${
    incoming.length
      ? html`<ul class="list">${incoming.map(
          (s) => html`<li>${targetLink(s)} <span class="meta">from ${s.createdBy} · ${s.permission} · ${when(s.createdAt)}</span>
${s.accepted ? html`<span class="meta">accepted</span>` : postButton(ctx.user, `/shares/${s.id}/accept`, 'Accept')} ${postButton(ctx.user, `/shares/${s.id}/revoke`, 'Decline', { fields: { back: '/shares' } })}</li>`,
        )}</ul>`
      : html`<p>Nothing shared with you.</p>`
  }
<h2>Shared by you</h2>${
    mine.length
      ? html`<ul class="list">${mine.map(
          (
            s,
          ) => html`<li>${targetLink(s)} · ${s.public ? 'public link' : html`with ${s.user}${s.accepted ? '' : ' (not accepted yet)'}`} · ${s.permission}
${postButton(ctx.user, `/shares/${s.id}/revoke`, 'Revoke', { cls: 'danger', fields: { back: '/shares' } })}</li>`,
        )}</ul>`
      : html`<p>You have not shared anything.</p>`
  }
<p class="meta">Share a binding or a set from its page.</p>`;
  return page(layout('Shares', ctx.user, body));
}

export const shareRoutes: WebRoute[] = [
  { method: 'GET', path: /^\/shares$/, handle: (ctx) => list(ctx) },
  {
    method: 'POST',
    path: /^\/shares$/,
    async handle(ctx) {
      const f = ctx.form;
      const target = f.get('target') ?? '';
      const user = (f.get('user') ?? '').trim().replace(/^@/, '');
      const permission = f.get('permission') === 'comment' ? 'comment' : 'read';
      if (!target) throw fail.invalid('target', 'is required');
      const back = backTo(f, '/shares');
      const made = await createShare(ctx.core, ctx.user.caller, { target, permission, ...(user ? { user } : { public: true }) });
      if (!made.linkSecret) return redirect(back);
      // The secret is shown here once: it is not stored, and this page is not cached.
      const { linkUrl, linkTextUrl } = shareLinkUrls(ctx.deps.config.publicUrl, made.target.path, made.linkSecret);
      const body = html`<h1>Public link made</h1><p>Anyone with this link can ${permission === 'comment' ? 'read and comment on' : 'read'} ${made.target.label}. Copy it now: it is shown only once.</p>
<p class="secret" id="share-link">${linkUrl}</p><p class="meta">Markdown: <span class="secret">${linkTextUrl}</span></p><p><a href="${back}">Done</a></p>`;
      return page(layout('Public link', ctx.user, body), 200, { 'Referrer-Policy': 'no-referrer' });
    },
  },
  {
    method: 'POST',
    path: /^\/shares\/(shr_[A-Za-z0-9_-]{1,64})\/revoke$/,
    async handle(ctx, m) {
      await revokeShare(ctx.core, ctx.user.caller, m[1]!);
      return redirect(backTo(ctx.form, '/shares'));
    },
  },
  {
    method: 'POST',
    path: /^\/shares\/(shr_[A-Za-z0-9_-]{1,64})\/accept$/,
    async handle(ctx, m) {
      await acceptShare(ctx.core, ctx.user.caller, m[1]!);
      return redirect('/shares');
    },
  },
];
