import type { BindingVersionRow } from '../../../db/store/bindings.ts';
import { html, htmlDocument, joinHtml, trusted, type Html } from '../html.ts';

// The public faces' pages (core/http/pages.ts and link-index.ts load them): a binding's public page,
// the index a space or set link opens, and their one 404.

/** The one 404 of public pages: the same bytes whether the binding is missing, deleted or private. */
export function publicNotFoundView(): Html {
  return htmlDocument(
    'Not found · Bindery',
    'public',
    html`<h1>Not found</h1><p>There is no binding at this address, or you may not read it.</p>`,
  );
}

/** A binding's public page: the version's card and its content, rendered (sanitized) once per version. */
export interface PublicPageData {
  row: BindingVersionRow;
  /** The content as HTML, from the page cache. */
  body: string;
  /** The Markdown address, with the link secret the page was opened with. */
  textUrl: string;
}

/** A binding's public page. */
export function publicPageView({ row, body, textUrl }: PublicPageData): Html {
  const provenance = row.model ? `${row.source} · ${row.model}` : row.source;
  const points = row.keyPoints.length ? html`<ul class="points">${row.keyPoints.map((k) => html`<li>${k}</li>`)}</ul>` : '';
  const page = html`
<header><p class="meta">@${row.spaceSlug} · <a href="${textUrl}">Markdown</a></p>
<h1>${row.name}</h1>
<p class="meta">Version ${row.number} · ${new Date(row.createdAt).toISOString().slice(0, 10)} · ${provenance} · ${row.contentTokenCount} tokens</p>
<p class="summary">${row.summary}</p>${points}</header>
<hr><main>
${trusted(body)}</main>`;
  return htmlDocument(`${row.name} · @${row.spaceSlug}`, 'public', page);
}

/** What a space or set link opens: its bindings, each linked with the same secret. */
export interface LinkIndexData {
  title: string;
  total: number;
  items: { name: string; summary: string; publicUrl: string; textUrl: string }[];
  /** How many more the link opens than are listed. */
  more: number;
  /** The index's own Markdown address. */
  markdownUrl: string;
}

/** The link index page. */
export function linkIndexView(d: LinkIndexData): Html {
  const list = joinHtml(
    d.items.map((i) => html`<li><a href="${i.publicUrl}">${i.name}</a><br><span class="meta">${i.summary}</span></li>`),
    '\n',
  );
  const page = html`
<header><p class="meta">Shared by link · ${d.total} binding${d.total === 1 ? '' : 's'} · <a href="${d.markdownUrl}">Markdown</a></p>
<h1>${d.title}</h1></header>
<hr><main><ul>
${list}
</ul>${d.more ? html`<p class="meta">… and ${d.more} more.</p>` : ''}</main>`;
  return htmlDocument(`${d.title} · Bindery`, 'public link-index', page);
}

/** The same index as Markdown (`?format=md`). */
export function linkIndexMarkdown(d: LinkIndexData): string {
  const lines = d.items.map((i) => `- [${i.name.replace(/[[\]\\]/g, '\\$&')}](${i.textUrl}): ${i.summary}`);
  if (d.more) lines.push(`- … and ${d.more} more`);
  return `# ${d.title}\n\n${lines.join('\n')}\n`;
}
