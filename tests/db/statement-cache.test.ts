import { describe, expect, test } from 'bun:test';
import Database from 'libsql';
import { createDatabase } from '../../db/index';
import { installStatementCache } from '../../db/statement-cache';

type Db = { prepare(sql: string): { all(...args: unknown[]): unknown[]; run(...args: unknown[]): unknown; columns(): { name: string }[] }; exec(sql: string): void; close(): void };
const open = () => new (Database as unknown as new (path: string) => Db)(':memory:');

describe('prepared-statement cache for embedded libSQL', () => {
  installStatementCache();

  test('the same SQL on the same connection reuses one statement; other connections and DDL do not', () => {
    const a = open();
    const b = open();
    a.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    b.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const q = 'SELECT id, v FROM t WHERE id = ?';
    expect(a.prepare(q)).toBe(a.prepare(q));
    expect(a.prepare(q)).not.toBe(b.prepare(q));
    const before = a.prepare('SELECT * FROM t');
    expect(before.columns().map((c) => c.name)).toEqual(['id', 'v']);
    a.prepare('ALTER TABLE t ADD COLUMN w TEXT').run();
    const after = a.prepare('SELECT * FROM t');
    expect(after).not.toBe(before);
    expect(after.columns().map((c) => c.name)).toEqual(['id', 'v', 'w']);
    a.exec('ALTER TABLE t ADD COLUMN x TEXT');
    expect(a.prepare('SELECT * FROM t').columns().map((c) => c.name)).toEqual(['id', 'v', 'w', 'x']);
    a.close();
    b.close();
  });

  test('a reused statement answers each call with its own arguments, in and out of transactions', async () => {
    const { client, close } = createDatabase({ url: ':memory:' });
    await client.execute('CREATE TABLE kv (k TEXT PRIMARY KEY, v INTEGER)');
    for (let i = 0; i < 50; i++) await client.execute({ sql: 'INSERT INTO kv (k, v) VALUES (?, ?)', args: [`k${i}`, i] });
    for (let i = 0; i < 50; i++) {
      const r = await client.execute({ sql: 'SELECT v FROM kv WHERE k = ?', args: [`k${i}`] });
      expect(Number(r.rows[0]!.v)).toBe(i);
    }
    const batch = await client.batch(
      [
        { sql: 'UPDATE kv SET v = v + 100 WHERE k = ?', args: ['k1'] },
        { sql: 'SELECT v FROM kv WHERE k = ?', args: ['k1'] },
        { sql: 'SELECT v FROM kv WHERE k = ?', args: ['k2'] },
      ],
      'write',
    );
    expect(Number(batch[1]!.rows[0]!.v)).toBe(101);
    expect(Number(batch[2]!.rows[0]!.v)).toBe(2);
    // A failing batch rolls back whole, and the cached statements keep working after it.
    await expect(
      client.batch([{ sql: 'UPDATE kv SET v = 0 WHERE k = ?', args: ['k3'] }, { sql: 'INSERT INTO kv (k, v) VALUES (?, ?)', args: ['k4', 1] }], 'write'),
    ).rejects.toThrow();
    expect(Number((await client.execute({ sql: 'SELECT v FROM kv WHERE k = ?', args: ['k3'] })).rows[0]!.v)).toBe(3);
    close();
  });
});
