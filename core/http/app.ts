import { type BinderyDepsInput, withClock } from '../context.ts';
import { BinderyRpcCode, ErrorCode } from '../protocol/rpc-error.ts';
import { authenticate } from './auth.ts';
import { checkHostAndOrigin, corsHeaders, readBodyLimited } from './guard.ts';
import { createMcpEndpoint, type McpEndpoint } from './mcp.ts';
import { serveLinkIndex } from './link-index.ts';
import { PageCache, type PageCacheStats } from './page-cache.ts';
import { parseIndexPath, parsePagePath, servePage } from './pages.ts';
import { json, rpcError, unauthorized, withHeaders } from './responses.ts';
import { openApiDocument } from './openapi.ts';
import { handleRest } from './rest.ts';
import { handleOAuth } from '../oauth/router.ts';
import { createRateLimiter, REGISTRATION_RATE, type RateLimit } from '../oauth/rate-limit.ts';
import { isOAuthPath, mcpResource, resourceMetadataUrl } from '../oauth/urls.ts';
import { handleWeb, isWebPath } from '../web/router.ts';
import { createHttpObserver, probeDatabase } from '../observe/http.ts';

export interface HttpAppOptions {
  deps: BinderyDepsInput;
  /** Overrides `config.http.stateless`; the edge handler always passes true. */
  stateless?: boolean;
  /** Extra fields for GET /healthz (e.g. whether the tokenizer was loaded). */
  health?: () => Record<string, unknown>;
  /**
   * The client's network address, as the runtime saw it (Bun: `server.requestIP`). Keys the per-source
   * limit on anonymous registration; without it every caller shares one bucket.
   */
  clientAddress?: (request: Request) => string | undefined;
  /** Overrides the registration rate limit (tests, benches). */
  registrationRate?: RateLimit;
}

/** The whole HTTP surface as one web-standard handler: Bun (Elysia), Deno and Workers all call `fetch`. */
export interface HttpApp {
  fetch(request: Request): Promise<Response>;
  /** Live MCP sessions (undefined when stateless). */
  readonly sessions: McpEndpoint['sessions'];
  /** Renders and cache hits of public pages. */
  readonly pages: PageCacheStats;
  close(): Promise<void>;
}

