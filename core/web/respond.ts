import type { Html } from './html.ts';
import { htmlResponse } from './page-headers.ts';
import type { WebUser } from './session.ts';
import { notFoundView } from './views/errors.ts';

// The web app's responses; the frame and fragments of its pages are views (views/layout.ts).

/**
 * An HTML response with the app's security headers (page-headers.ts): the pages load only our own
 * stylesheet and script, forms post only to us, no framing. Rendered content is inert markup already
 * (markdown.ts), the CSP is the second wall.
 */
export function page(body: Html, status = 200, extra: Record<string, string> = {}): Response {
  return htmlResponse('app', body.value, status, { 'Cache-Control': 'private, no-store', ...extra });
}

/** A 303 See Other after a form post (so reload does not post again). */
export function redirect(to: string, extra: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { Location: to, 'Cache-Control': 'no-store', ...extra } });
}

/** The one "not found" page: the same bytes whether the thing is missing or not yours to read. */
export function notFound(user: WebUser | undefined): Response {
  return page(notFoundView(user), 404);
}
