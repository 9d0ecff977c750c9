// Real servers for the adapter suites: a seeded database, then stdio (spawned), Bun HTTP (spawned
// adapter on 127.0.0.1), the edge handler under Deno (spawned) and under workerd (miniflare, D1).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../core/index.ts';
import { createApiKey } from '../core/http/auth.ts';
import { createBinding } from '../core/services/bindings.ts';
import { ensureCaller, ensureStoredCountsOnce } from '../core/services/prepare.ts';
import { revokeApiKey } from '../db/store/api-keys.ts';
import { createDatabase, migrate } from '../db/index.ts';
import type { BinderyDb } from '../db/types.ts';
import { testCounter } from './tokens.ts';

export const ROOT = join(import.meta.dir, '..');
/**
 * The Deno executable the `deno` npm package ships (its platform package, or the copy its launcher
 * makes). Spawned directly: node_modules/.bin/deno is a Node launcher, and killing it would orphan Deno.
 */
export function denoBinary(): string | undefined {
  const target = `${process.platform}-${process.arch === 'arm64' ? 'arm64' : 'x64'}${process.platform === 'linux' ? '-glibc' : ''}`;
  const exe = process.platform === 'win32' ? 'deno.exe' : 'deno';
  return [join(ROOT, 'node_modules', 'deno', exe), join(ROOT, 'node_modules', '@deno', target, exe)].find((p) => existsSync(p));
}

export interface Seed {
  aliceKey: string;
  bobKey: string;
  revokedKey: string;
  /** Bob's binding in his private personal space: nobody else may read it. */
  bobPrivate: { id: string; slug: string; word: string };
}

/** Users alice and bob with keys (one revoked), and a private binding of bob's. */
export async function seedWorld(db: BinderyDb, publicUrl: string): Promise<Seed> {
  const deps = { db, tokens: await testCounter(), config: parseConfig({ BINDERY_PUBLIC_URL: publicUrl }), now: () => Date.now() };
  const alice = await ensureCaller(deps, 'alice');
  const bob = await ensureCaller(deps, 'bob');
  const word = 'zanzibarite';
  const row = await createBinding(
    deps,
    bob,
    { name: 'Bob private plan', content: `# Plan\n\nThe ${word} secret.\n`, summary: `Bob's ${word} plan.`, keyPoints: ['secret'] },
    { source: 'human', model: null },
  );
  const revoked = await createApiKey(db, alice.id, Date.now());
  await revokeApiKey(db, revoked.id, Date.now());
  // As `bindery migrate` does on a deploy: record which tokenizer and URL the stored counts are for.
  await ensureStoredCountsOnce(deps);
  return {
    aliceKey: (await createApiKey(db, alice.id, Date.now())).key,
    bobKey: (await createApiKey(db, bob.id, Date.now())).key,
    revokedKey: revoked.key,
    bobPrivate: { id: row.bindingId, slug: row.bindingSlug, word },
  };
}

/** A free loopback port (asked of the OS, then released). */
export function freePort(): number {
  const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/** Polls GET /healthz until it answers 200 (bounded). */
export async function waitHealthy(url: string, ms = 20_000, proc?: { exitCode: number | null }): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (proc && proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.status === 200) return;
    } catch {}
    await Bun.sleep(25);
  }
  throw new Error(`${url} did not become healthy in ${ms} ms`);
}

/** An SDK client over Streamable HTTP with a bearer key. */
export async function httpClient(url: string, key: string, name = 'bindery-contract'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export interface Target {
  name: string;
  /** Base URL of the HTTP surface (undefined for stdio). */
  url?: string;
  seed: Seed;
  /** A client acting as alice. */
  connect(): Promise<Client>;
  stop(): Promise<void>;
}

/** A temp dir with a migrated, seeded libSQL file. */
export async function seededFile(publicUrl: string): Promise<{ dir: string; dbUrl: string; seed: Seed }> {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-adapter-'));
  const dbUrl = `file:${join(dir, 'bindery.db')}`;
  const database = createDatabase({ url: dbUrl });
  await migrate(database.db);
  const seed = await seedWorld(database.db, publicUrl);
  database.close();
  return { dir, dbUrl, seed };
}

function baseEnv(dbUrl: string, publicUrl: string, port: number): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    BINDERY_DB_URL: dbUrl,
    BINDERY_PUBLIC_URL: publicUrl,
    PORT: String(port),
    BINDERY_TOOL_MODE: 'eager',
    BINDERY_USER: 'alice',
  };
}

