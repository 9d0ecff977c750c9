import { html, when, type Html } from '../html.ts';
import type { ShareView } from '../../tools/share/share-view.ts';
import { csrfField, layout, postButton, type Viewer } from './layout.ts';

/** The live shares of one target, each with its revoke button (which comes back to `back`). */
export function shareRows(user: Viewer, shares: ShareView[], back: string): Html {
  if (!shares.length) return html`<p class="meta">Not shared.</p>`;
  return html`<ul class="list">${shares.map(
    (
      s,
    ) => html`<li>${s.public ? html`<strong>Public link</strong>` : html`with <strong>${s.user}</strong>${s.accepted ? '' : ' (not accepted yet)'}`} · ${s.permission} · ${when(s.createdAt)}
${postButton(user, `/shares/${s.id}/revoke`, 'Revoke', { cls: 'danger', fields: { back } })}</li>`,
  )}</ul>`;
}

/** The form that shares a target with a person or as a public link. */
export function shareForm(user: Viewer, target: string, back: string): Html {
  return html`<form method="post" action="/shares" class="filters">${csrfField(user)}<input type="hidden" name="target" value="${target}"><input type="hidden" name="back" value="${back}">
<div><label for="share-user">With (handle, empty for a public link)</label><input type="text" id="share-user" name="user" maxlength="40" placeholder="public link"></div>
<div><label for="share-perm">May</label><select id="share-perm" name="permission"><option value="read">read</option><option value="comment">read and comment</option></select></div>
<button type="submit">Share</button></form>`;
}

/** The shares page: what others shared with the person, and what they shared. */
export interface SharesData {
  user: Viewer;
  incoming: ShareView[];
  mine: ShareView[];
}

const targetLink = (s: ShareView) => {
  const path =
    s.target.type === 'binding' ? `/b/${s.target.id}` : s.target.type === 'set' ? `/sets/${s.target.id}` : `/?space=${s.target.id}`;
  return html`<a href="${path}">${s.target.label ?? s.target.id}</a>`;
};

/** The shares page. */
export function sharesView({ user, incoming, mine }: SharesData): Html {
  const body = html`<h1>Shares</h1>
<h2>Shared with you</h2>${
    incoming.length
      ? html`<ul class="list">${incoming.map(
          (s) => html`<li>${targetLink(s)} <span class="meta">from ${s.createdBy} · ${s.permission} · ${when(s.createdAt)}</span>
${s.accepted ? html`<span class="meta">accepted</span>` : postButton(user, `/shares/${s.id}/accept`, 'Accept')} ${postButton(user, `/shares/${s.id}/revoke`, 'Decline', { fields: { back: '/shares' } })}</li>`,
        )}</ul>`
      : html`<p>Nothing shared with you.</p>`
  }
<h2>Shared by you</h2>${
    mine.length
      ? html`<ul class="list">${mine.map(
          (
            s,
          ) => html`<li>${targetLink(s)} · ${s.public ? 'public link' : html`with ${s.user}${s.accepted ? '' : ' (not accepted yet)'}`} · ${s.permission}
${postButton(user, `/shares/${s.id}/revoke`, 'Revoke', { cls: 'danger', fields: { back: '/shares' } })}</li>`,
        )}</ul>`
      : html`<p>You have not shared anything.</p>`
  }
<p class="meta">Share a binding or a set from its page.</p>`;
  return layout('Shares', user, body);
}

/** The page right after a public link is made: its secret, shown this once. */
export interface LinkMadeData {
  user: Viewer;
  permission: 'read' | 'comment';
  label: string;
  linkUrl: string;
  linkTextUrl: string;
  back: string;
}

/** The page that shows a new public link once. */
export function linkMadeView(d: LinkMadeData): Html {
  const body = html`<h1>Public link made</h1><p>Anyone with this link can ${d.permission === 'comment' ? 'read and comment on' : 'read'} ${d.label}. Copy it now: it is shown only once.</p>
<p class="secret" id="share-link">${d.linkUrl}</p><p class="meta">Markdown: <span class="secret">${d.linkTextUrl}</span></p><p><a href="${d.back}">Done</a></p>`;
  return layout('Public link', d.user, body);
}
