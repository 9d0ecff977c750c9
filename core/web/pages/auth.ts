import { html } from '../html.ts';
import { layout, page, redirect } from '../layout.ts';
import type { WebRoute } from '../route.ts';
import { loginLinkValid, signIn, signOut } from '../session.ts';

// Sign-in: `bindery login-link --user <handle>` prints a one-time URL. Opening it (GET) only shows a
// button, so link-preview bots and mail scanners that fetch it do not use it up; the POST signs in.

// The login URL holds its token: it must not leave in a Referer, but our own requests may carry it
// (with no-referrer, browsers send `Origin: null` on the form post, which the Origin check refuses).
const NO_REFERRER = { 'Referrer-Policy': 'same-origin' };

/** The page a visitor sees at `/` (and on any page that needs a session). */
export function signInPage(status = 200): Response {
  return page(
    layout(
      'Sign in',
      undefined,
      html`<h1>Sign in to Bindery</h1>
<p>Bindery keeps documents (<em>bindings</em>) for you and your assistants, shaped to a token budget.</p>
<p>This server signs people in with one-time links. On the machine that runs it, ask for one:</p>
<pre class="src"><code>bun run cli login-link --user &lt;your-handle&gt;</code></pre>
<p>Open the link it prints within 15 minutes and press <strong>Sign in</strong>. The link works once.</p>`,
    ),
    status,
  );
}

const used = () =>
  page(
    layout(
      'Link not valid',
      undefined,
      html`<h1>This sign-in link is not valid</h1><p>It was already used, it expired, or it was mistyped. Ask for a new one with <code>bun run cli login-link --user &lt;handle&gt;</code>.</p>`,
    ),
    410,
    NO_REFERRER,
  );

export const authRoutes: WebRoute[] = [
  {
    method: 'GET',
    path: /^\/login\/([^/]+)$/,
    public: true,
    async handle(ctx, m) {
      if (!(await loginLinkValid(ctx.deps, m[1]!))) return used();
      return page(
        layout(
          'Sign in',
          ctx.user,
          html`<h1>Sign in to Bindery</h1><p>Press the button to sign in on this browser. The link then stops working.</p>
<form method="post" action="/login/${m[1]!}"><button type="submit" class="primary">Sign in</button></form>`,
        ),
        200,
        NO_REFERRER,
      );
    },
  },
  {
    method: 'POST',
    path: /^\/login\/([^/]+)$/,
    public: true,
    async handle(ctx, m) {
      // No session yet, so no CSRF secret: the Origin must be ours, or another site could sign a
      // visitor into an account of its choosing.
      const origin = ctx.request.headers.get('origin');
      if (origin !== new URL(ctx.deps.config.publicUrl).origin) {
        return page(layout('Refused', undefined, html`<h1>Refused</h1><p>Sign in from the page the link opens.</p>`), 403, NO_REFERRER);
      }
      const done = await signIn(ctx.deps, m[1]!);
      if (!done) return used();
      return redirect('/', { 'Set-Cookie': done.setCookie, ...NO_REFERRER });
    },
  },
  {
    method: 'POST',
    path: /^\/logout$/,
    async handle(ctx) {
      return redirect('/', { 'Set-Cookie': await signOut(ctx.deps, ctx.user) });
    },
  },
];
