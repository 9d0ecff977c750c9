import { escapeHtml } from '../http/markdown.ts';

// The few server-rendered OAuth pages (consent, sign-in needed, errors, grants): no script at all, a
// CSP that allows none, and no framing (a consent page inside someone else's frame is clickjacking).
// `form-action` is left open on purpose: Chromium applies it to the redirect that follows the POST,
// and that redirect goes to the client's own registered URI. Referrer-Policy is `same-origin`, not
// `no-referrer`: under `no-referrer` browsers send `Origin: null` with the consent POST, which csrfOk
// rightly refuses; `same-origin` still keeps the authorization URL from leaking to other sites.

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'";

export const esc = escapeHtml;

/** A whole HTML page with the security headers the OAuth pages need. */
export function htmlPage(title: string, body: string, status = 200, headers: Record<string, string> = {}): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${esc(title)} · Bindery</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}
.box{border:1px solid #ddd;border-radius:8px;padding:1.25rem 1.5rem}.meta{color:#666;font-size:.9rem}
button{font:inherit;padding:.5rem 1.25rem;margin-right:.5rem;border-radius:6px;border:1px solid #888;background:#fff;cursor:pointer}
button.primary{background:#1f5fbf;color:#fff;border-color:#1f5fbf}code{background:#f4f4f4;padding:0 .25rem}</style>
</head><body><main class="box">${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': CSP,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'Cache-Control': 'no-store',
      ...headers,
    },
  });
}

/** A hidden form field. */
export const hidden = (name: string, value: string): string => `<input type="hidden" name="${esc(name)}" value="${esc(value)}">`;

/** An error page (used when redirecting back would go to a URI the client never registered). */
export function errorPage(status: number, message: string): Response {
  return htmlPage(
    'Authorization failed',
    `<h1>This request cannot be authorized</h1><p>${esc(message)}</p><p class="meta">Nothing was shared. Return to the app that sent you here and try connecting again.</p>`,
    status,
  );
}
