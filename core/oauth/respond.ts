import type { Html } from '../web/html.ts';
import { htmlResponse } from '../web/page-headers.ts';
import { authErrorView } from '../web/views/oauth.ts';

// The OAuth pages' responses (their views are core/web/views/oauth.ts), sent with the OAuth page
// headers (core/web/page-headers.ts): no script at all, and no framing (a consent page inside someone
// else's frame is clickjacking).

/** An OAuth page as a response. */
export function oauthPage(page: Html, status = 200, headers: Record<string, string> = {}): Response {
  return htmlResponse('oauth', page.value, status, { 'Cache-Control': 'no-store', ...headers });
}

/** An error page (used when redirecting back would go to a URI the client never registered). */
export function errorPage(status: number, message: string): Response {
  return oauthPage(authErrorView(message), status);
}
