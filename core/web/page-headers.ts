// The security headers of every HTML page Bindery serves, in one place so the three kinds of page (the
// web app, the public binding and link-index pages, the OAuth pages) cannot drift apart. All of them:
// nothing loads from other origins, no framing (CSP frame-ancestors, and X-Frame-Options for browsers
// that predate it), no `<base>`, no MIME sniffing. Where they differ, it is for a reason:
//  - the web app runs its one script (drag to reorder) and posts its forms to itself;
//  - a public page runs no script and has no form; its content's images come from anywhere, and
//    markdown-it aligns table cells with `style` attributes, hence 'unsafe-inline' for styles. Its
//    Referrer-Policy is `no-referrer`: a link-shared page's address is its key, and images and links in
//    the content must not receive it;
//  - an OAuth page runs no script; `form-action` is left open on purpose: Chromium applies it to the
//    redirect that follows the consent POST, and that redirect goes to the client's own registered URI.
// Referrer-Policy is `same-origin`, not `no-referrer`, for the app and OAuth pages: under `no-referrer`
// browsers send `Origin: null` with a form POST, which the CSRF check rightly refuses.

/** Which kind of page a response is. */
export type PageKind = 'app' | 'public' | 'oauth';

const SHARED = ["default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'"];

const CSP: Record<PageKind, string> = {
  app: [...SHARED, "style-src 'self'", "script-src 'self'", "img-src 'self' https: data:", "form-action 'self'", "connect-src 'self'"].join(
    '; ',
  ),
  public: [...SHARED, "style-src 'self' 'unsafe-inline'", 'img-src https: data:', "form-action 'none'"].join('; '),
  oauth: [...SHARED, "style-src 'self'", "img-src 'self'"].join('; '),
};

const REFERRER: Record<PageKind, string> = { app: 'same-origin', public: 'no-referrer', oauth: 'same-origin' };

/** The security headers of a page of this kind (also sent with a public page's Markdown). */
export function securityHeaders(kind: PageKind): Record<string, string> {
  return {
    'Content-Security-Policy': CSP[kind],
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': REFERRER[kind],
    'X-Frame-Options': 'DENY',
  };
}

/** An HTML response of this kind: its security headers, then `headers` (caching, status-specific ones). */
export function htmlResponse(kind: PageKind, body: string, status: number, headers: Record<string, string>): Response {
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', ...securityHeaders(kind), ...headers },
  });
}