export async function stdioTarget(): Promise<Target> {
  const publicUrl = 'http://127.0.0.1:1';
  const { dir, dbUrl, seed } = await seededFile(publicUrl);
  const clients: Client[] = [];
  return {
    name: 'stdio',
    seed,
    async connect() {
      const transport = new StdioClientTransport({
        command: 'bun',
        args: [join(ROOT, 'adapters/stdio.ts')],
        env: baseEnv(dbUrl, publicUrl, 0),
        stderr: 'ignore',
      });
      const client = new Client({ name: 'bindery-contract', version: '1.0.0' });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.all(clients.map((c) => c.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A target reached over HTTP as alice; `cleanup` runs after its clients are closed. */
function httpTarget(name: string, url: string, seed: Seed, cleanup: () => Promise<void> | void): Target {
  const clients: Client[] = [];
  return {
    name,
    url,
    seed,
    async connect() {
      const c = await httpClient(url, seed.aliceKey);
      clients.push(c);
      return c;
    },
    async stop() {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      await cleanup();
    },
  };
}

/** Spawns a server process and waits until it is healthy. */
async function spawnServer(
  name: string,
  cmd: string[],
  env: Record<string, string>,
  url: string,
  seed: Seed,
  dir: string,
): Promise<Target> {
  const proc = Bun.spawn(cmd, { cwd: ROOT, env, stdout: 'ignore', stderr: 'pipe' });
  let log = '';
  const reader = proc.stderr.getReader();
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      log += new TextDecoder().decode(value);
    }
  })();
  try {
    await waitHealthy(url, 30_000, proc);
  } catch (e) {
    proc.kill();
    throw new Error(`${name}: ${(e as Error).message}\n${log}`);
  }
  return httpTarget(name, url, seed, async () => {
    proc.kill();
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
  });
}

export async function bunHttpTarget(extraEnv: Record<string, string> = {}, name = 'bun-http'): Promise<Target> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const { dir, dbUrl, seed } = await seededFile(url);
  return spawnServer(name, ['bun', 'adapters/bun-http.ts'], { ...baseEnv(dbUrl, url, port), ...extraEnv }, url, seed, dir);
}

const REMOTE_URL = process.env.BINDERY_TEST_REMOTE_URL;
const REMOTE_TOKEN = process.env.BINDERY_TEST_REMOTE_AUTH_TOKEN;

/** Why the remote libSQL runs are skipped, or undefined when BINDERY_TEST_REMOTE_URL is set. */
export function remoteUnavailable(): string | undefined {
  return REMOTE_URL
    ? undefined
    : 'BINDERY_TEST_REMOTE_URL is not set (a libsql:// or https:// URL of a scratch Turso/sqld database; token in BINDERY_TEST_REMOTE_AUTH_TOKEN)';
}

async function seededRemote(publicUrl: string): Promise<Seed> {
  const { createWebDatabase } = await import('../db/client-web.ts');
  const database = createWebDatabase({ url: REMOTE_URL!, authToken: REMOTE_TOKEN });
  await migrate(database.db);
  const seed = await seedWorld(database.db, publicUrl);
  database.close();
  return seed;
}

/** `bun run serve` against the remote database (BINDERY_DB_URL + BINDERY_DB_AUTH_TOKEN). */
export async function remoteBunHttpTarget(): Promise<Target> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const seed = await seededRemote(url);
  const dir = mkdtempSync(join(tmpdir(), 'bindery-remote-'));
  const env = { ...baseEnv(REMOTE_URL!, url, port), ...(REMOTE_TOKEN ? { BINDERY_DB_AUTH_TOKEN: REMOTE_TOKEN } : {}) };
  return spawnServer('bun-http+remote-libsql', ['bun', 'adapters/bun-http.ts'], env, url, seed, dir);
}

/** The edge handler (its default @libsql/client/web storage) served by Bun on loopback. */
export async function remoteEdgeTarget(): Promise<Target> {
  const { createFetchHandler } = await import('../adapters/edge.ts');
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const seed = await seededRemote(url);
  const handler = createFetchHandler({ env: { BINDERY_DB_URL: REMOTE_URL, BINDERY_DB_AUTH_TOKEN: REMOTE_TOKEN, BINDERY_PUBLIC_URL: url } });
  const server = Bun.serve({ hostname: '127.0.0.1', port, fetch: (r) => handler(r) });
  return httpTarget('edge+remote-libsql', url, seed, () => server.stop(true));
}

/** Why Deno cannot run here, or undefined when it can. */
export function denoUnavailable(): string | undefined {
  const bin = denoBinary();
  if (!bin) return 'the deno npm package (and its @deno/<platform> binary) is not installed (bun add -d deno)';
  const r = Bun.spawnSync([bin, '--version']);
  return r.exitCode === 0 ? undefined : `deno --version failed: ${r.stderr.toString().slice(0, 200)}`;
}

export async function denoTarget(): Promise<Target> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const { dir, dbUrl, seed } = await seededFile(url);
  const env = { ...baseEnv(dbUrl, url, port), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
  return spawnServer('deno-edge', [denoBinary()!, 'run', '-A', '--no-lock', 'adapters/deno.ts'], env, url, seed, dir);
}

/** Bundles adapters/worker.ts for workerd (ESM, code-split so the tokenizer ranks are separate chunks). */
export async function buildWorker(outdir: string): Promise<{ modules: { type: 'ESModule'; path: string }[] }> {
  const result = await Bun.build({
    entrypoints: [join(ROOT, 'adapters/worker.ts')],
    outdir,
    target: 'browser',
    format: 'esm',
    splitting: true,
    conditions: ['workerd', 'worker', 'browser'],
  });
  if (!result.success) throw new Error(`worker build failed: ${result.logs.map(String).join('\n')}`);
  const files = readdirSync(outdir).filter((f) => f.endsWith('.js'));
  files.sort((a, b) => (a === 'worker.js' ? -1 : b === 'worker.js' ? 1 : a.localeCompare(b)));
  return { modules: files.map((f) => ({ type: 'ESModule' as const, path: join(outdir, f) })) };
}

export async function workerdTarget(): Promise<Target> {
  const { Miniflare } = await import('miniflare');
  const { createD1Database } = await import('../db/client-web.ts');
  const dir = mkdtempSync(join(tmpdir(), 'bindery-worker-'));
  const { modules } = await buildWorker(dir);
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const mf = new Miniflare({
    modulesRoot: dir,
    modules,
    d1Databases: ['DB'],
    compatibilityDate: '2025-09-01',
    host: '127.0.0.1',
    port,
    bindings: { BINDERY_PUBLIC_URL: url },
  });
  await mf.ready;
  // Migrations and seeding go through the D1 binding from outside, never inside a request.
  const db = createD1Database((await mf.getD1Database('DB')) as never);
  await migrate(db);
  const seed = await seedWorld(db, url);
  return httpTarget('workerd-edge', url, seed, async () => {
    await mf.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
}
