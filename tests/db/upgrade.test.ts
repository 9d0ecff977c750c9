import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { sql } from 'drizzle-orm';
import { createDatabase, migrate, migrationsCurrent, type Database } from '../../db/index.ts';
import { createBinderyServer, parseConfig } from '../../core/index.ts';
import { ensureCaller, ensureCountsCurrent } from '../../core/services/prepare.ts';
import { ensureCommentCounts } from '../../core/services/comments.ts';
import { ensureHelpTopics } from '../../core/services/help.ts';
import { renderKey } from '../../core/services/counts.ts';
import type { CoreDeps } from '../../core/services/bindings.ts';
import { callerForKey } from '../../core/http/auth.ts';
import { sha256Hex } from '../../core/ids.ts';
import { call, ok, testCounter } from '../helpers.ts';
import { independentCount } from '../../support/procs.ts';
import { dumpLines } from '../../db/dump/write.ts';
import { linesOf } from '../../db/dump/read.ts';
import { restoreDump } from '../../db/dump/restore.ts';

// One fixture per release that changed the schema, written by that release (scripts/make-fixture-db.ts).
// Per fixture: migrate, read everything back at once (rows counted under the old rendering are
// recounted in memory), run the upkeep a server runs at start-up, read everything back again, then
// check the rows people wrote, the keys, a dump round trip and the file's integrity. The tests of one
// fixture run in order on one database.
const fixtures = readdirSync(join(import.meta.dir, '../fixtures/db')).filter((f) => f.endsWith('.db'));
const dir = mkdtempSync(join(tmpdir(), 'bindery-upgrade-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
type Rows = Record<string, unknown>[];

async function snapshot(database: Database): Promise<Record<string, Rows>> {
  const out: Record<string, Rows> = {};
  for (const [t, cols] of Object.entries(KEPT))
    out[t] = (await database.client.execute(`SELECT ${cols} FROM ${t} ORDER BY rowid`)).rows.map((r) => ({ ...r }));
  return out;
}

async function apiKeys(database: Database): Promise<Rows> {
  return (await database.client.execute(`SELECT * FROM api_keys ORDER BY id`)).rows.map((r) => ({ ...r }));
}

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const c of chunks) out += c;
  return out;
}

// A key written in the release's own schema (api_keys is unchanged since 0000), whose plaintext this
// test knows: it must still authenticate after the upgrade.
const KNOWN_KEY = `bdk_upgradetest00000_${'A'.repeat(43)}`;

interface Upgraded {
  database: Database;
  deps: CoreDeps;
  before: Record<string, Rows>;
  keysBefore: Rows;
  connect(handle: string): Promise<Client>;
}

type Live = { id: string; name: string; version: number; summary: string; model: string };

/** Alice's five live bindings, from both her spaces. */
async function liveBindings(alice: Client): Promise<Live[]> {
  return [
    ...(await ok(alice, 'list_bindings', { space: '@alice', limit: 50 })).results,
    ...(await ok(alice, 'list_bindings', { space: '@team-docs', limit: 50 })).results,
  ];
}

