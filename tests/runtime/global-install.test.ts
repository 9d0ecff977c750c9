// `bindery` as a command: a fresh clone (no node_modules, no dist) installed globally with
// npm into a temp prefix, the way the README says, then `<prefix>/bin/bindery` run by a real MCP
// client over stdio. npm runs the package's `prepare` with Node before any devDependency is there,
// and links the folder without installing its dependencies: the bin shim (bin/bindery.js) installs
// them with Bun on first run. Measured on the shared 2-core machine: about 7 s. The git-URL forms
// (`npm i -g`, `npx`, `bunx`) install every devDependency in their own clone (about 60 + 40 + 20 s;
// 235 s in all on a loaded machine),
// so they run only when CI=true or BINDERY_TEST_NPM_GIT=1.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { npmEnv, snapshotTree } from './snapshot.ts';

const work = mkdtempSync(join(tmpdir(), 'bindery-global-'));
const env = npmEnv(process.env.PATH ?? '', process.env.HOME ?? work);

function run(cmd: string[], cwd: string, extra: Record<string, string> = {}): { code: number; out: string; err: string } {
  const p = Bun.spawnSync(cmd, { cwd, env: { ...env, ...extra }, stdout: 'pipe', stderr: 'pipe' });
  return { code: p.exitCode ?? -1, out: p.stdout.toString(), err: p.stderr.toString() };
}

function ok(cmd: string[], cwd: string): string {
  const r = run(cmd, cwd);
  if (r.code !== 0) throw new Error(`${cmd.join(' ')} exited ${r.code}:\n${r.err.slice(-3000)}`);
  return r.out;
}

/** Connects the SDK client to `<bin> stdio` on a temp database and calls whoami (with what the server said on stderr). */
async function whoami(bin: string): Promise<string> {
  const dir = mkdtempSync(join(work, 'run-'));
  const transport = new StdioClientTransport({
    command: bin,
    args: ['stdio'],
    env: { ...env, BINDERY_DB_URL: `file:${join(dir, 'bindery.db')}` },
    cwd: dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'global-install', version: '1' });
  await client.connect(transport);
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  await client.close();
  return `${JSON.stringify(result.structuredContent)}\n${stderr}`;
}

let clone: string;
// Three installs' node_modules and caches: removing them takes a while on a loaded machine.
afterAll(() => rmSync(work, { recursive: true, force: true }), 240_000);

describe('bindery as a command after a global install', () => {
  test('npm i -g <fresh clone> puts bindery on the prefix PATH; --help answers and stdio serves a real client', async () => {
    clone = snapshotTree(join(work, 'clone'));
    const prefix = join(work, 'prefix');
    ok(['npm', 'i', '-g', '--prefix', prefix, clone], work);
    const bin = join(prefix, 'bin', 'bindery');
    const help = run([bin, '--help'], work);
    expect(help.code).toBe(0);
    expect(help.err).toContain('usage: bindery <command>');
    expect(help.err).toContain('connect <client>');
    const served = await whoami(bin);
    expect(served).toContain('"handle":"local"');
    // The first run installed the dependencies and built the pre-built stdio server, which then served.
    expect(served).toContain('o200k_base, pre-built)');
  }, 180_000);

  test('with no Bun to run it, the command says so in one line and exits 127', () => {
    clone ??= snapshotTree(join(work, 'clone'));
    const r = run(['node', join(clone, 'bin', 'bindery.js'), '--help'], work, { BINDERY_BUN: join(work, 'no-such-bun') });
    expect(r.code).toBe(127);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain('needs Bun');
  });

  // Only on request (BINDERY_TEST_NPM_GIT=1): npm's preparation of a git dependency under
  // `-g --install-links` failed with ENOTEMPTY inside its own scratch folder in two of three clean-clone
  // CI runs on the shared 2-core machine (retrying into a fresh prefix failed the same way), and the
  // three installs take about four minutes. The path install above runs everywhere.
  const git = process.env.BINDERY_TEST_NPM_GIT === '1';
  // --install-links: npm 11 links a git+file:// package to its temporary clone, which it then deletes
  // (the bin dangles); with it npm packs and copies, as it does for a git+https URL.
  test.skipIf(!git)(
    'from a git URL: npm i -g --install-links git+file://…, npx --package … and bunx --package … all run bindery',
    async () => {
      clone ??= snapshotTree(join(work, 'clone'));
      const url = `git+file://${clone}`;
      const prefix = join(work, 'prefix-git');
      ok(['npm', 'i', '-g', '--install-links', '--prefix', prefix, url], work);
      expect(await whoami(join(prefix, 'bin', 'bindery'))).toContain('"handle":"local"');
      const cache = join(work, 'npx-cache');
      mkdirSync(cache);
      const npx = run(['npx', '--yes', '--install-links', '--cache', cache, '--package', url, 'bindery', '--help'], work);
      expect(npx.err).toContain('usage: bindery <command>');
      expect(npx.code).toBe(0);
      const bunx = run(['bunx', '--bun', '--package', url, 'bindery', '--help'], work, { BUN_INSTALL_CACHE_DIR: join(work, 'bun-cache') });
      expect(bunx.err).toContain('usage: bindery <command>');
      expect(bunx.code).toBe(0);
    },
    400_000,
  );
});
