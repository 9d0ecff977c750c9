// Edge adapter (`bindery/edge`): `createFetchHandler(options)` → `(request, env?) => Promise<Response>`.
// Web-standard only (no Bun or Node API), stateless and always eager: every request gets a fresh MCP
// server from core/http. Storage: `options.database` (Deno: a local libSQL file; Workers: D1), else a
// remote libSQL/Turso URL over HTTP. Migrations are applied by `bindery migrate`, never in a request.
import { createHttpApp, type HttpApp } from '../core/http/app.ts';
import { createTiktokenCounter, parseConfig, stderrLogger, type BinderyConfig, type Logger } from '../core/index.ts';
import { createWebDatabase } from '../db/client-web.ts';
import type { BinderyDb } from '../db/types.ts';

export type EdgeEnv = Record<string, unknown>;

export interface FetchHandlerOptions {
  /** Settings (BINDERY_* names); string values of the per-request `env` (a Worker's vars) override them. */
  env?: Record<string, string | undefined>;
  /** Opens the database for this env; return undefined to fall back to BINDERY_DB_URL (libsql/https). */
  database?: (env: EdgeEnv, config: BinderyConfig) => BinderyDb | undefined | Promise<BinderyDb | undefined>;
  /** Where errors go; `console.error` lines (`[bindery] …`) by default, so a 500 always has a log. */
  log?: Logger;
}

/** A web-standard fetch handler serving /mcp, /@space/slug, /api/… and /healthz. Built on first request. */
export function createFetchHandler(options: FetchHandlerOptions = {}): (request: Request, env?: EdgeEnv) => Promise<Response> {
  let app: Promise<HttpApp> | undefined;
  const log = options.log ?? stderrLogger((line) => console.error(line));
  const build = async (env: EdgeEnv): Promise<HttpApp> => {
    const vars = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const config = parseConfig({ ...options.env, ...vars });
    const db = (await options.database?.(env, config)) ?? createWebDatabase({ url: config.dbUrl, authToken: config.dbAuthToken }).db;
    // The tokenizer loads lazily, only when a request needs a count; /healthz says whether it has.
    const counter = createTiktokenCounter(config.tokenizer);
    let tokenizerLoaded = false;
    const tokens = { ...counter, load: () => counter.load().then(() => void (tokenizerLoaded = true)) };
    return createHttpApp({ deps: { db, tokens, config, log, now: Date.now }, stateless: true, health: () => ({ tokenizerLoaded }) });
  };
  return async (request, env = {}) => {
    app ??= build(env).catch((err) => {
      app = undefined;
      throw err;
    });
    try {
      return await (await app).fetch(request);
    } catch (err) {
      log.error('edge handler could not start', err);
      return new Response(JSON.stringify({ error: { code: 'INTERNAL', message: 'server is not configured correctly; see its log' } }), {
        status: 500,
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      });
    }
  };
}
