// The README's Workers + D1 path, end to end on Miniflare (workerd): build the Worker with the package
// script, run the install-time build (which must leave dist/worker alone), apply the SQL that
// `bindery migrate --print-sql` and `bindery keys create --print-sql` print to a fresh D1 database
// (as `wrangler d1 execute --file` would), then GET /healthz and an authenticated MCP session.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Miniflare } from 'miniflare';
import { ROOT, freePort, httpClient } from '../../support/targets.ts';
import { migrations } from '../../db/migrations/bundle.ts';

function run(cmd: string[]): { out: string; err: string } {
  const r = Bun.spawnSync(cmd, { cwd: ROOT, env: { ...process.env, BINDERY_DB_URL: 'file:/nonexistent/never-opened.db' } });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} exited ${r.exitCode}: ${r.stderr.toString()}`);
  return { out: r.stdout.toString(), err: r.stderr.toString() };
}

/** Splits a SQL file into statements the way D1's tooling does for our files: `;` ending a line, outside `--` comments. */
function statements(sqlText: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  for (const line of sqlText.split('\n')) {
    if (!current.length && (line.trim() === '' || line.trim().startsWith('--'))) continue;
    current.push(line);
    if (/;\s*$/.test(line)) {
      out.push(current.join('\n'));
      current = [];
    }
  }
  expect(current.join('').trim()).toBe('');
  return out;
}

let mf: Miniflare;
let url: string;
let key: string;
const workerDir = join(ROOT, 'dist', 'worker');

beforeAll(async () => {
  run(['bun', 'run', 'build:worker']);
  // `bun install` / `npm install` run `prepare`: the worker bundle must survive it.
  run(['node', 'scripts/build-dist.mjs']);
  expect(existsSync(join(workerDir, 'worker.js'))).toBe(true);
  const files = readdirSync(workerDir).filter((f) => f.endsWith('.js'));
  files.sort((a, b) => (a === 'worker.js' ? -1 : b === 'worker.js' ? 1 : a.localeCompare(b)));
  const { Miniflare } = await import('miniflare');
  const port = freePort();
  url = `http://127.0.0.1:${port}`;
  mf = new Miniflare({
    modulesRoot: workerDir,
    modules: files.map((f) => ({ type: 'ESModule' as const, path: join(workerDir, f) })),
    d1Databases: ['DB'],
    compatibilityDate: '2025-09-01',
    host: '127.0.0.1',
    port,
    bindings: { BINDERY_PUBLIC_URL: url },
  });
  await mf.ready;
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
});

describe('Workers + D1 deploy from printed SQL (Miniflare)', () => {
  test('before any SQL, /healthz is 503 and says migrations are pending', async () => {
    const r = await fetch(`${url}/healthz`);
    expect(r.status).toBe(503);
    expect(((await r.json()) as { migrations: string }).migrations).toBe('pending');
  });

  test('migrate --print-sql, applied by D1, makes /healthz 200', async () => {
    const d1 = (await mf.getD1Database('DB')) as unknown as {
      batch(s: unknown[]): Promise<unknown>;
      prepare(q: string): { run(): Promise<unknown> };
    };
    const schema = run(['bun', 'adapters/cli.ts', 'migrate', '--print-sql']).out;
    expect(schema).toContain('INSERT INTO __bindery_migrations');
    await d1.batch(statements(schema).map((s) => d1.prepare(s)));
    const r = await fetch(`${url}/healthz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ ok: true, db: 'ok', migrations: 'current', stateless: true });
    // --since the last tag has nothing but the (idempotent) ledger table to apply.
    const none = run(['bun', 'adapters/cli.ts', 'migrate', '--print-sql', '--since', migrations[migrations.length - 1]!.tag]).out;
    await d1.batch(statements(none).map((s) => d1.prepare(s)));
  });

  test('keys create --print-sql stores only the hash; the key opens an MCP session', async () => {
    const d1 = (await mf.getD1Database('DB')) as unknown as {
      batch(s: unknown[]): Promise<unknown>;
      prepare(q: string): { run(): Promise<unknown>; all(): Promise<{ results: Record<string, unknown>[] }> };
    };
    const printed = run(['bun', 'adapters/cli.ts', 'keys', 'create', '--user', 'alice', '--print-sql']);
    key = /bdk_[0-9a-z]{16}_[A-Za-z0-9_-]{43}/.exec(printed.err)![0];
    expect(printed.out).not.toContain(key);
    await d1.batch(statements(printed.out).map((s) => d1.prepare(s)));
    // A second key for the same user reuses the user and its space.
    const again = run(['bun', 'adapters/cli.ts', 'keys', 'create', '--user', 'alice', '--print-sql']);
    await d1.batch(statements(again.out).map((s) => d1.prepare(s)));
    const users = await d1
      .prepare(
        'SELECT u.handle, (SELECT count(*) FROM spaces s WHERE s.owner_id = u.id) AS spaces, (SELECT count(*) FROM api_keys k WHERE k.user_id = u.id) AS keys FROM users u',
      )
      .all();
    expect(users.results).toEqual([{ handle: 'alice', spaces: 1, keys: 2 }]);

    expect((await fetch(`${url}/mcp`, { method: 'POST', headers: { Authorization: 'Bearer bdk_nope' } })).status).toBe(401);
    const client = await httpClient(url, key, 'd1-deploy');
    try {
      const tools = await client.listTools();
      expect(tools.tools.length).toBe(29);
      const made = (await client.callTool({
        name: 'create_binding',
        arguments: { name: 'Deploy notes', content: '# Deploy\n\nThe quokkaphant runs on D1.\n', summary: 'How we deploy.' },
      })) as unknown as { isError?: boolean; structuredContent: { binding: { id: string; space: string } } };
      expect(made.isError).toBeFalsy();
      expect(made.structuredContent.binding.space).toBe('@alice');
      const found = (await client.callTool({ name: 'search_bindings', arguments: { query: 'quokkaphant' } })) as unknown as {
        structuredContent: { results: { id: string }[] };
      };
      expect(found.structuredContent.results.map((r) => r.id)).toEqual([made.structuredContent.binding.id]);
    } finally {
      await client.close();
    }
  });
});
