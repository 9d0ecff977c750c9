// `bindery sync` as real processes on one database file: killed with SIGKILL mid-sync and run again
// (it finishes the job: one binding per file, nothing duplicated); beside a running `serve` whose
// clients edit over HTTP meanwhile; and `--watch` picking up an edit in the folder and an assistant's
// edit in the database. Waits are bounded and poll for the result; nothing asserts a duration.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { cli, cliChild, createKey, httpClient, parts, startServer, writeCorpus } from '../../support/procs.ts';

const base = mkdtempSync(join(tmpdir(), 'bindery-sync-procs-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Polls `probe` until it returns a value (bounded); fails with `what` when it never does. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await Bun.sleep(25);
  }
}

/** An independent reader of the database file (the libSQL client, not Bindery's). */
function reader(dbFile: string) {
  const c = createClient({ url: `file:${dbFile}` });
  return {
    async n(q: string, args: (string | number)[] = []) {
      try {
        return Number((await c.execute({ sql: q, args })).rows[0]![0]);
      } catch {
        return -1; // not created yet
      }
    },
    async contents(): Promise<string[]> {
      const r = await c.execute(
        'SELECT v.content FROM bindings b JOIN versions v ON v.binding_id = b.id AND v.number = b.current_version WHERE b.deleted_at IS NULL',
      );
      return r.rows.map((row) => String(row[0]));
    },
    async id(q: string) {
      return String((await c.execute(q)).rows[0]![0]);
    },
    close: () => c.close(),
  };
}

const ZERO = /0 created, 0 updated, 0 renamed, 0 deleted, 0 written to the folder, 0 removed from the folder, 0 conflicts, 0 skipped/;

