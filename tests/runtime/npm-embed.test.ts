// A Node 20 + npm embedder with no Bun anywhere: Bindery's working tree copied to a temp folder,
// `npm install` there (the `prepare` script builds dist/ with Node), then a separate app folder
// depends on it by path and by git URL (`git+file://`) and runs tests/fixtures/npm-embed.mjs under
// Node. A `bun` first on PATH that fails proves nothing calls Bun. Real npm, real registry (offline
// cache first). Measured on the shared 2-core machine: the path form about 37 s, the git form about
// 38 s more (npm installs every devDependency in its own clone), so the git form runs only when
// CI=true or BINDERY_TEST_NPM_GIT=1.
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../support/targets.ts';
import { npmEnv, snapshotTree } from './snapshot.ts';

const work = mkdtempSync(join(tmpdir(), 'bindery-npm-'));
const shims = join(work, 'shims');
mkdirSync(shims);
writeFileSync(join(shims, 'bun'), '#!/bin/sh\necho "bun was called: $*" >&2\nexit 127\n');
chmodSync(join(shims, 'bun'), 0o755);
const env = npmEnv(
  `${shims}:${(process.env.PATH ?? '')
    .split(':')
    .filter((p) => !p.includes('.bun'))
    .join(':')}`,
  process.env.HOME ?? work,
);

async function sh(cmd: string[], cwd: string): Promise<string> {
  const proc = Bun.spawn(cmd, { cwd, env, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${cmd.join(' ')} (in ${cwd}) exited ${code}:\n${err.slice(-3000)}`);
  return out;
}

/** The working tree as a fresh git repository (./snapshot.ts). */
async function snapshot(): Promise<string> {
  return snapshotTree(join(work, 'bindery'));
}

/** An app folder that depends on `spec` (and the SDK, which it uses itself), then runs the fixture. */
async function embedWith(name: string, spec: string): Promise<Record<string, unknown>> {
  const app = join(work, name);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }));
  await sh(['npm', 'install', spec, '@modelcontextprotocol/sdk@^1.32.2'], app);
  copyFileSync(join(ROOT, 'tests', 'fixtures', 'npm-embed.mjs'), join(app, 'main.mjs'));
  const out = await sh(['node', 'main.mjs'], app);
  return JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>;
}

function expectRoundTrip(result: Record<string, unknown>): void {
  expect(result.node).toMatch(/^v\d+\./);
  expect(result.server).toBe('bindery');
  expect(result.applied).toBeGreaterThan(0);
  expect(result.tools).toBe(29);
  expect(result.made).toMatch(/^bnd_/);
  expect(result.found).toEqual([result.made]);
  expect(result.healthz).toBe(200);
}

let pkg: string;
afterAll(() => rmSync(work, { recursive: true, force: true }), 120_000);

describe('Node + npm embed Bindery without Bun', () => {
  test('npm install in a clone builds dist/ with Node; an app installs it by path and runs MCP in process', async () => {
    pkg = await snapshot();
    await sh(['npm', 'install'], pkg);
    expect(await Bun.file(join(pkg, 'dist', 'core', 'index.js')).exists()).toBe(true);
    expectRoundTrip(await embedWith('app-path', pkg));
  }, 240_000);

  const git = process.env.CI === 'true' || process.env.BINDERY_TEST_NPM_GIT === '1';
  test.skipIf(!git)(
    'an app installs it from a git URL (git+file://): npm runs prepare, packs dist/ and installs the dependencies',
    async () => {
      pkg ??= await snapshot();
      expectRoundTrip(await embedWith('app-git', `git+file://${pkg}`));
    },
    400_000,
  );
});
