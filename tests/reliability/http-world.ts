// An in-process HTTP app (the same core/http code the Bun and edge adapters mount) on a migrated
// in-memory database with alice and bob, for the resource-limit suites.
import { parseConfig } from '../../core/index.ts';
import { createHttpApp, type HttpApp } from '../../core/http/app.ts';
import { createApiKey } from '../../core/http/auth.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import type { CoreDeps } from '../../core/services/bindings.ts';
import type { Caller } from '../../core/context.ts';
import { createDatabase, migrate, type Database } from '../../db/index.ts';
import { seedWorld, type Seed } from '../../support/targets.ts';
import { testCounter } from '../helpers.ts';

export const BASE = 'http://localhost:8787';
export const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

export interface HttpWorld {
  app: HttpApp;
  database: Database;
  deps: CoreDeps;
  seed: Seed;
  alice: Caller;
  bob: Caller;
  /** A new user with a key. */
  user(handle: string): Promise<{ caller: Caller; key: string }>;
  get(path: string, key?: string): Promise<Response>;
  close(): Promise<void>;
}

/** The world, with extra BINDERY_* settings. */
export async function httpWorld(env: Record<string, string> = {}): Promise<HttpWorld> {
  const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager', ...env });
  const database = createDatabase({ url: config.dbUrl });
  await migrate(database.db);
  const seed = await seedWorld(database.db, config.publicUrl);
  const deps: CoreDeps = { db: database.db, tokens: await testCounter(), config, now: () => Date.now() };
  const app = createHttpApp({ deps });
  return {
    app,
    database,
    deps,
    seed,
    alice: await ensureCaller(deps, 'alice'),
    bob: await ensureCaller(deps, 'bob'),
    async user(handle) {
      const caller = await ensureCaller(deps, handle);
      return { caller, key: (await createApiKey(database.db, caller.id, Date.now())).key };
    },
    get: (path, key) => app.fetch(new Request(`${BASE}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} })),
    async close() {
      await app.close();
      database.close();
    },
  };
}

/** Median of a list of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** CPU (user + system) and wall milliseconds one async call takes in this process. */
export async function cost<T>(f: () => Promise<T>): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await f();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { value, cpuMs: (cpu.user + cpu.system) / 1000, wallMs };
}
