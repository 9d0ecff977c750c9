import type { BindingVersionRow } from '../../../db/store/bindings.ts';
import { html, when, type Html } from '../html.ts';
import type { LineDiff } from '../line-diff.ts';
import { diffView } from './diff.ts';
import { csrfField, layout, provenance, type Viewer } from './layout.ts';

/** The text in the edit form. */
export interface Draft {
  name: string;
  summary: string;
  keyPoints: string;
  content: string;
  expectedVersion: number;
}

/** Someone saved first: their version, and the line diff from theirs to the draft (undefined when the diff gate was full). */
export interface Conflict {
  theirs: BindingVersionRow;
  theirContent: string;
  changes: LineDiff | undefined;
}

/** The edit page: the form with a draft, and either a preview, an error, or a conflict to resolve. */
export interface EditData {
  user: Viewer;
  id: string;
  draft: Draft;
  preview?: Html;
  error?: string;
  conflict?: Conflict;
}

function conflictView(c: Conflict, draft: Draft): Html {
  const { theirs } = c;
  // Turned away by the diff gate: the conflict page still keeps both texts, only the diff is left out.
  const changes = c.changes
    ? diffView(c.changes)
    : html`<p class="note">Bindery is busy; the line-by-line differences are left out this time.</p>`;
  return html`<div class="error" role="alert"><strong>Someone saved version ${theirs.currentVersion} while you were editing.</strong>
Nothing was overwritten. Your text is still in the form below. Compare, merge what you want, and save again to put yours on top of version ${theirs.currentVersion}.</div>
<div class="sides"><section aria-labelledby="theirs-h"><h2 id="theirs-h">Theirs: version ${theirs.currentVersion}</h2>
<p class="meta">${provenance(theirs.source, theirs.model)} · ${when(theirs.createdAt)}</p><p><strong>${theirs.name}</strong></p><p>${theirs.summary}</p>
<pre class="src" id="theirs">${c.theirContent}</pre></section>
<section aria-labelledby="yours-h"><h2 id="yours-h">Yours (not saved)</h2><p class="meta">${provenance('human', null)}</p><p><strong>${draft.name}</strong></p><p>${draft.summary}</p>
<pre class="src" id="yours">${draft.content}</pre></section></div>
<h2>From theirs to yours</h2>${changes}`;
}

/** The edit page. */
export function editView(e: EditData): Html {
  const { id, draft: d } = e;
  const form = html`<p class="meta"><a href="/b/${id}">← back to the binding</a></p><h1>Edit “${d.name}”</h1>
${e.conflict ? conflictView(e.conflict, d) : ''}
<form method="post" action="/b/${id}/edit" id="edit-form">${csrfField(e.user)}
<input type="hidden" name="expectedVersion" value="${d.expectedVersion}">
<label for="name">Name</label><input type="text" id="name" name="name" required maxlength="200" value="${d.name}">
<label for="summary">Summary (at most 600 characters)</label><textarea id="summary" name="summary" rows="3" required maxlength="600">${d.summary}</textarea>
<label for="keyPoints">Key points (one per line, at most 8)</label><textarea id="keyPoints" name="keyPoints" rows="3">${d.keyPoints}</textarea>
<label for="content">Content (Markdown)</label><textarea id="content" name="content" rows="18" required>${d.content}</textarea>
<p class="meta">Saved as a new version written by you (a person), on top of version ${d.expectedVersion}.</p>
<p><button type="submit" name="action" value="preview">Preview</button> <button type="submit" name="action" value="save" class="primary">Save version</button></p></form>
${e.preview ? html`<section aria-labelledby="preview-h"><h2 id="preview-h">Preview</h2><div class="content">${e.preview}</div></section>` : ''}`;
  return layout(e.conflict ? `Conflict: ${d.name}` : `Edit ${d.name}`, e.user, form, { error: e.error });
}
