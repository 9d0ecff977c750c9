// The guarded writes on Cloudflare D1 (miniflare): the same statements (INSERT … SELECT … WHERE,
// RETURNING inside a batch, json_each) and the same answers as on libSQL, with D1 reporting
// changed rows as `meta.changes` and enforcing foreign keys.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { migrate, type BinderyDb } from '../../db/index.ts';
import { createD1Database } from '../../db/client-web.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { call, ok } from '../helpers.ts';
import { after, codeOf, connectOn, countOf, range } from './race-helpers.ts';

let mf: { dispose(): Promise<void> };
let db: BinderyDb;
let alice: Client;
const clients: Client[] = [];

beforeAll(async () => {
  const { Miniflare } = await import('miniflare');
  const instance = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response() }',
    d1Databases: ['DB'],
    compatibilityDate: '2025-09-01',
  });
  mf = instance;
  db = createD1Database((await instance.getD1Database('DB')) as never);
  await migrate(db);
  alice = await connectOn(db, 'alice', clients);
  await connectOn(db, 'bob', clients);
}, 30_000);

afterAll(async () => {
  for (const c of clients) void c.close();
  await mf?.dispose();
});

describe('guarded writes on D1', () => {
  test('update racing delete: OK with version 2, or NOT_FOUND with nothing written and no index row', async () => {
    for (const i of range(6)) {
      const { binding } = await ok(alice, 'create_binding', { name: `D1 doomed ${i}`, content: 'plain', summary: 's' });
      const [upd, del] = await Promise.all([
        after(i % 2, () => call(alice, 'update_binding', { id: binding.id, content: `more ${i}` })),
        after((i >> 1) % 2, () => call(alice, 'delete_binding', { id: binding.id })),
      ]);
      expect(codeOf(del)).toBe('OK');
      expect(['OK', 'NOT_FOUND']).toContain(codeOf(upd));
      expect(await countOf(db, sql`SELECT count(*) AS n FROM versions WHERE binding_id = ${binding.id}`)).toBe(
        codeOf(upd) === 'OK' ? 2 : 1,
      );
      expect(
        await countOf(db, sql`SELECT count(*) AS n FROM bindings_fts WHERE rowid = (SELECT rowid FROM bindings WHERE id = ${binding.id})`),
      ).toBe(0);
      expect(codeOf(await call(alice, 'delete_binding', { id: binding.id }))).toBe('NOT_FOUND');
    }
  });

  test('same-name creates all land under distinct numbered slugs', async () => {
    const codes = (
      await Promise.all(range(6).map(() => call(alice, 'create_binding', { name: 'D1 Same', content: 'x', summary: 's' })))
    ).map(codeOf);
    expect(codes).toEqual(range(6).map(() => 'OK'));
    const slugs = (await db.all<{ slug: string }>(sql`SELECT slug FROM bindings WHERE slug LIKE 'd1-same%' ORDER BY slug`)).map(
      (r) => r.slug,
    );
    expect(slugs).toEqual(['d1-same', 'd1-same-2', 'd1-same-3', 'd1-same-4', 'd1-same-5', 'd1-same-6']);
  });

  test('users, spaces, shares, comments and sets', async () => {
    const callers = await Promise.all(range(4).map(() => ensureCaller({ db, now: () => Date.now() }, 'd1-newbie')));
    expect(new Set(callers.map((c) => c.id)).size).toBe(1);
    expect(await countOf(db, sql`SELECT count(*) AS n FROM spaces WHERE owner_id = ${callers[0]!.id} AND personal = 1`)).toBe(1);
    const spaces = (await Promise.all(range(3).map(() => call(alice, 'create_space', { slug: 'd1-team', name: 'T' })))).map(codeOf).sort();
    expect(spaces).toEqual(['CONFLICT', 'CONFLICT', 'OK']);

    const { binding } = await ok(alice, 'create_binding', { name: 'D1 shared', content: 'x', summary: 's' });
    const shares = await Promise.all(
      range(3).map(() => ok(alice, 'create_share', { target: binding.id, user: 'bob', permission: 'read' })),
    );
    expect(shares.filter((s) => s.created)).toHaveLength(1);
    const raised = await ok(alice, 'create_share', { target: binding.id, user: 'bob', permission: 'comment' });
    expect(raised.created).toBe(true);
    expect(await countOf(db, sql`SELECT count(*) AS n FROM shares WHERE target_id = ${binding.id} AND revoked_at IS NULL`)).toBe(1);

    expect((await Promise.all(range(3).map((i) => call(alice, 'add_comment', { id: binding.id, body: `c${i}` })))).map(codeOf)).toEqual([
      'OK',
      'OK',
      'OK',
    ]);
    await ok(alice, 'delete_binding', { id: binding.id });
    expect(codeOf(await call(alice, 'add_comment', { id: binding.id, body: 'late' }))).toBe('NOT_FOUND');
    expect(await countOf(db, sql`SELECT count(*) AS n FROM comments WHERE binding_id = ${binding.id}`)).toBe(3);

    const { binding: item } = await ok(alice, 'create_binding', { name: 'D1 item', content: 'x', summary: 's' });
    const { set } = await ok(alice, 'create_set', { name: 'D1 set' });
    await ok(alice, 'update_set', { id: set.id, name: 'D1 renamed' });
    await ok(alice, 'edit_set_items', { id: set.id, add: [{ bindingId: item.id }] });
    const deletes = (await Promise.all(range(3).map(() => call(alice, 'delete_set', { id: set.id })))).map(codeOf).sort();
    expect(deletes).toEqual(['NOT_FOUND', 'NOT_FOUND', 'OK']);
    expect(codeOf(await call(alice, 'edit_set_items', { id: set.id, remove: [item.id] }))).toBe('NOT_FOUND');
    expect(await countOf(db, sql`SELECT count(*) AS n FROM set_items WHERE set_id = ${set.id}`)).toBe(1);
  });
});
