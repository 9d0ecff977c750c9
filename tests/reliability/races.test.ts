// Write races on bindings (races-other-writes.test.ts for the rest): every check that guards a write is made inside the
// write's batch, so a racing writer is either written and told so, or told why and wrote nothing.
// Driven with many concurrent MCP calls on one in-memory database, and with two database handles
// on one file (two real connections).
import { describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { BinderyDb } from '../../db/index.ts';
import { call, ok } from '../helpers.ts';
import { after, afterMicrotasks, codeOf, countOf, createTwoHandleWorld, range, track, world } from './race-helpers.ts';

const versionsOf = (db: BinderyDb, id: string) => countOf(db, sql`SELECT count(*) AS n FROM versions WHERE binding_id = ${id}`);
const ftsRowsOf = (db: BinderyDb, id: string) =>
  countOf(db, sql`SELECT count(*) AS n FROM bindings_fts WHERE rowid = (SELECT rowid FROM bindings WHERE id = ${id})`);
const slugsIn = async (db: BinderyDb, spaceSlug: string) =>
  (
    await db.all<{ slug: string }>(
      sql`SELECT b.slug AS slug FROM bindings b JOIN spaces s ON s.id = b.space_id WHERE s.slug = ${spaceSlug}`,
    )
  )
    .map((r) => r.slug)
    .sort();
const expectedSlugs = (base: string, n: number) =>
  range(n)
    .map((i) => (i === 0 ? base : `${base}-${i + 1}`))
    .sort();

async function searchHits(client: Client, word: string): Promise<number> {
  const found = await ok(client, 'search_bindings', { query: word, limit: 50 });
  return (found.results as unknown[]).length;
}

/**
 * One update racing one delete of the same binding, in varied start orders. Checks the invariant
 * whatever the order: an update answered OK made version 2; one answered NOT_FOUND wrote nothing;
 * the deleted binding is in no search; the delete succeeded once.
 */
async function updateVersusDelete(db: BinderyDb, updater: Client, deleter: Client, rounds: number, expectedVersion: boolean) {
  const outcomes = await Promise.all(
    range(rounds).map(async (i) => {
      const { binding } = await ok(updater, 'create_binding', { name: `Doomed ${i}`, content: 'plain words only', summary: 's' });
      const word = `quokka${i}z${expectedVersion ? 'e' : 'n'}`;
      const args = { id: binding.id, content: `now about ${word}`, ...(expectedVersion ? { expectedVersion: 1 } : {}) };
      const [upd, del] = await Promise.all([
        after(i % 3, () => call(updater, 'update_binding', args)),
        // Half start a few timer turns late, half a few microtasks late (between two awaits of the update).
        i % 2
          ? afterMicrotasks(i, () => call(deleter, 'delete_binding', { id: binding.id }))
          : after((i >> 1) % 3, () => call(deleter, 'delete_binding', { id: binding.id })),
      ]);
      return {
        id: binding.id as string,
        word,
        upd: codeOf(upd),
        del: codeOf(del),
        lastVersion: (del.structuredContent as { lastVersion?: number })?.lastVersion,
      };
    }),
  );
  for (const o of outcomes) {
    expect(o.del).toBe('OK');
    expect(['OK', 'NOT_FOUND']).toContain(o.upd);
    expect(await versionsOf(db, o.id)).toBe(o.upd === 'OK' ? 2 : 1);
    // The delete names the version it hid, the update's included when that landed first.
    expect(o.lastVersion).toBe(o.upd === 'OK' ? 2 : 1);
    const current = await db.get<{ v: number }>(sql`SELECT current_version AS v FROM bindings WHERE id = ${o.id}`);
    expect(Number(current?.v)).toBe(o.upd === 'OK' ? 2 : 1);
    expect(await ftsRowsOf(db, o.id)).toBe(0);
    expect(await searchHits(updater, o.word)).toBe(0);
  }
  return outcomes;
}

describe('update_binding racing delete_binding', () => {
  test('in-memory: the update is written and answered OK, or refused NOT_FOUND having written nothing', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    const outcomes = await updateVersusDelete(w.db, alice, alice, 24, false);
    expect(outcomes.some((o) => o.upd === 'NOT_FOUND')).toBe(true);
  });

  test('in-memory, with expectedVersion: same rule', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    await updateVersusDelete(w.db, alice, alice, 24, true);
  });

  test('two connections on one file: same rule', async () => {
    const w = await createTwoHandleWorld();
    track(w);
    const one = await w.connect(0, 'alice');
    const two = await w.connect(1, 'alice');
    // The two connections contend for the write lock: the embedded client waits on it (busy timeout,
    // BEGIN IMMEDIATE), so a SQLITE_BUSY answered INTERNAL here would be that client's failure.
    await updateVersusDelete(w.dbs[0], one, two, 12, false);
  });

  test('concurrent deletes of one binding: one OK, the others NOT_FOUND, the index row removed once', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    const { binding } = await ok(alice, 'create_binding', { name: 'Twice', content: 'about wombats', summary: 's' });
    const codes = (await Promise.all(range(6).map((i) => after(i % 2, () => call(alice, 'delete_binding', { id: binding.id }))))).map(
      codeOf,
    );
    expect(codes.filter((c) => c === 'OK')).toHaveLength(1);
    expect(codes.filter((c) => c === 'NOT_FOUND')).toHaveLength(5);
    expect(await ftsRowsOf(w.db, binding.id)).toBe(0);
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM bindings_fts`)).toBe(0);
  });

  test('concurrent updates without expectedVersion are all written, each as its own version, the index holds the last', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    const { binding } = await ok(alice, 'create_binding', { name: 'Busy', content: 'start', summary: 's' });
    const answers = await Promise.all(range(12).map((i) => call(alice, 'update_binding', { id: binding.id, content: `edit number ${i}` })));
    expect(answers.map(codeOf)).toEqual(range(12).map(() => 'OK'));
    const numbers = answers.map((a) => (a.structuredContent as { binding: { version: number } }).binding.version).sort((a, b) => a - b);
    expect(numbers).toEqual(range(12).map((i) => i + 2));
    expect(await versionsOf(w.db, binding.id)).toBe(13);
    expect(await ftsRowsOf(w.db, binding.id)).toBe(1);
    const last = await w.db.get<{ content: string }>(
      sql`SELECT v.content AS content FROM versions v JOIN bindings b ON b.id = v.binding_id AND v.number = b.current_version WHERE b.id = ${binding.id}`,
    );
    // The index is contentless: the row is the last version's if a word only that version has finds it.
    const word = last!.content.match(/[\p{L}\p{N}]+$/u)![0];
    const found = await w.db.all<{ rid: number }>(
      sql`SELECT rowid AS rid FROM bindings_fts WHERE bindings_fts MATCH ${`content: "${word}"`}`,
    );
    const rid = await w.db.get<{ rid: number }>(sql`SELECT rowid AS rid FROM bindings WHERE id = ${binding.id}`);
    expect(found.map((r) => Number(r.rid))).toContain(Number(rid!.rid));
  });

  test('concurrent updates with one expectedVersion: one written, the rest CONFLICT having written nothing', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    const { binding } = await ok(alice, 'create_binding', { name: 'Contended', content: 'start', summary: 's' });
    const codes = (
      await Promise.all(range(8).map((i) => call(alice, 'update_binding', { id: binding.id, content: `edit ${i}`, expectedVersion: 1 })))
    ).map(codeOf);
    expect(codes.filter((c) => c === 'OK')).toHaveLength(1);
    expect(codes.filter((c) => c === 'CONFLICT')).toHaveLength(7);
    expect(await versionsOf(w.db, binding.id)).toBe(2);
  });
});

describe('create_binding with one name at once', () => {
  test('in-memory: 20 concurrent creates all succeed, as name, name-2 … name-20', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    const codes = (
      await Promise.all(range(20).map(() => call(alice, 'create_binding', { name: 'Same Name', content: 'body', summary: 's' })))
    ).map(codeOf);
    expect(codes).toEqual(range(20).map(() => 'OK'));
    expect(await slugsIn(w.db, 'alice')).toEqual(expectedSlugs('same-name', 20));
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM versions`)).toBe(20);
    expect(await countOf(w.db, sql`SELECT count(*) AS n FROM bindings_fts`)).toBe(20);
    expect(await searchHits(alice, 'body')).toBe(20);
  });

  test('a deleted binding keeps its slug: the next create with its name takes the next number', async () => {
    const w = await world();
    const alice = await w.connect('alice');
    const { binding } = await ok(alice, 'create_binding', { name: 'Kept', content: 'x', summary: 's' });
    await ok(alice, 'delete_binding', { id: binding.id });
    await Promise.all(range(3).map(() => ok(alice, 'create_binding', { name: 'Kept', content: 'y', summary: 's' })));
    expect(await slugsIn(w.db, 'alice')).toEqual(['kept', 'kept-2', 'kept-3', 'kept-4']);
  });

  test('two connections on one file: 2 × 10 concurrent creates all succeed with distinct slugs name … name-20', async () => {
    const w = await createTwoHandleWorld();
    track(w);
    const one = await w.connect(0, 'alice');
    const two = await w.connect(1, 'alice');
    // Contention for the write lock is the embedded client's to wait out (a SQLITE_BUSY would be
    // answered INTERNAL); slug collisions between the connections are this code's to retry.
    const answers = await Promise.all(
      range(20).map((i) => call(i % 2 ? two : one, 'create_binding', { name: 'Same Name', content: 'body', summary: 's' })),
    );
    expect(answers.map(codeOf)).toEqual(range(20).map(() => 'OK'));
    expect(await slugsIn(w.dbs[1], 'alice')).toEqual(expectedSlugs('same-name', 20));
    expect(await countOf(w.dbs[0], sql`SELECT count(*) AS n FROM bindings_fts`)).toBe(20);
  });
});
