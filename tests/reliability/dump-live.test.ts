// `bindery dump` beside a live server under write load (tests/db/dump.test.ts in process): the dump is one consistent
// snapshot (every binding with exactly its versions 1..current, counts as the trailer says), the
// writers never fail because of it, and it restores whole.
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, createKey, httpClient, startServer, writeCorpus } from '../../support/procs.ts';

const dir = mkdtempSync(join(tmpdir(), 'bindery-dump-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a dump taken while a server writes is a consistent snapshot and restores whole', async () => {
  const env = { BINDERY_DB_URL: `file:${join(dir, 'live.db')}`, BINDERY_USER: 'erin' };
  writeCorpus(join(dir, 'corpus'), 300, 'live');
  expect((await cli(['import', join(dir, 'corpus')], env)).code).toBe(0);
  const key = await createKey(env, 'erin');
  const server = await startServer(env);
  let stop = false;
  let failures = 0;
  let written = 0;
  const writer = async (w: number) => {
    const client = await httpClient(server.url, key, `writer-${w}`);
    for (let i = 0; !stop; i++) {
      const created = await client.callTool({
        name: 'create_binding',
        arguments: { name: `live w${w} n${i}`, content: `# n${i}\n\nbody ${i}\n`, summary: 's' },
      });
      if (created.isError) failures++;
      else {
        written++;
        const id = (created.structuredContent as { binding: { id: string } }).binding.id;
        // A second version, so a torn read would show a binding whose versions do not match it.
        if ((await client.callTool({ name: 'update_binding', arguments: { id, content: `# n${i}\n\nv2\n`, expectedVersion: 1 } })).isError)
          failures++;
      }
    }
    await client.close();
  };
  const writers = [0, 1].map(writer);
  await Bun.sleep(300);
  const file = join(dir, 'live.jsonl');
  const dumped = await cli(['dump', file], env);
  stop = true;
  await Promise.all(writers);
  await server.stop();
  expect(dumped.code).toBe(0);
  expect(failures).toBe(0);
  expect(written).toBeGreaterThan(0);

  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const trailer = JSON.parse(lines.at(-1)!);
  // Rebuild bindings and versions from the file: every binding has exactly versions 1..current.
  let table = '';
  let columns: string[] = [];
  const current = new Map<string, number>();
  const versions = new Map<string, number[]>();
  for (const line of lines.slice(1, -1)) {
    const v = JSON.parse(line);
    if (!Array.isArray(v)) [table, columns] = [v.table, v.columns];
    else if (table === 'bindings') current.set(v[columns.indexOf('id')], v[columns.indexOf('current_version')]);
    else if (table === 'versions')
      versions.set(v[columns.indexOf('binding_id')], [
        ...(versions.get(v[columns.indexOf('binding_id')]) ?? []),
        v[columns.indexOf('number')],
      ]);
  }
  expect(current.size).toBe(trailer.rows.bindings);
  expect(current.size).toBeGreaterThan(300);
  // Writes went on after the snapshot was taken (the dump did not stop them).
  const after = await cli(['dump', '-'], env);
  expect(JSON.parse(after.stdout.trim().split('\n').at(-1)!).rows.bindings).toBeGreaterThan(current.size);
  for (const [id, n] of current)
    expect([...(versions.get(id) ?? [])].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));

  const target = { BINDERY_DB_URL: `file:${join(dir, 'restored.db')}` };
  expect((await cli(['restore', file], target)).code).toBe(0);
  expect((await cli(['dump', '-'], target)).stdout).toBe(readFileSync(file, 'utf8'));
}, 120_000);