describe('bindery sync as a process', () => {
  test('killed with SIGKILL mid-sync, the next run finishes the job: one binding per file, nothing duplicated', async () => {
    const dir = join(base, 'kill');
    const dbFile = join(base, 'kill.db');
    const files = 600;
    writeCorpus(dir, files, 'k');
    const env = { BINDERY_DB_URL: `file:${dbFile}` };
    const db = reader(dbFile);
    try {
      const child = cliChild(['sync', dir], env);
      const atKill = await until('the first bindings', async () => {
        const n = await db.n('SELECT count(*) FROM bindings');
        return n > 0 ? n : undefined;
      });
      child.kill('SIGKILL');
      expect(await child.exited).not.toBe(0);
      expect(atKill).toBeLessThan(files);
      const rerun = await cli(['sync', dir], env);
      expect(rerun.code).toBe(0);
      expect(await db.n('SELECT count(*) FROM bindings WHERE deleted_at IS NULL')).toBe(files);
      expect(await db.n('SELECT count(*) FROM sync_files')).toBe(files);
      const contents = await db.contents();
      expect(new Set(contents).size).toBe(files);
      expect(contents).toContain(readFileSync(join(dir, 'part-7', 'k-7.md'), 'utf8'));
      const third = await cli(['sync', dir], env);
      expect(third.stdout).toMatch(ZERO);
    } finally {
      db.close();
    }
  }, 120_000);

  test('beside a running serve on the same file: syncs while HTTP clients write, and writes their edits back', async () => {
    const dir = join(base, 'serve');
    const dbFile = join(base, 'serve.db');
    writeCorpus(dir, 200, 's');
    const env = { BINDERY_DB_URL: `file:${dbFile}`, BINDERY_USER: 'local' };
    const key = await createKey(env, 'local');
    const server = await startServer(env);
    const client = await httpClient(server.url, key, 'sync-neighbour');
    try {
      const note = parts(
        (await client.callTool({
          name: 'create_binding',
          arguments: { name: 'Busy note', content: 'v0', summary: 'Edited while sync runs.' },
        })) as never,
      );
      const noteId = (note.context.binding as { id: string }).id;
      let edits = 0;
      let syncing = true;
      const writer = (async () => {
        while (syncing) {
          const r = (await client.callTool({ name: 'update_binding', arguments: { id: noteId, content: `v${++edits}` } })) as {
            isError?: boolean;
          };
          expect(r.isError).toBeFalsy();
        }
      })();
      const first = await cli(['sync', dir], env);
      syncing = false;
      await writer;
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/200 created/);
      expect(edits).toBeGreaterThan(0);
      // An assistant edits a synced binding over HTTP; the next sync writes it to the file.
      const found = (await client.callTool({ name: 'search_bindings', arguments: { query: 'zqs42' } })) as unknown as {
        structuredContent: { results: { id: string }[] };
      };
      const id = found.structuredContent.results[0]!.id;
      const edited = '# s 42\n\nRewritten by an assistant over HTTP.\n';
      const upd = (await client.callTool({ name: 'update_binding', arguments: { id, content: edited } })) as { isError?: boolean };
      expect(upd.isError).toBeFalsy();
      const second = await cli(['sync', dir], env);
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(/written to the folder/);
      expect(readFileSync(join(dir, 'part-2', 's-42.md'), 'utf8')).toBe(edited);
      // The binding made over HTTP in the same space got a file too, at its last version.
      expect(readFileSync(join(dir, 'busy-note.md'), 'utf8')).toContain(`v${edits}`);
      const healthy = await fetch(`${server.url}/healthz`);
      expect(healthy.status).toBe(200);
    } finally {
      await client.close();
      await server.stop();
    }
  }, 120_000);

  test('--watch picks up an edit in the folder and an edit made in Bindery, and stops on SIGTERM', async () => {
    const dir = join(base, 'watch');
    const dbFile = join(base, 'watch.db');
    writeCorpus(dir, 5, 'w');
    const env = { BINDERY_DB_URL: `file:${dbFile}`, BINDERY_USER: 'local' };
    const child = cliChild(['sync', dir, '--watch'], env);
    let err = '';
    const pump = (async () => {
      const dec = new TextDecoder();
      const r = child.stderr.getReader();
      for (let c = await r.read(); !c.done; c = await r.read()) err += dec.decode(c.value);
    })();
    const db = reader(dbFile);
    try {
      await until('the watcher to start', async () => (/watching .* for changes/.test(err) ? true : undefined));
      const file = join(dir, 'part-3', 'w-3.md');
      writeFileSync(file, '# w 3\n\nEdited while watched.\n');
      await until('the edit to become a version', async () =>
        (await db.n("SELECT count(*) FROM versions WHERE content = '# w 3\n\nEdited while watched.\n' AND source = 'human'")) === 1
          ? true
          : undefined,
      );
      // An edit made in Bindery by another process (an assistant over a running serve) reaches the
      // folder without any folder event: the watcher polls the database.
      const id = await until('the binding id', async () => {
        const n = await db.n("SELECT count(*) FROM sync_files WHERE path = 'part-1/w-1.md'");
        return n === 1 ? db.id("SELECT binding_id FROM sync_files WHERE path = 'part-1/w-1.md'") : undefined;
      });
      const key = await createKey(env, 'local');
      const server = await startServer(env);
      const client = await httpClient(server.url, key, 'watch-neighbour');
      try {
        const r = (await client.callTool({ name: 'update_binding', arguments: { id, content: '# w 1\n\nFrom an assistant.\n' } })) as {
          isError?: boolean;
        };
        expect(r.isError).toBeFalsy();
        await until('the assistant edit in the file', async () =>
          readFileSync(join(dir, 'part-1', 'w-1.md'), 'utf8') === '# w 1\n\nFrom an assistant.\n' ? true : undefined,
        );
      } finally {
        await client.close();
        await server.stop();
      }
      child.kill('SIGTERM');
      expect(await child.exited).toBe(0);
      await pump;
    } finally {
      child.kill('SIGKILL');
      db.close();
    }
  }, 120_000);
});
