import { afterAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { sql } from 'drizzle-orm';
import { createDatabase, migrate, migrationsCurrent } from '../../db/index.ts';
import { createBinderyServer, parseConfig } from '../../core/index.ts';
import { ensureCaller, ensureCountsCurrent } from '../../core/services/prepare.ts';
import { ensureCommentCounts } from '../../core/services/comments.ts';
import { ensureHelpTopics } from '../../core/services/help.ts';
import { renderKey } from '../../core/services/counts.ts';
import { callerForKey } from '../../core/http/auth.ts';
import { sha256Hex } from '../../core/ids.ts';
import { call, ok, testCounter } from '../helpers.ts';
import { independentCount } from '../reliability/procs.ts';
import { dumpLines } from '../../db/dump/write.ts';
import { linesOf } from '../../db/dump/read.ts';
import { restoreDump } from '../../db/dump/restore.ts';

// One fixture per release that changed the schema, written by that release (scripts/make-fixture-db.ts).
const fixtures = readdirSync(join(import.meta.dir, '../fixtures/db')).filter((f) => f.endsWith('.db'));
const dir = mkdtempSync(join(tmpdir(), 'bindery-upgrade-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(fixtures)('a database written by release %s', (fixture) => {
  test('migrates and reads everything back, exact, before and after upkeep', async () => {
    const file = join(dir, fixture);
    copyFileSync(join(import.meta.dir, '../fixtures/db', fixture), file);
    const config = parseConfig({ BINDERY_DB_URL: `file:${file}`, BINDERY_TOOL_MODE: 'eager' });
    const database = createDatabase({ url: config.dbUrl });
    const { db } = database;
    // A key written in the release's own schema (api_keys is unchanged since 0000), whose plaintext
    // this test knows: it must still authenticate after the upgrade. The release's own key row must
    // come through byte for byte.
    const knownKey = `bdk_upgradetest00000_${'A'.repeat(43)}`;
    const aliceId = String((await database.client.execute(`SELECT id FROM users WHERE handle = 'alice'`)).rows[0]![0]);
    await database.client.execute({ sql: `INSERT INTO api_keys (id, user_id, key_hash, label, created_at) VALUES ('key_upgradetest00000', ?, ?, 'upgrade', 1)`, args: [aliceId, await sha256Hex(knownKey)] });
    const keysBefore = (await database.client.execute(`SELECT * FROM api_keys ORDER BY id`)).rows.map((r) => ({ ...r }));
    // Everything people wrote, as the release stored it: compared column by column after the upgrade.
    const KEPT = {
      versions: 'id, binding_id, number, name, summary, key_points, content, source, model, author_id, created_at',
      bindings: 'id, space_id, slug, current_version, created_by, created_at, updated_at, deleted_at',
      comments: 'id, binding_id, version, body, source, model, author_id, created_at, deleted_at',
      set_items: 'set_id, binding_id, position, pinned_version',
      shares: 'id, target_type, target_id, grantee_id, public, permission, created_by, created_at, revoked_at',
      users: 'id, handle, created_at',
      spaces: 'id, slug, name, visibility, owner_id, personal, created_at',
    };
    const snapshot = async () => {
      const out: Record<string, Record<string, unknown>[]> = {};
      for (const [t, cols] of Object.entries(KEPT)) out[t] = (await database.client.execute(`SELECT ${cols} FROM ${t} ORDER BY rowid`)).rows.map((r) => ({ ...r }));
      return out;
    };
    const before = await snapshot();
    const versionsBefore = before.versions!;
    await migrate(db);
    expect(await migrationsCurrent(db)).toBe(true);
    const deps = { db, tokens: await testCounter(), config, now: () => Date.now() };
    const connect = async (handle: string) => {
      const server = createBinderyServer(deps, { caller: await ensureCaller(deps, handle) });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(b);
      const client = new Client({ name: 'upgrade-test', version: '1' });
      await client.connect(a);
      return client;
    };

    const readAll = async () => {
      const alice = await connect('alice');
      const bob = await connect('bob');
      const mine = [
        ...(await ok(alice, 'list_bindings', { space: '@alice', limit: 50 })).results,
        ...(await ok(alice, 'list_bindings', { space: '@team-docs', limit: 50 })).results,
      ];
      // Six written, one deleted: five live, with their names, provenance and model.
      expect(mine.map((b: { name: string }) => b.name).sort()).toEqual(['Fixture note 1', 'Fixture note 2', 'Fixture note 3', 'Fixture note 4', 'Fixture note 5']);
      // Every version of every live binding, with its provenance, and its stored count exact.
      for (const b of mine) {
        const versions = (await ok(alice, 'list_versions', { id: b.id })).versions as { version: number; source: string; model: string; createdAt: string }[];
        expect(versions.map((v) => v.version)).toEqual(Array.from({ length: b.version }, (_, i) => b.version - i));
        for (const v of versions) {
          const got = (await ok(alice, 'get_version', { id: b.id, version: v.version, tier: '2' })).binding;
          expect([got.source, got.model, v.source, v.model]).toEqual(['llm', expect.stringMatching(/^fixture-/), 'llm', got.model]);
          // The time the release wrote it, not restamped by the upgrade.
          const row = versionsBefore.find((r) => r.binding_id === b.id && Number(r.number) === v.version)!;
          expect(v.createdAt).toBe(new Date(Number(row.created_at)).toISOString());
          expect(got.contentTokenCount).toBe(await independentCount(got.content));
          expect(got.summaryTokenCount).toBe(await independentCount(got.summary));
        }
      }
      for (const b of mine) {
        const full = (await ok(alice, 'get_binding', { id: b.id, tier: '2' })).binding;
        expect(full.source).toBe('llm');
        if (full.name === 'Fixture note 3') {
          expect(full.content).toContain('## Part 119');
          // Sections of a row written before they existed: recounted in memory, then backfilled by upkeep.
          const t15 = (await ok(alice, 'get_binding', { id: b.id, tier: '1.5' })).binding;
          expect(t15.outline.length).toBeGreaterThan(3);
          expect(t15.outline.length + t15.outlineRest.sections).toBeGreaterThanOrEqual(120);
          const part = (await ok(alice, 'get_binding', { id: b.id, section: 'part-7' })).binding.section;
          expect(part.heading).toBe('Part 7');
          expect(part.content.startsWith('## Part 7')).toBe(true);
        }
        else expect(full.content).toMatch(/ünïcödé, 日本語 and emoji 🦓|Second version/);
      }
      const first = mine.find((b: { name: string }) => b.name === 'Fixture note 1')!;
      expect(first.version).toBe(3);
      expect(first.summary).toBe('Summary 1, third version.');
      // v3 was written without a model argument: the client's name and version stand in.
      expect(first.model).toBe('fixture-writer 1.0.0');
      const versions = (await ok(alice, 'list_versions', { id: first.id })).versions;
      expect(versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
      const v1 = (await ok(alice, 'get_version', { id: first.id, version: 1, tier: '2' })).binding;
      expect(v1.content).toContain('Body of note 1');
      expect(v1.model).toBe('fixture-model-1');
      const sets = (await ok(alice, 'list_sets', {})).sets;
      expect(sets).toHaveLength(1);
      const { items } = await ok(alice, 'get_set', { id: sets[0].id });
      expect(items).toHaveLength(5);
      expect(items.filter((i: { pinned: boolean }) => i.pinned)).toHaveLength(1);
      const ctx = await ok(alice, 'get_set_context', { setId: sets[0].id, maxTokens: 2400, tier: '1.5' });
      expect(ctx.budget.usedTokens).toBeLessThanOrEqual(2400);
      const shares = (await ok(alice, 'list_shares', {})).shares;
      expect(shares).toHaveLength(2);
      // Bob's share is in his default scope: accepted (or made before acceptance existed, then backfilled).
      const bobSees = (await ok(bob, 'search_bindings', { query: 'Second version' })).results;
      expect(bobSees.map((b: { id: string }) => b.id)).toContain(first.id);
      const comments = (await ok(bob, 'list_comments', { id: first.id })).comments;
      expect(comments.map((c: { body: string }) => c.body)).toEqual(['An LLM comment on the first note.', 'Bob was here.']);
      expect(comments[1].version).toBe(2);
      expect((await ok(alice, 'help', {})).topics.length).toBeGreaterThan(3);
      // The deleted binding stays deleted: not readable, not listed, not found.
      const deleted = (await database.client.execute(`SELECT id FROM bindings WHERE deleted_at IS NOT NULL`)).rows.map((r) => String(r[0]));
      expect(deleted).toHaveLength(1);
      expect((await call(alice, 'get_binding', { id: deleted[0]! })).isError).toBe(true);
      expect((await ok(alice, 'search_bindings', { query: 'Body of note 6' })).results.map((r: { id: string }) => r.id)).not.toContain(deleted[0]);
      // Search answers with the matching section of a binding written before sections existed.
      const hit = (await ok(alice, 'search_bindings', { query: 'zebra protocol' })).results.find((r: { name: string }) => r.name === 'Fixture note 3');
      expect(hit?.match?.heading).toMatch(/^Part \d+$/);
      // Both API keys authenticate as alice.
      expect((await callerForKey(db, knownKey))?.handle).toBe('alice');
      expect((await callerForKey(db, knownKey.replace(/A$/, 'B')))).toBeUndefined();
      await alice.close();
      await bob.close();
    };

    // Reads are exact at once (rows counted under the old rendering are recounted in memory)…
    await readAll();
    // …and after the upkeep a server runs at start-up, which rewrites them for this configuration.
    await ensureCountsCurrent(deps);
    await ensureCommentCounts(deps);
    await ensureHelpTopics(deps);
    const stale = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM versions WHERE counts_key != ${renderKey(deps)}`);
    expect(Number(stale[0]!.n)).toBe(0);
    const noSections = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM versions WHERE sections = ''`);
    expect(Number(noSections[0]!.n)).toBe(0);
    await readAll();
    const keysAfter = (await database.client.execute(`SELECT * FROM api_keys ORDER BY id`)).rows.map((r) => ({ ...r }));
    expect(keysAfter).toEqual(keysBefore);
    expect(keysAfter).toHaveLength(2);
    expect(await snapshot()).toEqual(before);
    // An upgraded database dumps, restores and dumps again to the same bytes.
    const collect = async (chunks: AsyncIterable<string>) => {
      let out = '';
      for await (const c of chunks) out += c;
      return out;
    };
    const dumped = await collect(dumpLines(database.client));
    const copy = createDatabase({ url: ':memory:' });
    await restoreDump(copy, () => linesOf([dumped]), { verifyFirst: true });
    expect(await collect(dumpLines(copy.client))).toBe(dumped);
    copy.close();
    const integrity = await db.all<{ integrity_check: string }>(sql`PRAGMA integrity_check`);
    expect(integrity[0]!.integrity_check).toBe('ok');
    database.close();
  });
});
