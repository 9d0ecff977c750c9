import { z } from 'zod';
import type { BindingVersionRow } from '../../../db/store/bindings.ts';
import { tierCost } from '../../budget/tier.ts';
import { parseInput } from '../../http/validate.ts';
import { createBinding, resolveSpace } from '../../services/bindings.ts';
import { freshCounts } from '../../services/counts.ts';
import { listBindings, searchBindings } from '../../services/find.ts';
import { matchesFor, type MatchView } from '../../search/match.ts';
import { content, keyPoints, name, summary } from '../../tools/schema.ts';
import { html, num, when, type Html } from '../html.ts';
import { csrfField, layout, page, provenance, redirect, tierCosts } from '../layout.ts';
import type { WebContext, WebRoute } from '../route.ts';
import { signInPage } from './auth.ts';
import { HUMAN } from '../../context.ts';
import { spaceOptions, writableSpaces } from './common.ts';

// `/`: the bindings a person can read, newest first, or search results (the search_bindings service:
// BM25 over the same index, with each hit's best section and excerpt), filtered by space and by who
// wrote the current version (a person or an assistant).

const PAGE = 25;
/** With a provenance filter, it is applied to this many of the newest (or best-matching) bindings. */
const FILTER_WINDOW = 200;

/** A binding's line in a list: name, space, provenance, exact tier costs, and a search hit's excerpt. */
export function bindingItem(row: BindingVersionRow, match?: MatchView): Html {
  return html`<li><a href="/b/${row.bindingId}"><strong>${row.name}</strong></a> <span class="meta">@${row.spaceSlug} · v${row.number} · ${when(row.updatedAt)}</span> ${provenance(row.source, row.model)}
<div class="meta">${row.summary}</div>
${match ? html`<div class="excerpt"><span class="meta">§${match.section}${match.heading ? html` “${match.heading}”` : ''} · ${num(match.sectionTokens)} tokens</span><br>${match.excerpt}</div>` : ''}
<div>${tierCosts({ '1': tierCost(row, '1'), '1.5': tierCost(row, '1.5'), '2': tierCost(row, '2') })}</div></li>`;
}

async function home(ctx: WebContext): Promise<Response> {
  if (!ctx.user) return signInPage();
  const q = (ctx.url.searchParams.get('q') ?? '').trim().slice(0, 500);
  const spaceRef = ctx.url.searchParams.get('space') ?? '';
  const source = ctx.url.searchParams.get('source');
  const filter = source === 'human' || source === 'llm' ? source : '';
  const offset = Math.max(0, Math.min(10_000, Number(ctx.url.searchParams.get('offset')) || 0));
  const space = spaceRef ? await resolveSpace(ctx.core, ctx.user.caller, spaceRef) : undefined;
  const scope = { spaceId: space?.id, ...(filter ? { offset: 0, limit: FILTER_WINDOW } : { offset, limit: PAGE + 1 }) };
  let rows: BindingVersionRow[] = (
    await (q ? searchBindings(ctx.core, ctx.user.caller, q, 'q', scope) : listBindings(ctx.core, ctx.user.caller, scope))
  ).rows;
  let matches: (MatchView | undefined)[] = [];
  if (filter) rows = rows.filter((r) => r.source === filter).slice(offset, offset + PAGE + 1);
  const more = rows.length > PAGE;
  rows = rows.slice(0, PAGE);
  await freshCounts(ctx.core, rows);
  if (q) matches = (await matchesFor(rows, q, ctx.tools())).map((m) => m?.view);
  const spaces = await spaceOptions(ctx);
  const link = (o: number) =>
    `/?${new URLSearchParams({ ...(q ? { q } : {}), ...(spaceRef ? { space: spaceRef } : {}), ...(filter ? { source: filter } : {}), offset: String(o) })}`;
  const body = html`<h1>${q ? html`Search “${q}”` : 'Bindings'}</h1>
<form method="get" action="/" class="filters" role="search">
<div><label for="q">Search</label><input type="search" id="q" name="q" value="${q}" placeholder="words to find"></div>
<div><label for="space">Space</label><select id="space" name="space"><option value="">All my spaces</option>${spaces.map((s) => html`<option value="${s.slug}" ${s.slug === spaceRef.replace(/^@/, '') ? 'selected' : ''}>@${s.slug}</option>`)}</select></div>
<div><label for="source">Written by</label><select id="source" name="source"><option value="">Anyone</option><option value="human" ${filter === 'human' ? 'selected' : ''}>A person</option><option value="llm" ${filter === 'llm' ? 'selected' : ''}>An assistant</option></select></div>
<button type="submit">${q ? 'Search' : 'Filter'}</button></form>
${filter ? html`<p class="meta">Filtered among the ${FILTER_WINDOW} ${q ? 'best matches' : 'most recent'}.</p>` : ''}
<p class="meta">Token costs are exact: T1 is the summary card, T1.5 adds the preview and outline, T2 the whole content.</p>
${rows.length ? html`<ul class="list" id="results">${rows.map((r, i) => bindingItem(r, matches[i]))}</ul>` : html`<p>${q ? 'No match.' : html`No bindings yet. <a href="/new">Write one</a>.`}</p>`}
<p>${offset > 0 ? html`<a href="${link(Math.max(0, offset - PAGE))}">← Newer</a> ` : ''}${more ? html`<a href="${link(offset + PAGE)}">More →</a>` : ''}</p>`;
  return page(layout(q ? `Search ${q}` : 'Bindings', ctx.user, body));
}

