import type { BindingVersionRow } from '../../db/store/bindings.ts';
import { readableSet, setItemRows } from '../../db/store/sets.ts';
import { liveLinkShare } from '../../db/store/shares.ts';
import { findSpace } from '../../db/store/users.ts';
import { bindingUrls } from '../budget/tier.ts';
import type { BinderyDeps, Caller } from '../context.ts';
import { ANONYMOUS } from './auth.ts';
import { html, htmlDocument, joinHtml } from '../web/html.ts';
import { htmlResponse, securityHeaders } from '../web/page-headers.ts';
import { linkScope, pageNotFound } from './pages.ts';
import { freshCounts } from '../services/counts.ts';
import { listBindings } from '../services/find.ts';
import { squashSpace } from '../text.ts';

/** At most this many bindings are listed; the page says how many more the link opens. */
const MAX_LISTED = 200;

interface LinkIndex {
  title: string;
  rows: BindingVersionRow[];
  total: number;
}

/**
 * What the public link with this secret lists at `/@space`: the live bindings of a linked space, or
 * the readable items of a linked set kept in that space. Undefined for anything else, so the caller
 * answers the one 404.
 */
async function linkIndex(deps: BinderyDeps, reader: Caller, space: string, secret: string | null): Promise<LinkIndex | undefined> {
  const links = await linkScope(secret);
  if (typeof links === 'string') return undefined;
  const share = await liveLinkShare(deps.db, links.linkHash);
  if (share?.targetType === 'space') {
    const row = await findSpace(deps.db, share.targetId);
    if (row?.slug !== space) return undefined;
    const { rows, total } = await listBindings(deps, reader, { spaceId: row.id, links, offset: 0, limit: MAX_LISTED });
    return { title: `${row.name} (@${row.slug})`, rows: await freshCounts(deps, rows), total };
  }
  if (share?.targetType === 'set') {
    const set = await readableSet(deps.db, reader.id, share.targetId);
    if (set?.spaceSlug !== space) return undefined;
    const items = (await setItemRows(deps.db, reader.id, set.id, links)).filter((i) => i.readable && !i.deleted);
    return {
      title: set.name,
      rows: await freshCounts(
        deps,
        items.slice(0, MAX_LISTED).map((i) => i.row),
      ),
      total: items.length,
    };
  }
  return undefined;
}

/**
 * GET /@space?share=…: the page a space or set link opens, listing what it opens, each binding linked
 * with the same secret. Without the secret of a live link to that space or to a set in it: the one 404.
 */
export async function serveLinkIndex(
  deps: BinderyDeps,
  caller: Caller | undefined,
  space: string,
  format: 'html' | 'md',
  secret: string | null,
): Promise<Response> {
  const index = await linkIndex(deps, caller ?? ANONYMOUS, space, secret);
  if (!index) return pageNotFound(format);
  const base = deps.config.publicUrl;
  const share = `share=${secret}`;
  const items = index.rows.map((r) => ({ row: r, ...bindingUrls(base, r.spaceSlug, r.bindingSlug) }));
  const more = index.total > index.rows.length ? index.total - index.rows.length : 0;
  const headers = {
    'Cache-Control': 'private, no-store',
    Vary: 'Authorization',
    ...securityHeaders('public'),
  };
  if (format === 'md') {
    const lines = items.map((i) => `- [${i.row.name.replace(/[[\]\\]/g, '\\$&')}](${i.textUrl}&${share}): ${squashSpace(i.row.summary)}`);
    if (more) lines.push(`- … and ${more} more`);
    return new Response(`# ${index.title}\n\n${lines.join('\n')}\n`, {
      headers: { ...headers, 'Content-Type': 'text/markdown; charset=utf-8' },
    });
  }
  const list = joinHtml(
    items.map(
      (i) =>
        html`<li><a href="${`${i.publicUrl}?${share}`}">${i.row.name}</a><br><span class="meta">${squashSpace(i.row.summary)}</span></li>`,
    ),
    '\n',
  );
  const page = html`
<header><p class="meta">Shared by link · ${index.total} binding${index.total === 1 ? '' : 's'} · <a href="${`${base}/@${space}?format=md&${share}`}">Markdown</a></p>
<h1>${index.title}</h1></header>
<hr><main><ul>
${list}
</ul>${more ? html`<p class="meta">… and ${more} more.</p>` : ''}</main>`;
  return htmlResponse('public', htmlDocument(`${index.title} · Bindery`, 'public link-index', page).value, 200, headers);
}
