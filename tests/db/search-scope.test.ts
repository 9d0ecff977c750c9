// Search at scale (bench/scale.bench.ts for the figures): the scope pre-filter and the capped total never change what a caller can
// find. A user with many spaces and shares (accepted, pending, revoked; on bindings, spaces and sets)
// finds exactly what the access expression allows, paging past the capped total reaches every match
// exactly once, and ranking stays exact (no candidate pool that could drop the best document).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { defaultScopeSql } from '../../db/store/access.ts';
import { ftsQuery, searchBindingRows } from '../../db/store/search.ts';
import { createTestWorld, ok, type TestWorld } from '../helpers.ts';

const WORD = 'okapi';
let world: TestWorld;
let bob: Client;
let bobId: string;

beforeAll(async () => {
  world = await createTestWorld();
  const alice = await world.connect('alice');
  const carol = await world.connect('carol');
  bob = await world.connect('bob');
  bobId = (await ok(bob, 'whoami', {})).user.id;
  const make = async (c: Client, space: string | undefined, n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++)
      out.push(
        (
          await ok(c, 'create_binding', {
            ...(space ? { space } : {}),
            name: `Note ${i} ${i % 3 ? WORD : 'zebra'}`,
            content: `# Part\n\n${WORD} ${'text '.repeat(i % 7)}\n`,
            summary: `Summary ${i}.`,
          })
        ).binding.id,
      );
    return out;
  };
  await make(bob, undefined, 6);
  for (const s of ['a-acc', 'a-pend', 'a-rev', 'a-set']) await ok(alice, 'create_space', { slug: s, name: s });
  await ok(carol, 'create_space', { slug: 'c-pub', name: 'Public', visibility: 'public' });
  const acc = await make(alice, '@a-acc', 4);
  await make(alice, '@a-pend', 4);
  await make(alice, '@a-rev', 4);
  const inSet = await make(alice, '@a-set', 5);
  const loose = await make(alice, undefined, 5);
  await make(carol, '@c-pub', 4);
  const share = async (target: string, accept: boolean) => {
    const id = (await ok(alice, 'create_share', { target, user: 'bob', permission: 'read' })).share.id;
    if (accept) await ok(bob, 'create_share', { accept: id });
    return id;
  };
  await share('@a-acc', true);
  await share('@a-pend', false);
  await ok(alice, 'revoke_share', { id: await share('@a-rev', true) });
  await share(loose[0]!, true);
  await share(loose[1]!, false);
  const set = (await ok(alice, 'create_set', { space: '@a-set', name: 'Reading', bindingIds: inSet.slice(0, 2) })).set.id;
  await share(set, true);
  // A deleted binding in an accepted space never shows.
  await ok(alice, 'delete_binding', { id: acc[3]! });
}, 60_000);
afterAll(() => world?.close());

/** What the access expression alone allows bob to find, evaluated on every match. */
async function expected(match: string): Promise<string[]> {
  const rows = await world.db.all<{
    id: string;
  }>(sql`SELECT bindings.id AS id FROM bindings_fts JOIN bindings ON bindings.rowid = bindings_fts.rowid
    JOIN spaces ON spaces.id = bindings.space_id WHERE bindings_fts MATCH ${match} AND bindings.deleted_at IS NULL AND ${defaultScopeSql(bobId)}`);
  return rows.map((r) => r.id).sort();
}

describe('search scope at scale', () => {
  test('a user with many spaces and shares finds exactly what they may read, totals included', async () => {
    const match = ftsQuery(WORD)!;
    const want = await expected(match);
    // Own 6, accepted space 3 live, one accepted binding, two set items: 12; pending, revoked, public and deleted stay out.
    expect(want.length).toBe(12);
    const got = await searchBindingRows(world.db, match, { userId: bobId, offset: 0, limit: 50 });
    expect(got.rows.map((r) => r.bindingId).sort()).toEqual(want);
    expect(got.total).toBe(12);
    expect(got.totalCapped).toBe(false);
  });

  test('paging reaches every match exactly once, with a capped total that keeps hasMore right', async () => {
    const match = ftsQuery(`${WORD} zebra`)!;
    const want = await expected(match);
    const exact = await searchBindingRows(world.db, match, { userId: bobId, offset: 0, limit: 50 });
    expect(exact.rows.map((r) => r.bindingId).sort()).toEqual(want);
    const seen: string[] = [];
    for (let offset = 0; offset < 60; offset += 3) {
      const page = await searchBindingRows(world.db, match, { userId: bobId, offset, limit: 3, caps: { total: 4 } });
      seen.push(...page.rows.map((r) => r.bindingId));
      // total is a lower bound past the cap, always beyond the page while more remain.
      if (offset + 3 < want.length) expect(page.total).toBeGreaterThan(offset + page.rows.length);
      if (!page.rows.length) break;
    }
    expect(seen.length).toBe(want.length);
    expect([...seen].sort()).toEqual(want);
  });

  test('the best hit by BM25 is ranked first however many match: an old document with a rare word in its body alone', async () => {
    const w = await createTestWorld();
    try {
      const erin = await w.connect('erin');
      const erinId = (await ok(erin, 'whoami', {})).user.id;
      const old = (await ok(erin, 'create_binding', { name: 'Old note', content: '# Old\n\nwombat quokkaquill text\n', summary: 'Old.' }))
        .binding.id;
      for (let i = 0; i < 12; i++)
        await ok(erin, 'create_binding', { name: `New ${i}`, content: `# New\n\nwombat ${'text '.repeat(i)}\n`, summary: `New ${i}.` });
      const match = ftsQuery('wombat quokkaquill')!;
      const exact = await searchBindingRows(w.db, match, { userId: erinId, offset: 0, limit: 3 });
      const capped = await searchBindingRows(w.db, match, { userId: erinId, offset: 0, limit: 3, caps: { total: 4 } });
      expect(exact.rows[0]!.bindingId).toBe(old);
      expect(capped.rows[0]!.bindingId).toBe(old);
      expect(capped.totalCapped).toBe(true);
    } finally {
      w.close();
    }
  });
});
