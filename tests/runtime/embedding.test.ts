import { beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { denoBinary, denoUnavailable } from '../adapters/targets.ts';
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

describe('embedding bindery/core, bindery/db and bindery/edge (CONTRACT §9)', () => {
  beforeAll(() => {
    // Node cannot load TypeScript: it uses dist/, which the `prepare` script builds with Node (npm install or bun install).
    // Rebuild here so the test always checks the current sources.
    const built = Bun.spawnSync(['node', 'scripts/build-dist.mjs'], { cwd: ROOT });
    if (built.exitCode !== 0) throw new Error(built.stderr.toString());
  });

  test('Node imports the built package and serves a real MCP client', async () => {
    await expectEmbeds(['node', SCRIPT]);
  });

  test('Bun imports the TypeScript sources directly', async () => {
    await expectEmbeds(['bun', SCRIPT]);
  });

  test('Deno imports the TypeScript sources directly', async () => {
    const why = denoUnavailable();
    if (why) {
      console.log(`skipped: ${why}`);
      return;
    }
    await expectEmbeds([denoBinary()!, 'run', '-A', '--no-lock', SCRIPT]);
  });
});
