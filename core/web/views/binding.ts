import type { DeletedBinding } from '../../../db/store/binding-restore.ts';
import type { BindingVersionRow } from '../../../db/store/bindings.ts';
import type { CommentView } from '../../tools/comment/comment-view.ts';
import type { ShareView } from '../../tools/share/share-view.ts';
import { html, num, when, type Html } from '../html.ts';
import type { LineDiff } from '../line-diff.ts';
import { diffView } from './diff.ts';
import { csrfField, layout, postButton, provenance, type TierCosts, type Viewer } from './layout.ts';
import { shareForm, shareRows } from './shares.ts';

/** A version in a binding's history. */
export interface VersionLine {
  number: number;
  name: string;
  source: 'human' | 'llm';
  model: string | null;
  createdAt: string | number;
  contentTokenCount: number;
}

/** A comment with its body rendered (sanitized Markdown). */
export interface ShownComment {
  comment: CommentView;
  body: Html;
}

/** A binding's page: one version, its costs, its history, comments and (for its owner) sharing. */
export interface BindingData {
  user: Viewer;
  id: string;
  row: BindingVersionRow;
  /** The version asked for with `?v=`, if any (a comment posted here is on it). */
  asked: number | undefined;
  costs: TierCosts;
  content: Html;
  versions: VersionLine[];
  comments: ShownComment[];
  commentable: boolean;
  owner: boolean;
  /** The owner's live shares of it (empty for anyone else). */
  shares: ShareView[];
  /** This page's path, where a revoke comes back to. */
  path: string;
}

/** A comment, with who wrote it (a person or an assistant and its model) shown by text and style. */
function commentItem(user: Viewer, { comment: c, body }: ShownComment, ownerView: boolean): Html {
  const mine = c.author === `@${user.caller.handle}`;
  return html`<article class="comment ${c.source}" aria-label="comment by ${c.author}">
<p class="meta">${provenance(c.source, c.model)} ${c.author} · ${when(c.createdAt)}${c.version ? ` · on v${c.version}` : ''} · ${num(c.bodyTokenCount)} tokens
${mine || ownerView ? postButton(user, `/comments/${c.id}/delete`, 'Delete', { cls: 'link' }) : ''}</p>
<div>${body}</div></article>`;
}

