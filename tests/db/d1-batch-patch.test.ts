// Bindery replaces drizzle's private D1 batch (db/client-web.ts `createD1Database`) because drizzle-orm
// 0.45's own cannot bind raw `db.run(sql`…`)` items. This test fails loudly when a drizzle upgrade
// changes either side: the private shape the patch relies on, or the bug it works around.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleD1 } from 'drizzle-orm/d1';
import { createD1Database, type D1Like } from '../../db/client-web.ts';
import { schema } from '../../db/schema/index.ts';

let mf: { dispose(): Promise<void> };
let binding: D1Like;

beforeAll(async () => {
  const { Miniflare } = await import('miniflare');
  const instance = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response() }',
    d1Databases: ['DB'],
    compatibilityDate: '2025-09-01',
  });
  mf = instance;
  binding = (await instance.getD1Database('DB')) as unknown as D1Like;
}, 30_000);
afterAll(async () => {
  await mf?.dispose();
});

describe("the D1 batch patch (drizzle's private session.batch)", () => {
  test('the private shape it replaces is still there: db.session.batch, and items with _prepare()', () => {
    const db = drizzleD1(binding, { schema }) as unknown as { session?: { batch?: unknown } };
    expect(typeof db.session?.batch).toBe('function');
    const item = drizzleD1(binding, { schema }).run(sql`SELECT ${1}`) as unknown as { _prepare?: unknown };
    expect(typeof item._prepare).toBe('function');
  });

  test("drizzle's own D1 batch still fails on raw run() items with parameters: when this fails, drizzle fixed it and the patch can go", async () => {
    const plain = drizzleD1(binding, { schema });
    const outcome = await plain.batch([plain.run(sql`SELECT ${1} AS one`), plain.run(sql`SELECT ${2} AS two`)]).then(
      () => 'ok',
      () => 'failed',
    );
    expect(outcome).toBe('failed');
  });

  test('with the patch, raw run() items with parameters batch atomically', async () => {
    const db = createD1Database(binding);
    await db.run(sql`CREATE TABLE IF NOT EXISTS patch_probe (k TEXT PRIMARY KEY, v INTEGER)`);
    await db.batch([
      db.run(sql`INSERT INTO patch_probe VALUES (${'a'}, ${1})`),
      db.run(sql`INSERT INTO patch_probe VALUES (${'b'}, ${2})`),
    ]);
    const failed = await db
      .batch([db.run(sql`INSERT INTO patch_probe VALUES (${'c'}, ${3})`), db.run(sql`INSERT INTO patch_probe VALUES (${'a'}, ${9})`)])
      .then(
        () => false,
        () => true,
      );
    expect(failed).toBe(true);
    expect(await db.all(sql`SELECT k, v FROM patch_probe ORDER BY k`)).toEqual([
      { k: 'a', v: 1 },
      { k: 'b', v: 2 },
    ]);
  });
});
