import { defineAction, definePage, show } from '../page.ts';
import { page, redirect } from '../respond.ts';
import type { WebRoute } from '../route.ts';
import { loginLinkValid, signIn, signOut } from '../session.ts';
import { linkNotValidView, loginView, signInRefusedView, signInView } from '../views/auth.ts';

// Sign-in: `bindery login-link --user <handle>` prints a one-time URL. Opening it (GET) only shows a
// button, so link-preview bots and mail scanners that fetch it do not use it up; the POST signs in.

// The login URL holds its token: it must not leave in a Referer, but our own requests may carry it
// (with no-referrer, browsers send `Origin: null` on the form post, which the Origin check refuses).
const NO_REFERRER = { 'Referrer-Policy': 'same-origin' };

/** The page a visitor sees at `/` (and on any page that needs a session). */
export function signInPage(status = 200): Response {
  return page(signInView(), status);
}

const used = () => page(linkNotValidView(), 410, NO_REFERRER);

/** The auth pages' routes (each a definePage or defineAction). */
export const authRoutes: WebRoute[] = [
  {
    method: 'GET',
    path: /^\/login\/([^/]+)$/,
    public: true,
    page: definePage({
      async load(ctx, m) {
        if (!(await loginLinkValid(ctx.deps, m[1]!))) return used();
        return show({ user: ctx.user, token: m[1]! }, 200, NO_REFERRER);
      },
      view: loginView,
    }),
  },
  {
    method: 'POST',
    path: /^\/login\/([^/]+)$/,
    public: true,
    page: defineAction(async (ctx, m) => {
      // No session yet, so no CSRF secret: the Origin must be ours, or another site could sign a
      // visitor into an account of its choosing.
      const origin = ctx.request.headers.get('origin');
      if (origin !== new URL(ctx.deps.config.publicUrl).origin) return page(signInRefusedView(), 403, NO_REFERRER);
      const done = await signIn(ctx.deps, m[1]!);
      if (!done) return used();
      return redirect('/', { 'Set-Cookie': done.setCookie, ...NO_REFERRER });
    }),
  },
  {
    method: 'POST',
    path: /^\/logout$/,
    page: defineAction(async (ctx) => redirect('/', { 'Set-Cookie': await signOut(ctx.deps, ctx.user) })),
  },
];
