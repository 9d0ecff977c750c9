import { bindingUrls } from '../budget/tier.ts';
import type { BinderyDeps, Caller } from '../context.ts';
import { linkIndex } from '../services/public-pages.ts';
import { squashSpace } from '../text.ts';
import { definePage, renderPage, show } from '../web/page.ts';
import { htmlResponse, securityHeaders } from '../web/page-headers.ts';
import { linkIndexMarkdown, linkIndexView } from '../web/views/public.ts';
import { ANONYMOUS } from './auth.ts';
import { linkScope, pageNotFound } from './pages.ts';

const HEADERS = { 'Cache-Control': 'private, no-store', Vary: 'Authorization' };

/**
 * GET /@space?share=…: the page a space or set link opens, listing what it opens, each binding linked
 * with the same secret. Without the secret of a live link to that space or to a set in it: the one 404.
 * With `?format=md` the load answers the same data as Markdown (linkIndexMarkdown, a view of it too).
 */
export const linkIndexPage = definePage({
  async load(deps: BinderyDeps, caller: Caller | undefined, space: string, format: 'html' | 'md', secret: string | null) {
    const links = await linkScope(secret);
    const index = typeof links === 'string' ? undefined : await linkIndex(deps, caller ?? ANONYMOUS, space, links);
    if (!index) return pageNotFound(format);
    const base = deps.config.publicUrl;
    const share = `share=${secret}`;
    const data = {
      title: index.title,
      total: index.total,
      items: index.rows.map((r) => {
        const urls = bindingUrls(base, r.spaceSlug, r.bindingSlug);
        return {
          name: r.name,
          summary: squashSpace(r.summary),
          publicUrl: `${urls.publicUrl}?${share}`,
          textUrl: `${urls.textUrl}&${share}`,
        };
      }),
      more: index.total > index.rows.length ? index.total - index.rows.length : 0,
      markdownUrl: `${base}/@${space}?format=md&${share}`,
    };
    const headers = { ...HEADERS, ...securityHeaders('public') };
    if (format === 'md')
      return new Response(linkIndexMarkdown(data), { headers: { ...headers, 'Content-Type': 'text/markdown; charset=utf-8' } });
    return show(data, 200, headers);
  },
  view: linkIndexView,
});

/** Serves a link index (linkIndexPage's load, then its view). */
export function serveLinkIndex(...args: Parameters<typeof linkIndexPage.load>): Promise<Response> {
  return renderPage(linkIndexPage, args, (body, status, headers) => htmlResponse('public', body.value, status, headers));
}