const createInput = z.strictObject({
  space: z.string().min(1),
  name: name(),
  summary: summary(),
  content: content(),
  keyPoints: keyPoints().optional(),
});

/** One key point per line, blank lines dropped. */
export function linesOf(text: string | null): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

async function newForm(ctx: WebContext, error?: string, status = 200): Promise<Response> {
  const f = ctx.form;
  const spaces = await writableSpaces(ctx);
  const body = html`<h1>New binding</h1>
<form method="post" action="/new">${csrfField(ctx.user)}
<label for="space">Space</label><select id="space" name="space">${spaces.map((s) => html`<option value="${s.slug}" ${f.get('space') === s.slug ? 'selected' : ''}>@${s.slug}</option>`)}</select>
<label for="name">Name</label><input type="text" id="name" name="name" required maxlength="200" value="${f.get('name') ?? ''}">
<label for="summary">Summary (at most 600 characters; what an assistant reads first)</label><textarea id="summary" name="summary" rows="3" required maxlength="600">${f.get('summary') ?? ''}</textarea>
<label for="keyPoints">Key points (one per line, at most 8)</label><textarea id="keyPoints" name="keyPoints" rows="3">${f.get('keyPoints') ?? ''}</textarea>
<label for="content">Content (Markdown)</label><textarea id="content" name="content" rows="16" required>${f.get('content') ?? ''}</textarea>
<p><button type="submit" class="primary">Create</button></p></form>`;
  return page(layout('New binding', ctx.user, body, { error }), status);
}

export const listRoutes: WebRoute[] = [
  { method: 'GET', path: /^\/$/, public: true, handle: (ctx) => home(ctx) },
  { method: 'GET', path: /^\/new$/, handle: (ctx) => newForm(ctx) },
  {
    method: 'POST',
    path: /^\/new$/,
    async handle(ctx) {
      const f = ctx.form;
      try {
        const input = parseInput(createInput, {
          space: f.get('space') ?? '',
          name: f.get('name') ?? '',
          summary: f.get('summary') ?? '',
          content: f.get('content') ?? '',
          keyPoints: linesOf(f.get('keyPoints')),
        });
        await ctx.deps.tokens.load();
        const row = await createBinding(ctx.core, ctx.user.caller, input, HUMAN);
        return redirect(`/b/${row.bindingId}`);
      } catch (err) {
        if (err instanceof Error && 'code' in err && (err.code === 'INVALID_INPUT' || err.code === 'TOO_LARGE' || err.code === 'FORBIDDEN'))
          return newForm(ctx, err.message, 400);
        throw err;
      }
    },
  },
];
