import { tierCost } from '../../budget/tier.ts';
import { fail } from '../../errors.ts';
import { renderMarkdown } from '../../http/markdown.ts';
import { callTool } from '../../tools/call.ts';
import { TOOLS } from '../../tools/registry.ts';
import { contentOf, deleteBinding, listVersions, readBinding } from '../../services/bindings.ts';
import { addComment, deleteComment, mayComment } from '../../services/comments.ts';
import { deletedBindings, restoreBinding } from '../../services/restore.ts';
import type { CommentView } from '../../tools/comment/comment-view.ts';
import { html, num, trusted, when, type Html } from '../html.ts';
import { csrfField, layout, page, postButton, provenance, redirect } from '../layout.ts';
import type { WebContext, WebRoute } from '../route.ts';
import { HUMAN } from '../../context.ts';
import { lineDiffPaced, type LineDiff } from '../line-diff.ts';
import { createWorkGate } from '../work-gate.ts';
import { shareForm, shareRows } from './shares.ts';
import { idPattern } from '../../ids.ts';

// A binding's page: the version (current or `?v=`), its exact cost per tier, every version with its
// provenance, a diff between any two, comments (people and assistants told apart) and, for its owner,
// edit, delete and sharing. Every read is access-checked by readBinding first: what a person may not
// read is the one 404.

const ID = `(${idPattern('bnd')})`;
const versionParam = (v: string | null) => (v && /^\d{1,9}$/.test(v) ? Number(v) : undefined);

/** Unchanged lines shown around each change; longer unchanged stretches fold into one line. */
const CONTEXT_LINES = 3;
/** Lines a diff shows at most: the page stays small whatever the versions (the counts stay exact). */
const MAX_SHOWN_LINES = 2000;

