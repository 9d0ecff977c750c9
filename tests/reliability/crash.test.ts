// kill -9 of an import and of a server at random points: the database stays intact and consistent,
// nothing acknowledged is lost, and a rerun finishes the job.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '../../db/index.ts';
import { cli, cliChild, createKey, httpClient, startServer, writeCorpus } from '../../support/procs.ts';

const dir = mkdtempSync(join(tmpdir(), 'bindery-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Integrity, and the invariants the store keeps: versions contiguous, the index = live current versions. */
async function checkConsistent(url: string): Promise<{ live: number }> {
  const d = createDatabase({ url });
  const q = async (sql: string) => (await d.client.execute(sql)).rows as unknown as Record<string, unknown>[];
  expect((await q('PRAGMA integrity_check'))[0]![Object.keys((await q('PRAGMA integrity_check'))[0]!)[0]!]).toBe('ok');
  // Every binding's current version exists, and its versions are exactly 1..current.
  expect(
    await q(`SELECT b.id FROM bindings b WHERE (SELECT count(*) FROM versions v WHERE v.binding_id = b.id) != b.current_version
      OR NOT EXISTS (SELECT 1 FROM versions v WHERE v.binding_id = b.id AND v.number = b.current_version)`),
  ).toEqual([]);
  // The full-text index holds exactly the live bindings, each with its current content.
  const live = Number((await q('SELECT count(*) AS n FROM bindings WHERE deleted_at IS NULL'))[0]!.n);
  expect(Number((await q('SELECT count(*) AS n FROM bindings_fts'))[0]!.n)).toBe(live);
  // The index is contentless (no text to compare): its rows are exactly the live bindings' rowids
  // (tests/reliability/races.test.ts checks that a row holds the current version's words).
  expect(
    await q(`SELECT b.id FROM bindings b LEFT JOIN bindings_fts f ON f.rowid = b.rowid WHERE b.deleted_at IS NULL AND f.rowid IS NULL`),
  ).toEqual([]);
  expect(
    await q(`SELECT f.rowid FROM bindings_fts f LEFT JOIN bindings b ON b.rowid = f.rowid AND b.deleted_at IS NULL WHERE b.rowid IS NULL`),
  ).toEqual([]);
  d.close();
  return { live };
}

describe('kill -9', () => {
  test('an import killed at random points: intact, consistent, and a rerun imports every file exactly once', async () => {
    const url = `file:${join(dir, 'import.db')}`;
    const corpus = join(dir, 'corpus');
    writeCorpus(corpus, 400, 'crash');
    const env = { BINDERY_DB_URL: url, BINDERY_USER: 'carol' };
    expect((await cli(['migrate'], env)).code).toBe(0);
    const partial: number[] = [];
    for (const after of [400, 900, 1500]) {
      const child = cliChild(['import', corpus], env);
      await Bun.sleep(after + Math.floor(Math.random() * 200));
      child.kill('SIGKILL');
      await child.exited;
      partial.push((await checkConsistent(url)).live);
    }
    // The kills landed mid-import (some files in, not all), or the test proves nothing.
    expect(partial.some((n) => n > 0 && n < 400)).toBe(true);
    const rerun = await cli(['import', corpus], env);
    expect(rerun.code).toBe(0);
    const { live } = await checkConsistent(url);
    const files = readdirSync(corpus, { recursive: true }).filter((f) => String(f).endsWith('.md')).length;
    expect(live).toBe(files);
    // Imports are idempotent: once more changes nothing.
    expect((await cli(['import', corpus], env)).stdout).toMatch(/0 created, 0 updated/);
  }, 180_000);

  test('a server killed under write load: every acknowledged write is there after a restart', async () => {
    const url = `file:${join(dir, 'server.db')}`;
    const env = { BINDERY_DB_URL: url };
    const key = await createKey(env, 'dave');
    const server = await startServer(env);
    const acknowledged: { id: string; content: string }[] = [];
    const writer = async (w: number) => {
      const client = await httpClient(server.url, key, `writer-${w}`);
      try {
        for (let i = 0; ; i++) {
          const content = `# w${w} n${i}\n\nwritten before the crash.\n`;
          const r = await client.callTool({ name: 'create_binding', arguments: { name: `w${w} n${i}`, content, summary: 'x' } });
          if (!r.isError) acknowledged.push({ id: (r.structuredContent as { binding: { id: string } }).binding.id, content });
        }
      } catch {
        // the server died mid-request: that write was never acknowledged
      }
    };
    const writers = [0, 1, 2].map(writer);
    await Bun.sleep(800 + Math.floor(Math.random() * 400));
    server.proc.kill('SIGKILL');
    await server.proc.exited;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(5);
    await checkConsistent(url);
    const d = createDatabase({ url });
    for (const a of acknowledged) {
      const rows = (
        await d.client.execute({ sql: 'SELECT v.content FROM versions v WHERE v.binding_id = ? AND v.number = 1', args: [a.id] })
      ).rows;
      expect(rows[0]?.content).toBe(a.content);
    }
    d.close();
    // And it serves again on the same file.
    const again = await startServer(env);
    const client = await httpClient(again.url, key);
    const listed = await client.callTool({ name: 'list_bindings', arguments: { limit: 5 } });
    expect(listed.isError).toBeFalsy();
    await client.close();
    await again.stop();
  }, 120_000);
});
