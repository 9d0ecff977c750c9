import { bindingUrls } from '../budget/tier.ts';
import type { BinderyDeps, Caller } from '../context.ts';
import { ANONYMOUS } from './auth.ts';
import { html, htmlDocument, joinHtml } from '../web/html.ts';
import { htmlResponse, securityHeaders } from '../web/page-headers.ts';
import { linkScope, pageNotFound } from './pages.ts';
import { linkIndex } from '../services/public-pages.ts';
import { squashSpace } from '../text.ts';

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
  const links = await linkScope(secret);
  const index = typeof links === 'string' ? undefined : await linkIndex(deps, caller ?? ANONYMOUS, space, links);
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
