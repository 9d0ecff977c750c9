import type { LinkScope } from '../../db/store/access.ts';
import { bindingUrls } from '../budget/tier.ts';
import type { BinderyDeps, Caller } from '../context.ts';
import { isLinkSecret, sha256Hex } from '../ids.ts';
import { ANONYMOUS } from './auth.ts';
import { definePage, renderPage, show } from '../web/page.ts';
import { htmlResponse, securityHeaders } from '../web/page-headers.ts';
import { publicNotFoundView, publicPageView } from '../web/views/public.ts';
import type { PageCache } from './page-cache.ts';
import { freshCounts } from '../services/counts.ts';
import { isPublicSpace, pageContent, readablePage } from '../services/public-pages.ts';

const NOT_FOUND_HTML = publicNotFoundView().value;
const NOT_FOUND_MD = 'Not found: there is no binding at this address, or you may not read it.\n';

/** The one 404 for pages: the same bytes whether the binding is missing, deleted or private. */
export function pageNotFound(format: 'html' | 'md'): Response {
  const headers = { ...securityHeaders('public'), 'Cache-Control': 'no-store' };
  if (format === 'html') return htmlResponse('public', NOT_FOUND_HTML, 404, headers);
  return new Response(NOT_FOUND_MD, { status: 404, headers: { 'Content-Type': 'text/markdown; charset=utf-8', ...headers } });
}

/** `/@space/slug` → [space, slug], or undefined for any other path. */
export function parsePagePath(pathname: string): [string, string] | undefined {
  const m = /^\/@([a-z0-9-]{1,80})\/([a-z0-9-]{1,80})\/?$/.exec(pathname);
  return m ? [m[1]!, m[2]!] : undefined;
}

/** `/@space` → space, or undefined (the index page a space or set link opens). */
export function parseIndexPath(pathname: string): string | undefined {
  return /^\/@([a-z0-9-]{1,80})\/?$/.exec(pathname)?.[1];
}

/**
 * The public-link shares a page request may use: only the live link whose secret it carries in
 * `?share=`. The address itself (`/@space/slug`) is built from names anyone can guess.
 */
export async function linkScope(secret: string | null | undefined): Promise<LinkScope> {
  return secret && isLinkSecret(secret) ? { linkHash: await sha256Hex(secret) } : 'none';
}

/**
 * GET /@space/slug: the current version as HTML, or its Markdown with `?format=md`. Readable by its
 * owner and user-share holders (by key), by anyone for a public space, and through a public link only
 * with that link's secret (`secret`, from `?share=`); anything else is the one 404, reached through the
 * same query whether the binding is missing or hidden (their timing must not tell them apart).
 * The HTML of a version is rendered once and then served from `cache`. The Markdown is the stored
 * content itself, so the load answers it as it is; the HTML goes through the view.
 */
export const publicPage = definePage({
  async load(
    deps: BinderyDeps,
    caller: Caller | undefined,
    space: string,
    slug: string,
    format: 'html' | 'md',
    secret: string | null | undefined,
    cache: PageCache,
  ) {
    const links = await linkScope(secret);
    // One query, no row alike for missing and hidden; the content is read only once the row is known to
    // be readable (and for HTML only when the version's page is not cached).
    const row = await readablePage(deps, (caller ?? ANONYMOUS).id, space, slug, links);
    if (!row) return pageNotFound(format);
    // The page shows the content's token count: counts made under other settings are recounted.
    await freshCounts(deps, [row]);
    // Shared caches may keep only what a public space shows to everyone: a page readable through a
    // public link must stop being served the moment the link is revoked, and its address is a secret.
    const publicSpace = !caller && links === 'none' && (await isPublicSpace(deps, row.spaceId));
    const headers = {
      'Cache-Control': publicSpace ? 'public, max-age=60' : 'private, no-store',
      Vary: 'Authorization',
      ETag: `"${row.versionId}"`,
      // Referrer-Policy `no-referrer`: the address of a link-shared page is its key (page-headers.ts).
      ...securityHeaders('public'),
    };
    const content = () => pageContent(deps, row);
    if (format === 'md') return new Response(await content(), { headers: { ...headers, 'Content-Type': 'text/markdown; charset=utf-8' } });
    const body = await cache.html(row.versionId, content);
    // The Markdown link carries the secret the page was opened with, so it opens for the same reader.
    const { textUrl: plain } = bindingUrls(deps.config.publicUrl, row.spaceSlug, row.bindingSlug);
    const textUrl = links === 'none' ? plain : `${plain}&share=${secret!}`;
    return show({ row, body, textUrl }, 200, headers);
  },
  view: publicPageView,
});

/** Serves a public page (publicPage's load, then its view). */
export function servePage(...args: Parameters<typeof publicPage.load>): Promise<Response> {
  return renderPage(publicPage, args, (body, status, headers) => htmlResponse('public', body.value, status, headers));
}