/** Builds the HTTP surface (docs/http-and-oauth.md) over the core: /mcp, /@space/slug, /@space?share=…, /api/…, /healthz. */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const observer = createHttpObserver(withClock(options.deps), { sessionsOpen: () => mcp.sessions?.size ?? 0 });
  const { deps } = observer;
  const http = deps.config.http;
  const stateless = options.stateless ?? http.stateless;
  const mcp = createMcpEndpoint(deps, {
    stateless,
    idleMs: http.sessionIdleMs,
    maxSessions: http.maxSessions,
    maxSessionsPerKey: http.maxSessionsPerKey,
  });
  const log = deps.log;
  const pages = new PageCache();
  const registrations = createRateLimiter(options.registrationRate ?? REGISTRATION_RATE);
  // Idle sessions are swept on a timer that never keeps the process alive.
  const sweeper = mcp.sessions ? setInterval(() => void mcp.sessions!.sweep(), Math.min(http.sessionIdleMs / 2, 60_000)) : undefined;
  (sweeper as { unref?: () => void } | undefined)?.unref?.();

  async function health(): Promise<Response> {
    const probe = await probeDatabase(deps.db);
    return json({ ...probe, stateless, ...options.health?.() }, probe.ok ? 200 : 503, { 'Cache-Control': 'no-store' });
  }

  async function readJson(request: Request, isMcp: boolean): Promise<{ body?: unknown; error?: Response }> {
    const read = await readBodyLimited(request, http.maxBodyBytes);
    if (!read.ok) {
      const message = read.tooLarge
        ? `request body is over the ${http.maxBodyBytes}-byte limit (BINDERY_HTTP_MAX_BODY_BYTES)`
        : 'request body could not be read';
      const status = read.tooLarge ? 413 : 400;
      return {
        error: isMcp
          ? rpcError(status, BinderyRpcCode.Refused, message)
          : json({ error: { code: read.tooLarge ? 'TOO_LARGE' : 'INVALID_INPUT', message } }, status),
      };
    }
    try {
      return { body: read.text === '' && !isMcp ? undefined : JSON.parse(read.text) };
    } catch {
      return {
        error: isMcp
          ? rpcError(400, ErrorCode.ParseError, 'Parse error: Invalid JSON')
          : json({ error: { code: 'INVALID_INPUT', message: 'body: must be JSON' } }, 400),
      };
    }
  }

  async function route(request: Request, url: URL): Promise<Response> {
    const path = url.pathname;
    const observed = observer.route(request, path);
    if (observed) return observed;
    if (path === '/healthz' && request.method === 'GET') return health();
    // The API's description is public: a client reads it before it has a key.
    if (path === '/api/openapi.json' && request.method === 'GET')
      return json(openApiDocument(deps.config.publicUrl), 200, { 'Cache-Control': 'public, max-age=300' });
    const read = request.method === 'GET' || request.method === 'HEAD';
    const page = read ? parsePagePath(path) : undefined;
    const index = read ? parseIndexPath(path) : undefined;
    const isMcp = path === '/mcp';
    const isApi = path === '/api' || path.startsWith('/api/');
    if (isWebPath(path)) return handleWeb(deps, request);
    if (!page && !index && !isMcp && !isApi)
      return json({ error: { code: 'NOT_FOUND', message: `no route ${request.method} ${path}` } }, 404);
    // OAuth access tokens are bound to the MCP resource (RFC 8707): only /mcp accepts them.
    const auth = await authenticate(deps.db, request, isMcp ? { resource: mcpResource(deps.config), now: deps.now() } : undefined);
    if (auth.kind === 'bad' || (auth.kind === 'none' && !page && !index))
      return unauthorized(auth.kind === 'bad', isMcp, isMcp ? resourceMetadataUrl(deps.config) : undefined);
    const caller = auth.kind === 'ok' ? auth.caller : undefined;
    const format = url.searchParams.get('format') === 'md' ? 'md' : 'html';
    // A public link's secret rides in ?share=: it is the only thing that opens a link-shared page.
    const secret = url.searchParams.get('share');
    if (page) return servePage(deps, caller, page[0], page[1], format, secret, pages);
    if (index) return serveLinkIndex(deps, caller, index, format, secret);
    let body: unknown;
    if (request.method === 'POST' || request.method === 'PATCH' || request.method === 'PUT') {
      const read = await readJson(request, isMcp);
      if (read.error) return read.error;
      body = read.body;
    }
    if (isMcp) return mcp.handle(request, caller!, body);
    return handleRest(deps, caller!, request, url, body);
  }

  return {
    sessions: mcp.sessions,
    get pages() {
      return pages.stats;
    },
    fetch: (request) => observer.wrap(request, () => serve(request)),
    async close() {
      if (sweeper) clearInterval(sweeper);
      await mcp.close();
    },
  };

  async function serve(request: Request): Promise<Response> {
    const url = new URL(request.url);
    // Every error body on /mcp is JSON-RPC shaped ({jsonrpc, id: null, error}): MCP clients parse it.
    const isMcp = url.pathname === '/mcp';
    // OAuth (core/oauth) answers its own paths: its own CORS, Host check and error shapes.
    if (isOAuthPath(url.pathname))
      return handleOAuth(deps, request, url, { registrations, clientAddress: options.clientAddress?.(request) });
    const refused = checkHostAndOrigin(http, request);
    if (refused)
      return isMcp
        ? rpcError(403, BinderyRpcCode.Refused, `Forbidden: ${refused}`)
        : json({ error: { code: 'FORBIDDEN', message: refused } }, 403);
    const cors = corsHeaders(http, request);
    if (request.method === 'OPTIONS') {
      if (Object.keys(cors).length) return new Response(null, { status: 204, headers: cors });
      const allow = { Allow: 'GET, POST, PATCH, DELETE' };
      return isMcp
        ? rpcError(405, BinderyRpcCode.Refused, 'Method not allowed: OPTIONS (CORS is off; BINDERY_CORS_ORIGINS)', allow)
        : new Response(null, { status: 405, headers: allow });
    }
    try {
      return withHeaders(await route(request, url), cors);
    } catch (err) {
      log?.error('HTTP request failed', err);
      return withHeaders(
        isMcp
          ? rpcError(500, ErrorCode.InternalError, 'Internal error')
          : json({ error: { code: 'INTERNAL', message: 'An internal error occurred.' } }, 500),
        cors,
      );
    }
  }
}
