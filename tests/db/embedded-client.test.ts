import { afterAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { createDatabase } from '../../db/index.ts';
import { EmbeddedClient } from '../../db/embedded-client.ts';
import { embeddedPath } from '../../db/client.ts';

const dir = mkdtempSync(join(tmpdir(), 'bindery-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fileUrl = (name: string) => `file:${join(dir, name)}`;

describe('the embedded libSQL client', () => {
  test('file and memory URLs get it; remote URLs do not', () => {
    const { client, close } = createDatabase({ url: ':memory:' });
    expect(client).toBeInstanceOf(EmbeddedClient);
    close();
    expect(embeddedPath('file:./data/x.db')).toBe('./data/x.db');
    expect(embeddedPath('file:///tmp/a%20b.db')).toBe('/tmp/a b.db');
    expect(embeddedPath('file:/tmp/x.db?mode=rwc')).toBe('/tmp/x.db');
    expect(embeddedPath('libsql://db.example.org')).toBeUndefined();
    expect(embeddedPath('https://db.example.org')).toBeUndefined();
  });

  test('statements are prepared once per connection and reused (the cache is live, not inert)', async () => {
    const { client, close } = createDatabase({ url: ':memory:' });
    const c = client as EmbeddedClient;
    await c.execute('CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER)');
    for (let i = 0; i < 50; i++) await c.execute({ sql: 'INSERT INTO kv (k, v) VALUES (?, ?)', args: [`k${i}`, i] });
    const before = { ...c.stats };
    for (let i = 0; i < 50; i++) {
      const r = await c.execute({ sql: 'SELECT v FROM kv WHERE k = ?', args: [`k${i}`] });
      expect(r.rows[0]!.v).toBe(i);
    }
    expect(c.stats.prepared - before.prepared).toBe(1);
    expect(c.stats.cacheHits - before.cacheHits).toBe(49);
    close();
  });

  test('libsql itself is not patched: other users of the package see it as shipped', () => {
    const proto = (Database as unknown as { prototype: Record<string, unknown> }).prototype;
    const prepare = proto.prepare;
    const exec = proto.exec;
    const { close } = createDatabase({ url: ':memory:' });
    close();
    expect(proto.prepare).toBe(prepare);
    expect(proto.exec).toBe(exec);
    const raw = new Database(':memory:');
    expect(raw.prepare('SELECT 1')).not.toBe(raw.prepare('SELECT 1'));
    raw.close();
  });

  test('the libsql version it relies on is pinned exactly and installed', () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dir, '../../package.json'), 'utf8'));
    const installed = JSON.parse(readFileSync(require.resolve('libsql/package.json'), 'utf8')).version;
    expect(pkg.dependencies.libsql).toBe(installed);
  });

  test('a batch is atomic; cached statements keep working after a failed one', async () => {
    const { client, close } = createDatabase({ url: ':memory:' });
    await client.execute('CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER)');
    await client.execute({ sql: 'INSERT INTO kv (k, v) VALUES (?, ?)', args: ['k3', 3] });
    const batch = await client.batch([
      { sql: 'UPDATE kv SET v = v + 100 WHERE k = ?', args: ['k3'] },
      { sql: 'SELECT v FROM kv WHERE k = ?', args: ['k3'] },
    ]);
    expect(batch[0]!.rowsAffected).toBe(1);
    expect(batch[1]!.rows[0]!.v).toBe(103);
    await expect(
      client.batch([
        { sql: 'UPDATE kv SET v = 0 WHERE k = ?', args: ['k3'] },
        { sql: 'INSERT INTO kv (k, v) VALUES (?, ?)', args: ['k3', 1] },
      ]),
    ).rejects.toThrow(/UNIQUE/);
    expect((await client.execute({ sql: 'SELECT v FROM kv WHERE k = ?', args: ['k3'] })).rows[0]!.v).toBe(103);
    close();
  });

  test('another connection changing the schema empties the cache; rows show the new columns', async () => {
    const url = fileUrl('schema.db');
    const a = createDatabase({ url });
    const b = createDatabase({ url });
    await a.client.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    await a.client.execute("INSERT INTO t (id, v) VALUES (1, 'x')");
    expect(Object.keys((await a.client.execute('SELECT * FROM t')).rows[0]!)).toEqual(['id', 'v']);
    await b.client.execute('ALTER TABLE t ADD COLUMN w TEXT');
    const resets = (a.client as EmbeddedClient).stats.schemaResets;
    expect(Object.keys((await a.client.execute('SELECT * FROM t')).rows[0]!)).toEqual(['id', 'v', 'w']);
    expect((a.client as EmbeddedClient).stats.schemaResets).toBe(resets + 1);
    a.close();
    b.close();
  });

  test('file databases run in WAL with a busy timeout', async () => {
    const { client, close } = createDatabase({ url: fileUrl('wal.db') });
    expect((await client.execute('PRAGMA journal_mode')).rows[0]![0]).toBe('wal');
    expect(Number((await client.execute('PRAGMA busy_timeout')).rows[0]![0])).toBeGreaterThan(0);
    close();
  });

  test('a closed database is whole in its one file: the WAL is folded in at close', async () => {
    const file = join(dir, 'close.db');
    const { client, close } = createDatabase({ url: `file:${file}` });
    await client.execute('CREATE TABLE t (v TEXT)');
    await client.execute({ sql: 'INSERT INTO t (v) VALUES (?)', args: ['kept'] });
    close();
    const copy = join(dir, 'close-copy.db');
    copyFileSync(file, copy);
    const reopened = createDatabase({ url: `file:${copy}` });
    expect((await reopened.client.execute('SELECT v FROM t')).rows[0]!.v).toBe('kept');
    reopened.close();
  });

  test("a writer waits for another connection's write transaction instead of failing; readers never wait", async () => {
    const url = fileUrl('busy.db');
    const a = createDatabase({ url });
    const b = createDatabase({ url });
    await a.client.execute('CREATE TABLE n (i INTEGER)');
    const tx = await a.client.transaction('write');
    await tx.execute('INSERT INTO n (i) VALUES (1)');
    // b reads the last committed state at once, while a holds the write lock.
    expect((await b.client.execute('SELECT count(*) AS c FROM n')).rows[0]!.c).toBe(0);
    const write = b.client.batch([{ sql: 'INSERT INTO n (i) VALUES (?)', args: [2] }]);
    setTimeout(() => void tx.commit(), 300);
    await write;
    expect((await b.client.execute('SELECT count(*) AS c FROM n')).rows[0]!.c).toBe(2);
    expect((b.client as EmbeddedClient).stats.busyRetries).toBeGreaterThan(0);
    a.close();
    b.close();
  });
});
