import { beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { denoBinary, denoUnavailable, freePort, httpClient, seededFile, waitHealthy } from '../../support/targets.ts';
import { testCounter } from '../helpers.ts';

const ROOT = join(import.meta.dir, '..', '..');
const SCRIPT = join(ROOT, 'tests', 'fixtures', 'embed.mjs');

/** Runs the embedding script under a runtime and checks what it printed. */
async function expectEmbeds(cmd: string[]) {
  const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [out, errText, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${cmd[0]} exited ${code}: ${errText.slice(0, 2000)}`);
  const result = JSON.parse(out.trim().split('\n').pop()!) as { text: string; tokens: number; content: string; edgeStatus: number };
  expect(result.content).toBe('Hello from an embedder.');
  expect(result.tokens).toBe((await testCounter()).count(result.text));
  expect(result.edgeStatus).toBe(404);
}

describe('embedding bindery/core, bindery/db and bindery/edge (package.json exports)', () => {
  beforeAll(() => {
    // Node cannot load TypeScript: it uses dist/, which the `prepare` script builds with Node (npm install or bun install).
    // Rebuild here so the test always checks the current sources.
    const built = Bun.spawnSync(['node', 'scripts/build-dist.mjs'], { cwd: ROOT });
    if (built.exitCode !== 0) throw new Error(built.stderr.toString());
  }, 60_000);

  test('Node imports the built package and serves a real MCP client', async () => {
    await expectEmbeds(['node', SCRIPT]);
  }, 30_000);

  test('Bun imports the TypeScript sources directly', async () => {
    await expectEmbeds(['bun', SCRIPT]);
  }, 30_000);

  test('Deno imports the TypeScript sources directly', async () => {
    const why = denoUnavailable();
    if (why) {
      console.log(`skipped: ${why}`);
      return;
    }
    await expectEmbeds([denoBinary()!, 'run', '-A', '--no-lock', SCRIPT]);
  }, 30_000);
});

/** What the README tells a Deno embedder to write: a deno.json and a script importing the sources by file: URL. */
function writeDenoEmbedder(dir: string): void {
  const src = (p: string) => pathToFileURL(join(ROOT, p)).href;
  writeFileSync(join(dir, 'deno.json'), JSON.stringify({ nodeModulesDir: 'manual' }, null, 2));
  writeFileSync(
    join(dir, 'main.ts'),
    `import { parseConfig, createBinderyServer } from '${src('core/index.ts')}';
import { createDatabase, migrate } from '${src('db/index.ts')}';
import { createFetchHandler } from '${src('adapters/edge.ts')}';

const env = Deno.env.toObject();
const { db } = createDatabase({ url: parseConfig(env).dbUrl });
await migrate(db);
if (typeof createBinderyServer !== 'function') throw new Error('bindery/core did not load');
const handler = createFetchHandler({ env, database: () => db });
Deno.serve({ hostname: '127.0.0.1', port: Number(env.PORT) }, (request) => handler(request));
`,
  );
}

describe('Deno embeds Bindery from a folder outside the repo (no --sloppy-imports)', () => {
  test('core + db + edge by file: URL; a real SDK client does initialize, tools/list, create_binding, search_bindings', async () => {
    const why = denoUnavailable();
    if (why) {
      console.log(`skipped: ${why}`);
      return;
    }
    const app = mkdtempSync(join(tmpdir(), 'bindery-deno-embedder-'));
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const { dir, dbUrl, seed } = await seededFile(url);
    writeDenoEmbedder(app);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? app,
      DENO_NO_UPDATE_CHECK: '1',
      NO_COLOR: '1',
      BINDERY_DB_URL: dbUrl,
      BINDERY_PUBLIC_URL: url,
      PORT: String(port),
    };
    const proc = Bun.spawn([denoBinary()!, 'run', '-A', 'main.ts'], { cwd: app, env, stdout: 'ignore', stderr: 'pipe' });
    try {
      await waitHealthy(url, 30_000, proc).catch(async (e) => {
        proc.kill();
        throw new Error(`${(e as Error).message}\n${await new Response(proc.stderr).text()}`);
      });
      const client = await httpClient(url, seed.aliceKey, 'deno-embedder');
      expect(client.getServerVersion()?.name).toBe('bindery');
      expect((await client.listTools()).tools).toHaveLength(29);
      const made = (await client.callTool({
        name: 'create_binding',
        arguments: { name: 'From Deno', content: '# Notes\n\nThe wombatron lives here.\n', summary: 'Deno embedder.' },
      })) as unknown as { isError?: boolean; structuredContent: { binding: { id: string } } };
      expect(made.isError).toBeFalsy();
      const found = (await client.callTool({ name: 'search_bindings', arguments: { query: 'wombatron' } })) as unknown as {
        structuredContent: { results: { id: string }[] };
      };
      expect(found.structuredContent.results.map((r) => r.id)).toEqual([made.structuredContent.binding.id]);
      await client.close();
    } finally {
      proc.kill();
      await proc.exited;
      rmSync(app, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
