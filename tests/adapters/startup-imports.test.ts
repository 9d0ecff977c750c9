// What the stdio server's start-up loads: an embedded database needs none of @libsql/client's remote
// protocols (hrana over HTTP and WebSocket, ~45 modules), so they load only for a remote URL. Checked
// in a fresh process, since modules other test files loaded would show here too.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { createDatabase } from '../../db/client.ts';

const ROOT = join(import.meta.dir, '..', '..');

/** The node_modules files a fresh process has loaded after importing `module`. */
function loadedAfterImport(module: string): string[] {
  const script = `await import(${JSON.stringify(join(ROOT, module))}); console.log(JSON.stringify(Object.keys(require.cache)));`;
  const run = Bun.spawnSync([process.execPath, '-e', script], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } });
  expect(run.exitCode).toBe(0);
  return (JSON.parse(run.stdout.toString()) as string[]).filter((path) => path.includes('node_modules'));
}

describe('stdio start-up imports', () => {
  test('the stdio server and its runtime load no remote database protocol', () => {
    const loaded = loadedAfterImport('adapters/stdio.ts');
    expect(loaded.some((path) => path.includes('drizzle-orm'))).toBe(true);
    expect(loaded.filter((path) => /@libsql\/hrana-client|@libsql\/client\/lib-esm\/(node|http|ws)\.js/.test(path))).toEqual([]);
  });

  test('a remote URL still opens @libsql/client (no connection is made until a query)', () => {
    const database = createDatabase({ url: 'http://127.0.0.1:9' });
    expect(database.client.protocol).toBe('http');
    database.close();
  });
});
