import type { BindingVersionRow } from '../../../db/store/bindings.ts';
import type { MatchView } from '../../search/match.ts';
import { html, num, when, type Html } from '../html.ts';
import type { SpaceItem } from '../pages/common.ts';
import { csrfField, layout, provenance, tierCosts, type TierCosts, type Viewer } from './layout.ts';

/** A binding in a list, with its exact tier costs and, from a search, its best section's excerpt. */
export interface ListedBinding {
  row: BindingVersionRow;
  costs: TierCosts;
  match?: MatchView;
}

/** A binding's line in a list: name, space, provenance, exact tier costs, and a search hit's excerpt. */
export function bindingItem({ row, costs, match }: ListedBinding): Html {
  return html`<li><a href="/b/${row.bindingId}"><strong>${row.name}</strong></a> <span class="meta">@${row.spaceSlug} · v${row.number} · ${when(row.updatedAt)}</span> ${provenance(row.source, row.model)}
<div class="meta">${row.summary}</div>
${match ? html`<div class="excerpt"><span class="meta">§${match.section}${match.heading ? html` “${match.heading}”` : ''} · ${num(match.sectionTokens)} tokens</span><br>${match.excerpt}</div>` : ''}
<div>${tierCosts(costs)}</div></li>`;
}

/** `/`: the bindings a person can read (or search hits), filtered, one page of them. */
export interface HomeData {
  user: Viewer;
  q: string;
  spaceRef: string;
  filter: '' | 'human' | 'llm';
  /** With a provenance filter, it was applied to this many of the newest (or best-matching) bindings. */
  filterWindow: number;
  items: ListedBinding[];
  spaces: SpaceItem[];
  /** The offsets of the previous and next pages, when there are such pages. */
  newer?: number;
  older?: number;
}

/** `/`: the list or search results with their filters and paging. */
export function homeView(d: HomeData): Html {
  const { q, spaceRef, filter } = d;
  const link = (o: number) =>
    `/?${new URLSearchParams({ ...(q ? { q } : {}), ...(spaceRef ? { space: spaceRef } : {}), ...(filter ? { source: filter } : {}), offset: String(o) })}`;
  const body = html`<h1>${q ? html`Search “${q}”` : 'Bindings'}</h1>
<form method="get" action="/" class="filters" role="search">
<div><label for="q">Search</label><input type="search" id="q" name="q" value="${q}" placeholder="words to find"></div>
<div><label for="space">Space</label><select id="space" name="space"><option value="">All my spaces</option>${d.spaces.map((s) => html`<option value="${s.slug}" ${s.slug === spaceRef.replace(/^@/, '') ? 'selected' : ''}>@${s.slug}</option>`)}</select></div>
<div><label for="source">Written by</label><select id="source" name="source"><option value="">Anyone</option><option value="human" ${filter === 'human' ? 'selected' : ''}>A person</option><option value="llm" ${filter === 'llm' ? 'selected' : ''}>An assistant</option></select></div>
<button type="submit">${q ? 'Search' : 'Filter'}</button></form>
${filter ? html`<p class="meta">Filtered among the ${d.filterWindow} ${q ? 'best matches' : 'most recent'}.</p>` : ''}
<p class="meta">Token costs are exact: T1 is the summary card, T1.5 adds the preview and outline, T2 the whole content.</p>
${d.items.length ? html`<ul class="list" id="results">${d.items.map(bindingItem)}</ul>` : html`<p>${q ? 'No match.' : html`No bindings yet. <a href="/new">Write one</a>.`}</p>`}
<p>${d.newer !== undefined ? html`<a href="${link(d.newer)}">← Newer</a> ` : ''}${d.older !== undefined ? html`<a href="${link(d.older)}">More →</a>` : ''}</p>`;
  return layout(q ? `Search ${q}` : 'Bindings', d.user, body);
}

/** The new-binding form, kept filled after an error. */
export interface NewData {
  user: Viewer;
  spaces: SpaceItem[];
  form: { space: string | null; name: string; summary: string; keyPoints: string; content: string };
  error?: string;
}

/** The new-binding form. */
export function newView(d: NewData): Html {
  const f = d.form;
  const body = html`<h1>New binding</h1>
<form method="post" action="/new">${csrfField(d.user)}
<label for="space">Space</label><select id="space" name="space">${d.spaces.map((s) => html`<option value="${s.slug}" ${f.space === s.slug ? 'selected' : ''}>@${s.slug}</option>`)}</select>
<label for="name">Name</label><input type="text" id="name" name="name" required maxlength="200" value="${f.name}">
<label for="summary">Summary (at most 600 characters; what an assistant reads first)</label><textarea id="summary" name="summary" rows="3" required maxlength="600">${f.summary}</textarea>
<label for="keyPoints">Key points (one per line, at most 8)</label><textarea id="keyPoints" name="keyPoints" rows="3">${f.keyPoints}</textarea>
<label for="content">Content (Markdown)</label><textarea id="content" name="content" rows="16" required>${f.content}</textarea>
<p><button type="submit" class="primary">Create</button></p></form>`;
  return layout('New binding', d.user, body, { error: d.error });
}
