import { sql } from 'drizzle-orm';
import { migrationsCurrent } from '../../db/migrate.ts';
import type { BinderyDeps } from '../context.ts';
import { constantTimeEqual } from '../encoding.ts';
import { json } from '../http/responses.ts';
import { sha256Hex } from '../ids.ts';
import { parseIndexPath, parsePagePath } from '../http/pages.ts';
import { isOAuthPath } from '../oauth/urls.ts';
import { webRouteTemplate } from '../web/router.ts';
import { METRICS_CONTENT_TYPE } from './metrics.ts';
import { createTelemetry, type RequestRecord, type Telemetry } from './telemetry.ts';

/** The observability of the HTTP app: /metrics, /readyz, and the per-request count and log line. */
export interface HttpObserver {
  /** The deps to build the app on: with `telemetry` when metrics or JSON logs are on. */
  deps: BinderyDeps;
  /** Answers GET /metrics and GET /readyz; undefined for every other request. */
  route(request: Request, path: string): Promise<Response> | undefined;
  /** Runs one request's handling; counts it and writes its log line when telemetry is on. */
  wrap(request: Request, handle: () => Promise<Response>): Promise<Response>;
}

/** Paths served as they are (besides the OAuth paths and the web app's routes). */
const STATIC_ROUTES = new Set(['/mcp', '/healthz', '/readyz', '/metrics', '/api', '/api/openapi.json']);

/** The REST routes (core/http/rest.ts): `/api/<name>` and, where there is one, `/api/<name>/:id`. */
const API_ROUTES: Record<string, boolean> = { me: false, sets: true, bindings: true };

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A request method as a label: the standard ones as they are, anything else `OTHER`. */
export function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

/**
 * The route a request took, as a label taken from the route tables (static paths, OAuth, the web
 * app's routes, REST, page shapes), never from the request: ids, slugs, secrets and query strings never
 * appear, and every path no route has shares `unmatched`. So the number of series is bounded by the
 * code, and no client can fill the registry's cap and blind it to real traffic.
 */
export function routeTemplate(path: string): string {
  if (STATIC_ROUTES.has(path) || isOAuthPath(path)) return path;
  const web = webRouteTemplate(path);
  if (web) return web;
  if (parseIndexPath(path)) return '/@:space';
  if (parsePagePath(path)) return '/@:space/:slug';
  const api = /^\/api\/([a-z]+)(\/[^/]+)?\/?$/.exec(path);
  const withId = api && API_ROUTES[api[1]!];
  if (api && withId !== undefined && (withId || !api[2])) return `/api/${api[1]}${api[2] ? '/:id' : ''}`;
  return 'unmatched';
}

/** A caller's X-Request-Id when it is a plain token, else a fresh one. */
function requestId(request: Request): string {
  const given = request.headers.get('x-request-id');
  return given && /^[A-Za-z0-9._:-]{1,64}$/.test(given) ? given : crypto.randomUUID();
}

/**
 * Compares the presented bearer token with the configured one in time independent of where they
 * differ, and of their lengths (their equal-length digests are compared).
 */
async function tokenMatches(presented: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([sha256Hex(presented), sha256Hex(expected)]);
  return constantTimeEqual(a, b);
}

/**
 * Builds the observer for one HTTP app. Telemetry is on when the adapter passed it, or when
 * BINDERY_METRICS_TOKEN or BINDERY_LOG_FORMAT=json asks for it; off, `wrap` adds nothing to a request.
 */
/** What /healthz and /readyz report of the database. */
export interface DatabaseProbe {
  ok: boolean;
  db: 'ok' | 'unreachable';
  migrations: 'current' | 'pending';
}

/** The one database probe of /healthz and /readyz: does it answer, and are its migrations current? */
export async function probeDatabase(db: BinderyDeps['db']): Promise<DatabaseProbe> {
  let answers = true;
  try {
    await db.get(sql`SELECT 1`);
  } catch {
    answers = false;
  }
  const migrations = answers && (await migrationsCurrent(db).catch(() => false)) ? 'current' : 'pending';
  return { ok: answers && migrations === 'current', db: answers ? 'ok' : 'unreachable', migrations };
}

export function createHttpObserver(deps: BinderyDeps, opts: { sessionsOpen: () => number }): HttpObserver {
  const observe = deps.config.observe;
  const wanted = !!observe?.metricsToken || observe?.logFormat === 'json';
  const telemetry: Telemetry | undefined =
    deps.telemetry ??
    (wanted ? createTelemetry({ writeLine: observe?.logFormat === 'json' ? (line) => console.error(line) : undefined }) : undefined);
  const withTelemetry = telemetry && telemetry !== deps.telemetry ? { ...deps, telemetry } : deps;

  async function metrics(request: Request): Promise<Response> {
    const expected = observe?.metricsToken;
    if (!expected || !telemetry) return json({ error: { code: 'NOT_FOUND', message: `no route ${request.method} /metrics` } }, 404);
    const auth = request.headers.get('authorization') ?? '';
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
    if (!presented || !(await tokenMatches(presented, expected))) {
      return json({ error: { code: 'UNAUTHORIZED', message: 'unauthorized' } }, 401, {
        'WWW-Authenticate': 'Bearer realm="bindery-metrics"',
        'Cache-Control': 'no-store',
      });
    }
    const body = telemetry.metrics.render({ sessionsOpen: opts.sessionsOpen() });
    return new Response(request.method === 'HEAD' ? null : body, {
      status: 200,
      headers: { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' },
    });
  }

  /** Readiness: the database answers and its migrations are current (liveness stays /healthz). */
  async function ready(): Promise<Response> {
    const probe = await probeDatabase(deps.db);
    return json(probe, probe.ok ? 200 : 503, { 'Cache-Control': 'no-store' });
  }

  return {
    deps: withTelemetry,
    route(request, path) {
      const read = request.method === 'GET' || request.method === 'HEAD';
      if (path === '/metrics' && read) return metrics(request);
      if (path === '/readyz' && read) return ready();
      return undefined;
    },
    async wrap(request, handle) {
      if (!telemetry) return handle();
      const started = performance.now();
      const record: RequestRecord = { tools: [], tokens: 0, toolErrors: 0 };
      let status = 500;
      try {
        const res = await (telemetry.scope ? telemetry.scope.run(record, handle) : handle());
        status = res.status;
        return res;
      } finally {
        const path = new URL(request.url).pathname;
        const route = routeTemplate(path);
        const method = methodLabel(request.method);
        telemetry.metrics.observeRequest(method, route, status);
        if (telemetry.writeLine) {
          const outcome = status >= 500 ? 'server_error' : status >= 400 ? 'client_error' : record.toolErrors ? 'tool_error' : 'ok';
          // Only what is listed here is logged: never bodies, headers, query strings or path slugs.
          const line = {
            time: new Date().toISOString(),
            level: 'info',
            msg: 'http',
            requestId: requestId(request),
            method,
            route,
            status,
            ms: Math.round((performance.now() - started) * 10) / 10,
            tools: record.tools,
            responseTokens: record.tokens,
            outcome,
          };
          telemetry.writeLine(JSON.stringify(line));
        }
      }
    },
  };
}