/** What an upgraded database must answer, read through the tools; run before and after upkeep. */
function readChecks(w: () => Upgraded): Record<string, () => Promise<void>> {
  const as = async (handle: string, f: (client: Client) => Promise<void>) => {
    const client = await w().connect(handle);
    try {
      await f(client);
    } finally {
      await client.close();
    }
  };
  return {
    'the five live bindings, every version with its provenance, write time and exact token counts': () =>
      as('alice', async (alice) => {
        const mine = await liveBindings(alice);
        // Six written, one deleted: five live, with their names, provenance and model.
        expect(mine.map((b) => b.name).sort()).toEqual([
          'Fixture note 1',
          'Fixture note 2',
          'Fixture note 3',
          'Fixture note 4',
          'Fixture note 5',
        ]);
        for (const b of mine) {
          const versions = (await ok(alice, 'list_versions', { id: b.id })).versions as {
            version: number;
            source: string;
            model: string;
            createdAt: string;
          }[];
          expect(versions.map((v) => v.version)).toEqual(Array.from({ length: b.version }, (_, i) => b.version - i));
          for (const v of versions) {
            const got = (await ok(alice, 'get_version', { id: b.id, version: v.version, tier: '2' })).binding;
            expect([got.source, got.model, v.source, v.model]).toEqual(['llm', expect.stringMatching(/^fixture-/), 'llm', got.model]);
            // The time the release wrote it, not restamped by the upgrade.
            const row = w().before.versions!.find((r) => r.binding_id === b.id && Number(r.number) === v.version)!;
            expect(v.createdAt).toBe(new Date(Number(row.created_at)).toISOString());
            expect(got.contentTokenCount).toBe(await independentCount(got.content));
            expect(got.summaryTokenCount).toBe(await independentCount(got.summary));
          }
        }
      }),
    'full content of each, and the sections of a row written before sections existed': () =>
      as('alice', async (alice) => {
        for (const b of await liveBindings(alice)) {
          const full = (await ok(alice, 'get_binding', { id: b.id, tier: '2' })).binding;
          expect(full.source).toBe('llm');
          if (full.name === 'Fixture note 3') {
            expect(full.content).toContain('## Part 119');
            // Recounted in memory before upkeep, backfilled by it.
            const t15 = (await ok(alice, 'get_binding', { id: b.id, tier: '1.5' })).binding;
            expect(t15.outline.length).toBeGreaterThan(3);
            expect(t15.outline.length + t15.outlineRest.sections).toBeGreaterThanOrEqual(120);
            const part = (await ok(alice, 'get_binding', { id: b.id, section: 'part-7' })).binding.section;
            expect(part.heading).toBe('Part 7');
            expect(part.content.startsWith('## Part 7')).toBe(true);
          } else expect(full.content).toMatch(/ünïcödé, 日本語 and emoji 🦓|Second version/);
        }
      }),
    'the first note: three versions, the client standing in for a missing model, version 1 intact': () =>
      as('alice', async (alice) => {
        const first = (await liveBindings(alice)).find((b) => b.name === 'Fixture note 1')!;
        expect(first.version).toBe(3);
        expect(first.summary).toBe('Summary 1, third version.');
        // v3 was written without a model argument: the client's name and version stand in.
        expect(first.model).toBe('fixture-writer 1.0.0');
        const versions = (await ok(alice, 'list_versions', { id: first.id })).versions;
        expect(versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
        const v1 = (await ok(alice, 'get_version', { id: first.id, version: 1, tier: '2' })).binding;
        expect(v1.content).toContain('Body of note 1');
        expect(v1.model).toBe('fixture-model-1');
      }),
    'the set, its pinned item and a budgeted context': () =>
      as('alice', async (alice) => {
        const sets = (await ok(alice, 'list_sets', {})).sets;
        expect(sets).toHaveLength(1);
        const { items } = await ok(alice, 'get_set', { id: sets[0].id });
        expect(items).toHaveLength(5);
        expect(items.filter((i: { pinned: boolean }) => i.pinned)).toHaveLength(1);
        const ctx = await ok(alice, 'get_set_context', { setId: sets[0].id, maxTokens: 2400, tier: '1.5' });
        expect(ctx.budget.usedTokens).toBeLessThanOrEqual(2400);
      }),
    'shares, and what bob sees through his: search hits and comments': () =>
      as('alice', async (alice) => {
        const first = (await liveBindings(alice)).find((b) => b.name === 'Fixture note 1')!;
        expect((await ok(alice, 'list_shares', {})).shares).toHaveLength(2);
        await as('bob', async (bob) => {
          // Bob's share is in his default scope: accepted (or made before acceptance existed, then backfilled).
          const bobSees = (await ok(bob, 'search_bindings', { query: 'Second version' })).results;
          expect(bobSees.map((b: { id: string }) => b.id)).toContain(first.id);
          const comments = (await ok(bob, 'list_comments', { id: first.id })).comments;
          expect(comments.map((c: { body: string }) => c.body)).toEqual(['An LLM comment on the first note.', 'Bob was here.']);
          expect(comments[1].version).toBe(2);
        });
      }),
    'help topics': () =>
      as('alice', async (alice) => {
        expect((await ok(alice, 'help', {})).topics.length).toBeGreaterThan(3);
      }),
    'the deleted binding stays deleted: not readable, not listed, not found': () =>
      as('alice', async (alice) => {
        const deleted = (await w().database.client.execute(`SELECT id FROM bindings WHERE deleted_at IS NOT NULL`)).rows.map((r) =>
          String(r[0]),
        );
        expect(deleted).toHaveLength(1);
        expect((await call(alice, 'get_binding', { id: deleted[0]! })).isError).toBe(true);
        expect((await ok(alice, 'search_bindings', { query: 'Body of note 6' })).results.map((r: { id: string }) => r.id)).not.toContain(
          deleted[0],
        );
      }),
    'search answers with the matching section of a binding written before sections existed': () =>
      as('alice', async (alice) => {
        const hit = (await ok(alice, 'search_bindings', { query: 'zebra protocol' })).results.find(
          (r: { name: string }) => r.name === 'Fixture note 3',
        );
        expect(hit?.match?.heading).toMatch(/^Part \d+$/);
      }),
    'both API keys authenticate as alice, a wrong one as nobody': async () => {
      const { db } = w().database;
      expect((await callerForKey(db, KNOWN_KEY))?.handle).toBe('alice');
      expect(await callerForKey(db, KNOWN_KEY.replace(/A$/, 'B'))).toBeUndefined();
    },
  };
}

describe.each(fixtures)('a database written by release %s', (fixture) => {
  let world: Upgraded | undefined;
  const w = () => world!;

  beforeAll(async () => {
    const file = join(dir, fixture);
    copyFileSync(join(import.meta.dir, '../fixtures/db', fixture), file);
    const config = parseConfig({ BINDERY_DB_URL: `file:${file}`, BINDERY_TOOL_MODE: 'eager' });
    const database = createDatabase({ url: config.dbUrl });
    const aliceId = String((await database.client.execute(`SELECT id FROM users WHERE handle = 'alice'`)).rows[0]![0]);
    await database.client.execute({
      sql: `INSERT INTO api_keys (id, user_id, key_hash, label, created_at) VALUES ('key_upgradetest00000', ?, ?, 'upgrade', 1)`,
      args: [aliceId, await sha256Hex(KNOWN_KEY)],
    });
    const keysBefore = await apiKeys(database);
    const before = await snapshot(database);
    await migrate(database.db);
    const deps: CoreDeps = { db: database.db, tokens: await testCounter(), config, now: () => Date.now() };
    world = {
      database,
      deps,
      before,
      keysBefore,
      async connect(handle) {
        const server = createBinderyServer(deps, { caller: await ensureCaller(deps, handle) });
        const [a, b] = InMemoryTransport.createLinkedPair();
        await server.connect(b);
        const client = new Client({ name: 'upgrade-test', version: '1' });
        await client.connect(a);
        return client;
      },
    };
  });
  afterAll(() => world?.database.close());

  test('migrates to the current schema', async () => {
    expect(await migrationsCurrent(w().database.db)).toBe(true);
  });

  describe('read at once, before upkeep', () => {
    for (const [name, check] of Object.entries(readChecks(w))) test(name, check);
  });

  test('the start-up upkeep recounts every version for this configuration and backfills sections', async () => {
    const { deps } = w();
    await ensureCountsCurrent(deps);
    await ensureCommentCounts(deps);
    await ensureHelpTopics(deps);
    const stale = await deps.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM versions WHERE counts_key != ${renderKey(deps)}`);
    expect(Number(stale[0]!.n)).toBe(0);
    const noSections = await deps.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM versions WHERE sections = ''`);
    expect(Number(noSections[0]!.n)).toBe(0);
  });

  describe('read again, after upkeep', () => {
    for (const [name, check] of Object.entries(readChecks(w))) test(name, check);
  });

  test("the release's key rows and everything people wrote come through byte for byte", async () => {
    const keysAfter = await apiKeys(w().database);
    expect(keysAfter).toEqual(w().keysBefore);
    expect(keysAfter).toHaveLength(2);
    expect(await snapshot(w().database)).toEqual(w().before);
  });

  test('dumps, restores and dumps again to the same bytes', async () => {
    const dumped = await collect(dumpLines(w().database.client));
    const copy = createDatabase({ url: ':memory:' });
    await restoreDump(copy, () => linesOf([dumped]), { verifyFirst: true });
    expect(await collect(dumpLines(copy.client))).toBe(dumped);
    copy.close();
  });

  test("the file passes SQLite's integrity check", async () => {
    const integrity = await w().database.db.all<{ integrity_check: string }>(sql`PRAGMA integrity_check`);
    expect(integrity[0]!.integrity_check).toBe('ok');
  });
});
