import type { BinderyDeps, ToolContext } from '../context.ts';
import type { WebContext, WebRoute } from './route.ts';
import { BinderyError, HTTP_STATUS } from '../errors.ts';
import { readBodyLimited } from '../http/guard.ts';
import { restContext } from '../http/rest-tools.ts';
import type { CoreDeps } from '../services/bindings.ts';
import { APP_CSS, APP_JS, FAVICON_SVG } from './assets.ts';
import { renderPage } from './page.ts';
import { notFound, page } from './respond.ts';
import { cannotView, failedView, notAllowedView, refusedView, tooLargeView } from './views/errors.ts';
import { csrfOk, CSRF_FIELD, webUser } from './session.ts';
import { authRoutes, signInPage } from './pages/auth.ts';
import { bindingRoutes } from './pages/binding.ts';
import { listRoutes } from './pages/bindings.ts';
import { editRoutes } from './pages/edit.ts';
import { setRoutes } from './pages/sets.ts';
import { shareRoutes } from './pages/shares.ts';
import { spaceRoutes } from './pages/spaces.ts';

// The web app for people (docs/http-and-oauth.md): server-rendered pages over the same core services and tools as
// MCP and REST, signed in by session cookie (session.ts). Reads go through the tools' access checks;
// writes through core/services with provenance human. Anything a person may not read answers the one
// 404 page. Every state change is a POST carrying the session's CSRF secret from our own Origin.

const ROUTES: WebRoute[] = [...authRoutes, ...listRoutes, ...bindingRoutes, ...editRoutes, ...setRoutes, ...shareRoutes, ...spaceRoutes];

const WEB_PATH =
  /^\/(?:$|login\/[^/]+$|logout$|new$|trash$|web\/app\.(?:css|js)$|favicon\.(?:ico|svg)$|(?:spaces|sets|shares|b|comments)(?:\/|$))/;

/** A route's metrics label, read off its pattern: `^/b/(bnd_…)/diff$` → `/b/:id/diff` (every group is an id or a secret). */
function routeLabel(pattern: RegExp): string {
  return pattern.source
    .replace(/^\^/, '')
    .replace(/\$$/, '')
    .replace(/\((?:[^()\\]|\\.)*\)/g, ':id')
    .replace(/\\\//g, '/');
}

const ASSETS = ['/web/app.css', '/web/app.js'];

/** The route-table label of a web-app path (any method), or undefined when no web route has that shape. */
export function webRouteTemplate(path: string): string | undefined {
  if (ASSETS.includes(path)) return path;
  const route = ROUTES.find((r) => r.path.test(path));
  return route && routeLabel(route.path);
}

/** Whether a path belongs to the web app (the dispatch in core/http/app.ts asks this first). */
export function isWebPath(path: string): boolean {
  return WEB_PATH.test(path);
}

const asset = (body: string, type: string) =>
  new Response(body, {
    headers: { 'Content-Type': `${type}; charset=utf-8`, 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' },
  });

/** Serves one web-app request. */
export async function handleWeb(deps: BinderyDeps, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname;
  if (path === '/web/app.css') return asset(APP_CSS, 'text/css');
  if (path === '/web/app.js') return asset(APP_JS, 'text/javascript');
  if (path === '/favicon.ico' || path === '/favicon.svg') return asset(FAVICON_SVG, 'image/svg+xml');
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const user = await webUser(deps, request);
  let matched: { route: WebRoute; m: RegExpExecArray } | undefined;
  for (const route of ROUTES) {
    const m = route.method === method ? route.path.exec(path) : null;
    if (m) {
      matched = { route, m };
      break;
    }
  }
  if (!matched) {
    const known = ROUTES.some((r) => r.path.test(path));
    if (known) return page(notAllowedView(user), 405, { Allow: 'GET, POST' });
    return notFound(user);
  }
  const { route, m } = matched;
  if (!user && !route.public) return signInPage(401);
  let form = new URLSearchParams();
  if (method === 'POST') {
    const read = await readBodyLimited(request, deps.config.http.maxBodyBytes);
    if (!read.ok) return page(tooLargeView(user), read.tooLarge ? 413 : 400);
    form = new URLSearchParams(read.text);
    // Sign-in pages check their own Origin; every other form needs the session's CSRF secret too.
    if (user && !route.public && !csrfOk(deps, request, user, form.get(CSRF_FIELD))) return page(refusedView(user), 403);
  }
  const core: CoreDeps = deps;
  let tools: ToolContext | undefined;
  const ctx: WebContext = { deps, core, request, url, user: user!, form, tools: () => (tools ??= restContext(deps, user!.caller)) };
  try {
    // The page's load reads and checks; its view renders what the load found (core/web/page.ts).
    return await renderPage(route.page, [ctx, m], page);
  } catch (err) {
    return errorPage(ctx, err);
  }
}

/** Typed core errors as pages: anything not found (or not readable) is the one 404. */
export function errorPage(ctx: WebContext, err: unknown): Response {
  if (!(err instanceof BinderyError)) {
    ctx.deps.log?.error('web request failed', err);
    return page(failedView(ctx.user), 500);
  }
  if (err.code === 'NOT_FOUND' && err.field !== 'user') return notFound(ctx.user);
  // A NOT_FOUND still here names a form field (an unknown user to share with): the form's input was bad.
  const status = err.code === 'NOT_FOUND' ? 400 : HTTP_STATUS[err.code];
  return page(cannotView(ctx.user, err.message), status);
}