/** A binding's page. */
export function bindingView(d: BindingData): Html {
  const { user, id, row, versions, comments, owner } = d;
  const current = row.number === row.currentVersion;
  const prev = versions.find((v) => v.number === row.number - 1);
  const body = html`<p class="meta"><a href="/?space=${row.spaceSlug}">@${row.spaceSlug}</a> · <a href="/@${row.spaceSlug}/${row.bindingSlug}">public address</a></p>
<h1>${row.name}</h1>
<p class="meta">Version ${row.number}${current ? ' (current)' : html` of ${row.currentVersion} · <a href="/b/${id}">see current</a>`} · ${when(row.createdAt)} · ${provenance(row.source, row.model)}</p>
${
  owner && current
    ? html`<p><a class="button" href="/b/${id}/edit">Edit</a> ${postButton(user, `/b/${id}/delete`, 'Delete', { cls: 'danger' })}</p>`
    : ''
}
<section aria-labelledby="cost-h"><h2 id="cost-h">What an assistant loads</h2>
<table><caption class="skip">Exact token cost per tier</caption><thead><tr><th scope="col">Tier</th><th scope="col">Holds</th><th scope="col">Tokens</th></tr></thead><tbody>
<tr><td>1</td><td>summary card and key points</td><td>${num(d.costs['1'])}</td></tr>
<tr><td>1.5</td><td>+ preview and outline</td><td>${num(d.costs['1.5'])}</td></tr>
<tr><td>2</td><td>+ the whole content (${num(row.contentTokenCount)} tokens of Markdown)</td><td>${num(d.costs['2'])}</td></tr></tbody></table></section>
<h2>Summary</h2><p>${row.summary}</p>
${row.keyPoints.length ? html`<ul>${row.keyPoints.map((k) => html`<li>${k}</li>`)}</ul>` : ''}
<section class="content" aria-label="content">${d.content}</section>
<section aria-labelledby="versions-h"><h2 id="versions-h">Versions</h2>
<ol class="list versions" reversed>${versions.map(
    (
      v,
    ) => html`<li class="${v.number === row.number ? 'current' : ''}"><a href="/b/${id}?v=${v.number}">v${v.number}</a> ${provenance(v.source, v.model)} <span class="meta">${when(v.createdAt)} · ${v.name} · ${num(v.contentTokenCount)} tokens</span>
${v.number > 1 ? html` <a href="/b/${id}/diff?from=${v.number - 1}&amp;to=${v.number}">changes</a>` : ''}</li>`,
  )}</ol>
<form method="get" action="/b/${id}/diff" class="filters"><div><label for="from">Compare</label><select id="from" name="from">${versions.map((v) => html`<option value="${v.number}" ${v.number === (prev?.number ?? row.number) ? 'selected' : ''}>v${v.number}</option>`)}</select></div>
<div><label for="to">with</label><select id="to" name="to">${versions.map((v) => html`<option value="${v.number}" ${v.number === row.number ? 'selected' : ''}>v${v.number}</option>`)}</select></div><button type="submit">Show diff</button></form></section>
<section id="comments" aria-labelledby="comments-h"><h2 id="comments-h">Comments (${comments.length})</h2>
${comments.map((c) => commentItem(user, c, owner))}
${
  d.commentable
    ? html`<form method="post" action="/b/${id}/comments">${csrfField(user)}<label for="comment">Add a comment (Markdown)</label><textarea id="comment" name="body" rows="3" required maxlength="4000"></textarea>
<input type="hidden" name="version" value="${d.asked ?? ''}"><p><button type="submit">Comment</button></p></form>`
    : ''
}</section>
${owner ? html`<section aria-labelledby="share-h"><h2 id="share-h">Sharing</h2>${shareRows(user, d.shares, d.path)}${shareForm(user, id, `/b/${id}`)}</section>` : ''}`;
  return layout(row.name, user, body);
}

/** Two versions of a binding and the line diffs between them (the summary's only when it changed). */
export interface DiffData {
  user: Viewer;
  id: string;
  from: number;
  to: number;
  a: BindingVersionRow;
  b: BindingVersionRow;
  summary: LineDiff | undefined;
  content: LineDiff;
}

/** The changes between two versions. */
export function diffPageView(d: DiffData): Html {
  const { a, b, id } = d;
  const side = (r: BindingVersionRow) =>
    html`v${r.number} ${provenance(r.source, r.model)} <span class="meta">${when(r.createdAt)} · ${num(r.contentTokenCount)} tokens</span>`;
  const body = html`<p class="meta"><a href="/b/${id}">← ${b.name}</a></p><h1>Changes from v${d.from} to v${d.to}</h1>
<p>From ${side(a)}<br>To ${side(b)}</p>
${a.name !== b.name ? html`<p>Name: “${a.name}” → “${b.name}”</p>` : ''}${d.summary ? html`<h2>Summary</h2>${diffView(d.summary)}` : ''}
<h2>Content</h2>${diffView(d.content)}`;
  return layout(`Diff ${b.name}`, d.user, body);
}

/** The deleted bindings a person may restore. */
export interface TrashData {
  user: Viewer;
  rows: DeletedBinding[];
  /** Just deleted one (the delete redirects here). */
  deleted: boolean;
}

/** The deleted bindings, each with Restore. */
export function trashView(d: TrashData): Html {
  const body = html`<h1>Deleted bindings</h1><p>Deleting hides a binding from reads, lists and search; its versions stay. Restore brings it back as it was.</p>
${d.rows.length ? html`<ul class="list">${d.rows.map((r) => html`<li><strong>${r.name}</strong> <span class="meta">@${r.spaceSlug} · v${r.currentVersion} · deleted ${when(r.deletedAt)}</span> ${postButton(d.user, `/b/${r.id}/restore`, 'Restore')}</li>`)}</ul>` : html`<p>Nothing deleted.</p>`}`;
  return layout('Deleted', d.user, body, { flash: d.deleted ? 'Deleted. You can restore it here.' : undefined });
}