/** Diff work runs one at a time, eight more may wait; a flood of diff requests slows only itself. */
const diffGate = createWorkGate(1, 8);
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Line diffs of text pairs (line-diff.ts: Myers' diff within a step budget, paced), computed through
 * the diff gate; undefined when the gate is full (the caller answers 503 with diffBusy).
 */
export async function diffViews(pairs: [string, string][]): Promise<Html[] | undefined> {
  return diffGate.run(async () => {
    const out: Html[] = [];
    for (const [a, b] of pairs) out.push(diffView(await lineDiffPaced(a, b, nextTurn)));
    return out;
  });
}

/** The page for a diff the gate turned away. */
export const diffBusy = (ctx: WebContext): Response =>
  page(
    layout('Busy', ctx.user, html`<h1>Busy</h1><p>Bindery is computing other comparisons right now. Try again in a few seconds.</p>`),
    503,
    { 'Retry-After': '5' },
  );

/**
 * A computed line diff as HTML: removed, added and, around each change, unchanged lines. When the
 * budget ran out the changed middle is shown as removed then added, with a note; either way the page
 * shows at most MAX_SHOWN_LINES lines.
 */
export function diffView(d: LineDiff): Html {
  const lines: Html[] = [];
  const line = (cls: string, label: string, text: string) => html`<div class="${cls}"><span class="skip">${label}: </span>${text}</div>`;
  let hidden = 0;
  const show = (item: Html) => (lines.length < MAX_SHOWN_LINES ? lines.push(item) : hidden++);
  d.runs.forEach((run, i) => {
    if (run.kind !== 'same') {
      const side = run.kind === 'add' ? d.b : d.a;
      for (let j = run.start; j < run.start + run.count; j++) {
        if (lines.length >= MAX_SHOWN_LINES) {
          hidden += run.start + run.count - j;
          break;
        }
        show(run.kind === 'add' ? line('add', 'added', side[j]!) : line('del', 'removed', side[j]!));
      }
      return;
    }
    const before = i > 0 ? CONTEXT_LINES : 0;
    const after = i < d.runs.length - 1 ? CONTEXT_LINES : 0;
    if (run.count <= before + after + 1) {
      for (let j = run.start; j < run.start + run.count; j++) show(line('same', 'unchanged', d.a[j]!));
      return;
    }
    for (let j = run.start; j < run.start + before; j++) show(line('same', 'unchanged', d.a[j]!));
    show(html`<div class="fold meta">⋯ ${num(run.count - before - after)} unchanged lines</div>`);
    for (let j = run.start + run.count - after; j < run.start + run.count; j++) show(line('same', 'unchanged', d.a[j]!));
  });
  const note = d.complete
    ? ''
    : html`<p class="note">These versions are too different to show line by line in full: the changed part is shown as removed, then added.</p>`;
  const more = hidden ? html`<p class="note">${num(hidden)} more lines are not shown.</p>` : '';
  return html`${note}<p class="meta">${d.added} line${d.added === 1 ? '' : 's'} added, ${d.removed} removed.</p><div class="diff" role="region" aria-label="differences">${lines}</div>${more}`;
}

/** A comment, with who wrote it (a person or an assistant and its model) shown by text and style. */
function commentItem(ctx: WebContext, c: CommentView, ownerView: boolean): Html {
  const mine = c.author === `@${ctx.user.caller.handle}`;
  return html`<article class="comment ${c.source}" aria-label="comment by ${c.author}">
<p class="meta">${provenance(c.source, c.model)} ${c.author} · ${when(c.createdAt)}${c.version ? ` · on v${c.version}` : ''} · ${num(c.bodyTokenCount)} tokens
${mine || ownerView ? postButton(ctx.user, `/comments/${c.id}/delete`, 'Delete', { cls: 'link' }) : ''}</p>
<div>${trusted(renderMarkdown(c.body))}</div></article>`;
}

async function show(ctx: WebContext, id: string): Promise<Response> {
  const asked = versionParam(ctx.url.searchParams.get('v'));
  const row = await readBinding(ctx.core, ctx.user.caller, id, { version: asked, withContent: true });
  const content = await contentOf(ctx.core, row);
  const owner = row.spaceOwnerId === ctx.user.caller.id;
  const versions = (await listVersions(ctx.core, row, 0, 200)).rows;
  const comments = (await callTool(ctx.tools(), TOOLS.list_comments, { id, limit: 50 })).comments;
  const commentable = await mayComment(ctx.core, ctx.user.caller, id);
  const shares = owner ? (await callTool(ctx.tools(), TOOLS.list_shares, { target: id, limit: 100 })).shares.filter((s) => !s.revoked) : [];
  const current = row.number === row.currentVersion;
  const prev = versions.find((v) => v.number === row.number - 1);
  const body = html`<p class="meta"><a href="/?space=${row.spaceSlug}">@${row.spaceSlug}</a> · <a href="/@${row.spaceSlug}/${row.bindingSlug}">public address</a></p>
<h1>${row.name}</h1>
<p class="meta">Version ${row.number}${current ? ' (current)' : html` of ${row.currentVersion} · <a href="/b/${id}">see current</a>`} · ${when(row.createdAt)} · ${provenance(row.source, row.model)}</p>
${
  owner && current
    ? html`<p><a class="button" href="/b/${id}/edit">Edit</a> ${postButton(ctx.user, `/b/${id}/delete`, 'Delete', { cls: 'danger' })}</p>`
    : ''
}
<section aria-labelledby="cost-h"><h2 id="cost-h">What an assistant loads</h2>
<table><caption class="skip">Exact token cost per tier</caption><thead><tr><th scope="col">Tier</th><th scope="col">Holds</th><th scope="col">Tokens</th></tr></thead><tbody>
<tr><td>1</td><td>summary card and key points</td><td>${num(tierCost(row, '1'))}</td></tr>
<tr><td>1.5</td><td>+ preview and outline</td><td>${num(tierCost(row, '1.5'))}</td></tr>
<tr><td>2</td><td>+ the whole content (${num(row.contentTokenCount)} tokens of Markdown)</td><td>${num(tierCost(row, '2'))}</td></tr></tbody></table></section>
<h2>Summary</h2><p>${row.summary}</p>
${row.keyPoints.length ? html`<ul>${row.keyPoints.map((k) => html`<li>${k}</li>`)}</ul>` : ''}
<section class="content" aria-label="content">${trusted(renderMarkdown(content))}</section>
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
${comments.map((c) => commentItem(ctx, c, owner))}
${
  commentable
    ? html`<form method="post" action="/b/${id}/comments">${csrfField(ctx.user)}<label for="comment">Add a comment (Markdown)</label><textarea id="comment" name="body" rows="3" required maxlength="4000"></textarea>
<input type="hidden" name="version" value="${asked ?? ''}"><p><button type="submit">Comment</button></p></form>`
    : ''
}</section>
${owner ? html`<section aria-labelledby="share-h"><h2 id="share-h">Sharing</h2>${shareRows(ctx, shares)}${shareForm(ctx, id, `/b/${id}`)}</section>` : ''}`;
  return page(layout(row.name, ctx.user, body));
}

async function diff(ctx: WebContext, id: string): Promise<Response> {
  const from = versionParam(ctx.url.searchParams.get('from'));
  const to = versionParam(ctx.url.searchParams.get('to'));
  if (from === undefined || to === undefined) throw fail.invalid('from', 'from and to must be version numbers');
  const a = await readBinding(ctx.core, ctx.user.caller, id, { version: from, withContent: true });
  const b = await readBinding(ctx.core, ctx.user.caller, id, { version: to, withContent: true });
  const text = (r: typeof a) => contentOf(ctx.core, r);
  const side = (r: typeof a) =>
    html`v${r.number} ${provenance(r.source, r.model)} <span class="meta">${when(r.createdAt)} · ${num(r.contentTokenCount)} tokens</span>`;
  const summaryChanged = a.summary !== b.summary;
  const views = await diffViews([...(summaryChanged ? [[a.summary, b.summary] as [string, string]] : []), [await text(a), await text(b)]]);
  if (!views) return diffBusy(ctx);
  const body = html`<p class="meta"><a href="/b/${id}">← ${b.name}</a></p><h1>Changes from v${from} to v${to}</h1>
<p>From ${side(a)}<br>To ${side(b)}</p>
${a.name !== b.name ? html`<p>Name: “${a.name}” → “${b.name}”</p>` : ''}${summaryChanged ? html`<h2>Summary</h2>${views[0]!}` : ''}
<h2>Content</h2>${views.at(-1)!}`;
  return page(layout(`Diff ${b.name}`, ctx.user, body));
}

async function trash(ctx: WebContext): Promise<Response> {
  const rows = await deletedBindings(ctx.core, ctx.user.caller);
  const body = html`<h1>Deleted bindings</h1><p>Deleting hides a binding from reads, lists and search; its versions stay. Restore brings it back as it was.</p>
${rows.length ? html`<ul class="list">${rows.map((r) => html`<li><strong>${r.name}</strong> <span class="meta">@${r.spaceSlug} · v${r.currentVersion} · deleted ${when(r.deletedAt)}</span> ${postButton(ctx.user, `/b/${r.id}/restore`, 'Restore')}</li>`)}</ul>` : html`<p>Nothing deleted.</p>`}`;
  return page(
    layout('Deleted', ctx.user, body, { flash: ctx.url.searchParams.get('deleted') ? 'Deleted. You can restore it here.' : undefined }),
  );
}

export const bindingRoutes: WebRoute[] = [
  { method: 'GET', path: new RegExp(`^/b/${ID}$`), handle: (ctx, m) => show(ctx, m[1]!) },
  { method: 'GET', path: new RegExp(`^/b/${ID}/diff$`), handle: (ctx, m) => diff(ctx, m[1]!) },
  { method: 'GET', path: /^\/trash$/, handle: (ctx) => trash(ctx) },
  {
    method: 'POST',
    path: new RegExp(`^/b/${ID}/delete$`),
    async handle(ctx, m) {
      await deleteBinding(ctx.core, ctx.user.caller, m[1]!);
      return redirect('/trash?deleted=1');
    },
  },
  {
    method: 'POST',
    path: new RegExp(`^/b/${ID}/restore$`),
    async handle(ctx, m) {
      await restoreBinding(ctx.core, ctx.user.caller, m[1]!);
      return redirect(`/b/${m[1]!}`);
    },
  },
  {
    method: 'POST',
    path: new RegExp(`^/b/${ID}/comments$`),
    async handle(ctx, m) {
      const body = (ctx.form.get('body') ?? '').trim();
      if (!body) throw fail.invalid('body', 'must not be empty');
      if (body.length > 4000) throw fail.tooLarge('body', 'must be at most 4000 characters');
      await ctx.deps.tokens.load();
      await addComment(ctx.core, ctx.user.caller, { id: m[1]!, body, version: versionParam(ctx.form.get('version')) }, HUMAN);
      return redirect(`/b/${m[1]!}#comments`);
    },
  },
  {
    method: 'POST',
    path: /^\/comments\/(cmt_[A-Za-z0-9_-]{1,64})\/delete$/,
    async handle(ctx, m) {
      const c = await deleteComment(ctx.core, ctx.user.caller, m[1]!);
      return redirect(`/b/${c.bindingId}#comments`);
    },
  },
];
