import { z } from 'zod';
import { BinderyError } from '../../errors.ts';
import { renderMarkdown } from '../../http/markdown.ts';
import { parseInput } from '../../http/validate.ts';
import { contentOf, readBinding, updateBinding } from '../../services/bindings.ts';
import { content, keyPoints, name, summary } from '../../tools/schema.ts';
import { html, trusted, when, type Html } from '../html.ts';
import { csrfField, layout, page, provenance, redirect } from '../layout.ts';
import type { WebContext, WebRoute } from '../route.ts';
import { diffViews } from './binding.ts';
import { linesOf } from './bindings.ts';
import { HUMAN } from '../../context.ts';
import { idPattern } from '../../ids.ts';

// Editing writes a new version as the person (source human) with `expectedVersion`: if someone (or
// an assistant) saved a version meanwhile, nothing is overwritten. The page then shows theirs and
// keeps yours in the form, with the differences, so the person's text is never lost; saving again
// (now expecting their version) puts yours on top. Preview renders the Markdown on the server, so it
// works without JavaScript.

const ID = `(${idPattern('bnd')})`;

const updateInput = z.strictObject({
  name: name(),
  summary: summary(),
  content: content(),
  keyPoints: keyPoints(),
  expectedVersion: z.number().int().min(1),
});

interface Draft {
  name: string;
  summary: string;
  keyPoints: string;
  content: string;
  expectedVersion: number;
}

function editForm(ctx: WebContext, id: string, d: Draft, extra: { preview?: boolean; conflict?: Html }): Html {
  return html`<p class="meta"><a href="/b/${id}">← back to the binding</a></p><h1>Edit “${d.name}”</h1>
${extra.conflict ?? ''}
<form method="post" action="/b/${id}/edit" id="edit-form">${csrfField(ctx.user)}
<input type="hidden" name="expectedVersion" value="${d.expectedVersion}">
<label for="name">Name</label><input type="text" id="name" name="name" required maxlength="200" value="${d.name}">
<label for="summary">Summary (at most 600 characters)</label><textarea id="summary" name="summary" rows="3" required maxlength="600">${d.summary}</textarea>
<label for="keyPoints">Key points (one per line, at most 8)</label><textarea id="keyPoints" name="keyPoints" rows="3">${d.keyPoints}</textarea>
<label for="content">Content (Markdown)</label><textarea id="content" name="content" rows="18" required>${d.content}</textarea>
<p class="meta">Saved as a new version written by you (a person), on top of version ${d.expectedVersion}.</p>
<p><button type="submit" name="action" value="preview">Preview</button> <button type="submit" name="action" value="save" class="primary">Save version</button></p></form>
${extra.preview ? html`<section aria-labelledby="preview-h"><h2 id="preview-h">Preview</h2><div class="content">${trusted(renderMarkdown(d.content))}</div></section>` : ''}`;
}

async function editPage(ctx: WebContext, id: string): Promise<Response> {
  const row = await readBinding(ctx.core, ctx.user.caller, id, { withContent: true });
  if (row.spaceOwnerId !== ctx.user.caller.id)
    throw new BinderyError('FORBIDDEN', `@${row.spaceSlug} is not yours; you may read this binding but not change it`);
  const draft: Draft = {
    name: row.name,
    summary: row.summary,
    keyPoints: row.keyPoints.join('\n'),
    content: await contentOf(ctx.core, row),
    expectedVersion: row.currentVersion,
  };
  return page(layout(`Edit ${row.name}`, ctx.user, editForm(ctx, id, draft, {})));
}

async function save(ctx: WebContext, id: string): Promise<Response> {
  const f = ctx.form;
  const draft: Draft = {
    name: f.get('name') ?? '',
    summary: f.get('summary') ?? '',
    keyPoints: f.get('keyPoints') ?? '',
    content: (f.get('content') ?? '').replace(/\r\n/g, '\n'),
    expectedVersion: Number(f.get('expectedVersion')) || 0,
  };
  if (f.get('action') === 'preview') {
    await readBinding(ctx.core, ctx.user.caller, id);
    return page(layout(`Edit ${draft.name}`, ctx.user, editForm(ctx, id, draft, { preview: true })));
  }
  try {
    const input = parseInput(updateInput, { ...draft, keyPoints: linesOf(draft.keyPoints) });
    await ctx.deps.tokens.load();
    const { row } = await updateBinding(ctx.core, ctx.user.caller, id, input, HUMAN);
    return redirect(`/b/${row.bindingId}`);
  } catch (err) {
    if (!(err instanceof BinderyError) || err.code === 'NOT_FOUND' || err.code === 'FORBIDDEN') throw err;
    if (err.code !== 'CONFLICT') {
      return page(
        layout(`Edit ${draft.name}`, ctx.user, editForm(ctx, id, draft, {}), { error: err.message }),
        err.code === 'TOO_LARGE' ? 413 : 400,
      );
    }
    // Someone saved first: show theirs, keep yours in the form (now on top of theirs).
    const theirs = await readBinding(ctx.core, ctx.user.caller, id, { withContent: true });
    const theirContent = await contentOf(ctx.core, theirs);
    const views = await diffViews([[theirContent, draft.content]]);
    // Turned away by the diff gate: the conflict page still keeps both texts, only the diff is left out.
    const changes = views ? views[0]! : html`<p class="note">Bindery is busy; the line-by-line differences are left out this time.</p>`;
    const conflict = html`<div class="error" role="alert"><strong>Someone saved version ${theirs.currentVersion} while you were editing.</strong>
Nothing was overwritten. Your text is still in the form below. Compare, merge what you want, and save again to put yours on top of version ${theirs.currentVersion}.</div>
<div class="sides"><section aria-labelledby="theirs-h"><h2 id="theirs-h">Theirs: version ${theirs.currentVersion}</h2>
<p class="meta">${provenance(theirs.source, theirs.model)} · ${when(theirs.createdAt)}</p><p><strong>${theirs.name}</strong></p><p>${theirs.summary}</p>
<pre class="src" id="theirs">${theirContent}</pre></section>
<section aria-labelledby="yours-h"><h2 id="yours-h">Yours (not saved)</h2><p class="meta">${provenance('human', null)}</p><p><strong>${draft.name}</strong></p><p>${draft.summary}</p>
<pre class="src" id="yours">${draft.content}</pre></section></div>
<h2>From theirs to yours</h2>${changes}`;
    return page(
      layout(`Conflict: ${draft.name}`, ctx.user, editForm(ctx, id, { ...draft, expectedVersion: theirs.currentVersion }, { conflict })),
      409,
    );
  }
}

export const editRoutes: WebRoute[] = [
  { method: 'GET', path: new RegExp(`^/b/${ID}/edit$`), handle: (ctx, m) => editPage(ctx, m[1]!) },
  { method: 'POST', path: new RegExp(`^/b/${ID}/edit$`), handle: (ctx, m) => save(ctx, m[1]!) },
];
