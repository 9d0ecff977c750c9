import type { BinderyDeps } from '../context.ts';
import { checkHostAndOrigin } from '../http/guard.ts';
import { json, withHeaders } from '../http/responses.ts';
import { handleAuthorizeGet, handleAuthorizePost } from './authorize.ts';
import { handleGrantsGet, handleGrantsPost } from './grants.ts';
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata.ts';
import { sourceKey, type RateLimiter } from './rate-limit.ts';
import { handleRegister } from './register.ts';
import { handleRevoke } from './revoke.ts';
import { handleToken } from './token.ts';
import { PATHS } from './urls.ts';
import { oauthError, publicCors } from './wire.ts';

// The OAuth surface as web-standard handlers. The SDK ships an authorization-server router
// (`server/auth/router.js`), but it is Express middleware: it cannot run on Bun/Elysia's fetch, Deno or
// Workers, which this core serves alike. Its shared zod schemas (shared/auth.js) shape our metadata and
// check registrations, so the wire format stays the one the SDK's own client expects.

/** Endpoints any origin may call (no cookie, no ambient authority): CORS `*`, Origin not checked. */
const PUBLIC = new Set<string>([
  PATHS.protectedResource,
  PATHS.protectedResourceMcp,
  PATHS.authorizationServer,
  PATHS.register,
  PATHS.token,
  PATHS.revoke,
]);

export interface OAuthOptions {
  /** The per-source limiter of POST /register (one per HTTP app). */
  registrations: RateLimiter;
  /** The caller's address as the adapter saw it (undefined when the runtime does not say). */
  clientAddress?: string;
}

/** Handles a request to an OAuth path (see `isOAuthPath`). */
export async function handleOAuth(deps: BinderyDeps, request: Request, url: URL, opts: OAuthOptions): Promise<Response> {
  const path = url.pathname;
  const isPublic = PUBLIC.has(path);
  // DNS-rebinding protection still applies to every path; the Origin check only where a cookie counts.
  const headers = new Headers(request.headers);
  if (isPublic) headers.delete('origin');
  const refused = checkHostAndOrigin(deps.config.http, new Request(request.url, { headers }));
  if (refused) return json({ error: 'access_denied', error_description: refused }, 403);
  const cors = isPublic ? publicCors(request) : {};
  if (request.method === 'OPTIONS' && isPublic) return new Response(null, { status: 204, headers: cors });
  try {
    return withHeaders(await route(deps, request, url, opts), cors);
  } catch (err) {
    deps.log?.error('OAuth request failed', err);
    return withHeaders(json({ error: 'server_error', error_description: 'An internal error occurred.' }, 500), cors);
  }
}

async function route(deps: BinderyDeps, request: Request, url: URL, opts: OAuthOptions): Promise<Response> {
  const m = request.method;
  const get = m === 'GET' || m === 'HEAD';
  switch (url.pathname) {
    case PATHS.protectedResource:
    case PATHS.protectedResourceMcp:
      if (get) return json(protectedResourceMetadata(deps.config), 200, { 'Cache-Control': 'max-age=300' });
      break;
    case PATHS.authorizationServer:
      if (get) return json(authorizationServerMetadata(deps.config), 200, { 'Cache-Control': 'max-age=300' });
      break;
    case PATHS.register:
      if (m === 'POST') return handleRegister(deps, request, { limiter: opts.registrations, source: sourceKey(opts.clientAddress) });
      break;
    case PATHS.token:
      if (m === 'POST') return handleToken(deps, request);
      break;
    case PATHS.revoke:
      if (m === 'POST') return handleRevoke(deps, request);
      break;
    case PATHS.authorize:
      if (get) return handleAuthorizeGet(deps, request, url);
      if (m === 'POST') return handleAuthorizePost(deps, request);
      break;
    case PATHS.grants:
      if (get) return handleGrantsGet(deps, request);
      if (m === 'POST') return handleGrantsPost(deps, request);
      break;
  }
  const allow = url.pathname.startsWith('/.well-known/') ? 'GET' : PUBLIC.has(url.pathname) ? 'POST' : 'GET, POST';
  return withHeaders(oauthError('invalid_request', `${m} is not allowed on ${url.pathname}`, 405), { Allow: allow });
}
