import { html, htmlDocument, type Html } from '../web/html.ts';
import { htmlResponse } from '../web/page-headers.ts';

// The few server-rendered OAuth pages (consent, sign-in needed, errors, grants), written with the web
// app's template (every value escaped) and sent with the OAuth page headers (core/web/page-headers.ts):
// no script at all, and no framing (a consent page inside someone else's frame is clickjacking).

/** A whole OAuth page: the shared head and stylesheet, the body in a box. */
export function htmlPage(title: string, body: Html, status = 200, headers: Record<string, string> = {}): Response {
  const page = htmlDocument(`${title} · Bindery`, 'oauth', html`<main class="box">${body}</main>`);
  return htmlResponse('oauth', page.value, status, { 'Cache-Control': 'no-store', ...headers });
}

/** A hidden form field. */
export const hidden = (name: string, value: string): Html => html`<input type="hidden" name="${name}" value="${value}">`;

/** An error page (used when redirecting back would go to a URI the client never registered). */
export function errorPage(status: number, message: string): Response {
  return htmlPage(
    'Authorization failed',
    html`<h1>This request cannot be authorized</h1><p>${message}</p><p class="meta">Nothing was shared. Return to the app that sent you here and try connecting again.</p>`,
    status,
  );
}
