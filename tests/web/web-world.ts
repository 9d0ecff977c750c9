// An in-process HTTP app (the same core/http + core/web code `bun run serve` and the edge handler
// mount) on a migrated in-memory database, with helpers that act as a signed-in person in a browser:
// a session cookie, and the CSRF field and Origin every form post carries.
import { parseConfig } from '../../core/index.ts';
import { createHttpApp, type HttpApp } from '../../core/http/app.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import type { CoreDeps } from '../../core/services/bindings.ts';
import type { Caller } from '../../core/context.ts';
import { createLoginLink } from '../../core/web/session.ts';
import { createDatabase, migrate, type Database } from '../../db/index.ts';
import { testCounter } from '../helpers.ts';

export interface Browser {
  caller: Caller;
  cookie: string;
  get(path: string): Promise<Response>;
  /** Reads a page and returns its HTML (and the CSRF secret in its forms). */
  page(path: string): Promise<{ status: number; html: string; csrf: string | undefined }>;
  /** Posts a form with the session's CSRF secret and our Origin (override either to test refusals). */
  post(path: string, fields: Record<string, string | number>, opts?: { csrf?: string | null; origin?: string | null }): Promise<Response>;
}

export interface WebWorld {
  base: string;
  app: HttpApp;
  database: Database;
  deps: CoreDeps;
  /** Signs a person in through a login link, as a browser would. */
  signIn(handle: string): Promise<Browser>;
  /** Requests without a session. */
  anon(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function webWorld(base = 'http://localhost:8787'): Promise<WebWorld> {
  const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager', BINDERY_PUBLIC_URL: base });
  const database = createDatabase({ url: config.dbUrl });
  await migrate(database.db);
  const deps: CoreDeps = { db: database.db, tokens: await testCounter(), config, now: () => Date.now() };
  const app = createHttpApp({ deps });
  const anon = (path: string, init: RequestInit = {}) => app.fetch(new Request(`${base}${path}`, init));
  return {
    base,
    app,
    database,
    deps,
    anon,
    async signIn(handle) {
      const caller = await ensureCaller(deps, handle);
      const { url } = await createLoginLink(deps, caller.id);
      const res = await app.fetch(new Request(url, { method: 'POST', headers: { Origin: base } }));
      if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
      const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
      const get = (path: string) => app.fetch(new Request(`${base}${path}`, { headers: { cookie } }));
      let csrf: string | undefined;
      const browser: Browser = {
        caller,
        cookie,
        get,
        async page(path) {
          const r = await get(path);
          const html = await r.text();
          csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? csrf;
          return { status: r.status, html, csrf };
        },
        async post(path, fields, opts = {}) {
          if (!csrf) await browser.page('/');
          const sent = opts.csrf === undefined ? csrf : opts.csrf;
          const body = new URLSearchParams(
            Object.entries({ ...fields, ...(sent === null ? {} : { csrf: sent! }) }).map(([k, v]) => [k, String(v)]),
          );
          const headers: Record<string, string> = { cookie, 'Content-Type': 'application/x-www-form-urlencoded' };
          if (opts.origin !== null) headers.Origin = opts.origin ?? base;
          return app.fetch(new Request(`${base}${path}`, { method: 'POST', headers, body }));
        },
      };
      return browser;
    },
    async close() {
      await app.close();
      database.close();
    },
  };
}
