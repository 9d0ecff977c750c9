// bindery dump / restore (db/dump/): full fidelity read back through MCP, dump → restore → dump
// byte-identical, one snapshot beside a writer, and every refusal writing nothing.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createDatabase, type Database } from '../../db/index.ts';
import { dumpLines } from '../../db/dump/write.ts';
import { linesOf } from '../../db/dump/read.ts';
import { restoreDump } from '../../db/dump/restore.ts';
import { DumpError } from '../../db/dump/format.ts';
import { createBinderyServer, parseConfig } from '../../core/index.ts';
import { callerForKey } from '../../core/http/auth.ts';
import { ensureCaller, ensureCountsCurrent } from '../../core/services/prepare.ts';
import { ensureCommentCounts } from '../../core/services/comments.ts';
import { call, ok, testCounter } from '../helpers.ts';
import { cli, independentCount } from '../../support/procs.ts';
import { buildDumpWorld, LONG_CONTENT, type DumpWorld } from './dump-world.ts';
import { rowProgress } from '../../adapters/cli/dump.ts';
import { remoteUnavailable } from '../../support/targets.ts';

const dir = mkdtempSync(join(tmpdir(), 'bindery-dump-'));
let world: DumpWorld;
let dumped: string;
beforeAll(async () => {
  world = await buildDumpWorld(join(dir, 'source.db'));
  dumped = await dumpOf(world.url);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const c of chunks) out += c;
  return out;
}
async function dumpOf(url: string | Database, sessions = false): Promise<string> {
  const database = typeof url === 'string' ? createDatabase({ url }) : url;
  try {
    return await collect(dumpLines(database.client, { sessions }));
  } finally {
    if (typeof url === 'string') database.close();
  }
}
const restoreText = (database: Database, text: string, verifyFirst = true) => restoreDump(database, () => linesOf([text]), { verifyFirst });
const count = async (database: Database, table: string) =>
  Number((await database.client.execute(`SELECT count(*) FROM ${table}`)).rows[0]![0]);
const tables = async (database: Database) => count(database, 'sqlite_schema');

/** Restores into `:memory:`, runs the upkeep a server runs, and connects MCP clients to it. */
async function restoredWorld(text: string) {
  const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager' });
  const database = createDatabase({ url: ':memory:' });
  await restoreText(database, text);
  const deps = { db: database.db, tokens: await testCounter(), config, now: () => Date.now() };
  await ensureCountsCurrent(deps);
  await ensureCommentCounts(deps);
  const connect = async (handle: string) => {
    const server = createBinderyServer(deps, { caller: await ensureCaller(deps, handle) });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: 'restored', version: '1' });
    await client.connect(a);
    return client;
  };
  return { database, connect };
}

describe('dump → restore', () => {
  test('is byte-identical dumped again, and reads back everything through MCP', async () => {
    const { database, connect } = await restoredWorld(dumped);
    expect(await dumpOf(database)).toBe(dumped);
    const alice = await connect('alice');
    const bob = await connect('bob');
    const mine = [
      ...(await ok(alice, 'list_bindings', { space: '@alice', limit: 50 })).results,
      ...(await ok(alice, 'list_bindings', { space: '@team-docs', limit: 50 })).results,
    ];
    expect(mine.map((b: { name: string }) => b.name).sort()).toEqual([
      'Fixture note 1',
      'Fixture note 2',
      'Fixture note 3',
      'Fixture note 4',
      'Fixture note 5',
      'Long document',
    ]);
    // Every live binding's every version, with provenance; token counts exact against js-tiktoken.
    for (const b of mine) {
      for (const v of (await ok(alice, 'list_versions', { id: b.id })).versions) {
        const full = (await ok(alice, 'get_version', { id: b.id, version: v.version, tier: '2' })).binding;
        expect(full.source).toBe('llm');
        expect(full.model).toBeTruthy();
        if (full.content.length < 40_000) expect(full.contentTokenCount).toBe(await independentCount(full.content));
      }
    }
    const long = (await ok(alice, 'get_binding', { id: world.longId, section: 'part-777' })).binding.section;
    expect(long.heading).toBe('Part 777');
    expect((await ok(alice, 'get_binding', { id: world.longId, tier: '1' })).binding.contentTokenCount).toBe(
      await independentCount(LONG_CONTENT),
    );
    const first = mine.find((b: { name: string }) => b.name === 'Fixture note 1')!;
    expect((await ok(alice, 'list_versions', { id: first.id })).versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect((await ok(alice, 'get_version', { id: first.id, version: 1, tier: '2' })).binding.model).toBe('fixture-model-1');
    // The deleted binding stays deleted.
    const deleted = (await database.client.execute(`SELECT id FROM bindings WHERE deleted_at IS NOT NULL`)).rows.map((r) => String(r[0]));
    expect(deleted).toHaveLength(1);
    expect((await call(alice, 'get_binding', { id: deleted[0]! })).isError).toBe(true);
    // Sets with their pin and order, shares, comments, help.
    const sets = (await ok(alice, 'list_sets', {})).sets;
    const items = (await ok(alice, 'get_set', { id: sets[0].id })).items;
    expect(items.map((i: { name: string }) => i.name)).toEqual([
      'Fixture note 1',
      'Fixture note 2',
      'Fixture note 3',
      'Fixture note 4',
      'Fixture note 5',
    ]);
    expect(items.filter((i: { pinned: boolean }) => i.pinned)).toHaveLength(1);
    expect((await ok(alice, 'list_shares', {})).shares).toHaveLength(2);
    expect((await ok(bob, 'list_comments', { id: first.id })).comments.map((c: { body: string }) => c.body)).toEqual([
      'An LLM comment on the first note.',
      'Bob was here.',
    ]);
    expect((await ok(alice, 'help', {})).topics.length).toBeGreaterThan(3);
    // Search works on the rebuilt index (one row per live binding), for the owner and through a share.
    expect(await count(database, 'bindings_fts')).toBe(6);
    expect((await ok(alice, 'search_bindings', { query: 'zebra', limit: 50 })).results.map((r: { name: string }) => r.name)).toContain(
      'Long document',
    );
    expect((await ok(bob, 'search_bindings', { query: 'Second version' })).results.map((r: { id: string }) => r.id)).toContain(first.id);
    // The hashed API key still authenticates; live sign-ins were left out, the OAuth client kept.
    expect((await callerForKey(database.db, world.key))?.handle).toBe('alice');
    expect(await count(database, 'web_sessions')).toBe(0);
    expect(await count(database, 'oauth_tokens')).toBe(0);
    expect(await count(database, 'oauth_clients')).toBe(1);
    // Sync state came back, so the folder keeps syncing without a conflict or a duplicate.
    const synced = (
      await database.client.execute(
        `SELECT f.path, f.binding_id, f.mtime_ms, r.path FROM sync_files f JOIN sync_roots r ON r.id = f.root_id`,
      )
    ).rows;
    expect(synced.map((r) => [String(r[0]), String(r[1]), Number(r[2]), String(r[3])])).toEqual([
      ['long.md', world.longId, 1759276800123, '/home/alice/notes'],
    ]);
    // The embedding came back bit for bit, still a vector libSQL reads.
    const vec = (await database.client.execute(`SELECT vector_extract(vector) AS v, dims FROM binding_vectors`)).rows;
    expect(vec.map((r) => [String(r[0]), Number(r[1])])).toEqual([['[0.25,-1.5,3e-07]', 3]]);
    await alice.close();
    await bob.close();
    database.close();
  });

  test('--with-sessions carries live sign-ins too, byte-identical', async () => {
    const text = await dumpOf(world.url, true);
    expect(text.split('\n')[0]).toContain('"sessions":true');
    const database = createDatabase({ url: ':memory:' });
    await restoreText(database, text);
    expect(await dumpOf(database, true)).toBe(text);
    expect([await count(database, 'web_sessions'), await count(database, 'login_links'), await count(database, 'oauth_tokens')]).toEqual([
      1, 1, 1,
    ]);
    database.close();
  });

  test('one snapshot: rows written beside a running dump are not in it, and it restores whole', async () => {
    const database = createDatabase({ url: world.url });
    const writer = createDatabase({ url: world.url });
    const before = await count(database, 'bindings');
    const chunks = dumpLines(database.client);
    let text = (await chunks.next()).value as string;
    // The dump's transaction holds its snapshot: a binding (and a deletion) written now is not seen.
    const bnd = (await writer.client.execute(`SELECT * FROM bindings LIMIT 1`)).rows[0]!;
    await writer.client.batch([
      {
        sql: `INSERT INTO bindings (id, space_id, slug, current_version, created_by, created_at, updated_at) VALUES ('bnd_beside', ?, 'beside', 1, ?, 1, 1)`,
        args: [bnd.space_id as string, bnd.created_by as string],
      },
      {
        sql: `INSERT INTO versions (id, binding_id, number, name, summary, key_points, content, content_preview, content_chars, content_hash, content_token_count, summary_token_count, head_block_tokens, preview_block_tokens, content_block_tokens, source, author_id, created_at) SELECT 'ver_beside', 'bnd_beside', 1, name, summary, key_points, content, content_preview, content_chars, content_hash, content_token_count, summary_token_count, head_block_tokens, preview_block_tokens, content_block_tokens, source, author_id, created_at FROM versions LIMIT 1`,
        args: [],
      },
      `UPDATE comments SET deleted_at = 5`,
    ]);
    for await (const c of chunks) text += c;
    expect(JSON.parse(text.trim().split('\n').at(-1)!).rows.bindings).toBe(before);
    expect(text).not.toContain('bnd_beside');
    expect(text).not.toMatch(/"cmt_[^"]+"[^\n]*,5\]/);
    const restored = createDatabase({ url: ':memory:' });
    await restoreText(restored, text);
    expect(await count(restored, 'bindings')).toBe(before);
    // Contiguous versions for every binding: a snapshot, not a mix.
    expect(
      (
        await restored.client.execute(
          `SELECT id FROM bindings b WHERE (SELECT count(*) FROM versions v WHERE v.binding_id = b.id) != b.current_version`,
        )
      ).rows,
    ).toHaveLength(0);
    await writer.client.batch([
      `DELETE FROM versions WHERE id = 'ver_beside'`,
      `DELETE FROM bindings WHERE id = 'bnd_beside'`,
      `UPDATE comments SET deleted_at = NULL`,
    ]);
    restored.close();
    writer.close();
    database.close();
  });
});

describe('restore refuses, writing nothing', () => {
  const lines = () => dumped.split('\n');
  const cases: [string, () => string, RegExp][] = [
    ['a truncated dump (no trailer)', () => dumped.slice(0, Math.floor(dumped.length / 2)), /truncated|not valid JSON/],
    ['a truncated dump (cut at a line end)', () => lines().slice(0, -3).join('\n') + '\n', /truncated/],
    ['a damaged row (one character changed)', () => dumped.replace('Bob was here.', 'Bob was HERE.'), /SHA-256/],
    [
      'a dropped row',
      () =>
        lines()
          .filter((l) => !l.includes('Bob was here.'))
          .join('\n'),
      /counts/,
    ],
    ['a newer format', () => dumped.replace('"format":1', '"format":2'), /newer Bindery/],
    ['a newer schema', () => dumped.replace(/"schema":"[^"]+"/, '"schema":"9999_future"'), /newer than this Bindery/],
    ['not a dump', () => 'hello\nworld\n', /not a Bindery dump/],
  ];
  for (const [name, make, message] of cases) {
    test(`${name}: nothing written, not even the schema`, async () => {
      const database = createDatabase({ url: `file:${join(dir, `refuse-${name.replace(/\W+/g, '-')}.db`)}` });
      const err = await restoreText(database, make()).catch((e) => e);
      expect(err).toBeInstanceOf(DumpError);
      expect(String(err.message)).toMatch(message);
      expect(await tables(database)).toBe(0);
      database.close();
    });
  }

  test('a damaged dump read once (a stream): the transaction rolls back, no row is left', async () => {
    const database = createDatabase({ url: ':memory:' });
    const err = await restoreText(database, dumped.replace('Bob was here.', 'Bob was HERE.'), false).catch((e) => e);
    expect(String(err.message)).toMatch(/SHA-256/);
    for (const t of ['users', 'spaces', 'bindings', 'versions', 'comments', 'api_keys']) expect(await count(database, t)).toBe(0);
    // …and the same database then takes the good dump.
    await restoreText(database, dumped, false);
    expect(await dumpOf(database)).toBe(dumped);
    database.close();
  });

  test('a database that is not empty', async () => {
    const database = createDatabase({ url: ':memory:' });
    await restoreText(database, dumped);
    const before = await dumpOf(database);
    const err = await restoreText(database, dumped).catch((e) => e);
    expect(String(err.message)).toMatch(/not empty/);
    expect(await dumpOf(database)).toBe(before);
    database.close();
  });
});

describe('the CLI', () => {
  test('dump - equals dump <file>; restore refuses a corrupt file and a full database with exit 1', async () => {
    const env = { BINDERY_DB_URL: world.url };
    const file = join(dir, 'cli.jsonl');
    const [toFile, toStdout] = [await cli(['dump', file], env), await cli(['dump', '-'], env)];
    expect(toFile.code).toBe(0);
    expect(toFile.stderr).toMatch(/^dumped \d+ rows \(7 bindings, 9 versions\) to .* in [\d.]+ s \([\d,]+ rows\/s\)\n$/);
    expect(toStdout.stdout).toBe(readFileSync(file, 'utf8'));
    expect(toStdout.stdout).toBe(dumped);
    const target = { BINDERY_DB_URL: `file:${join(dir, 'cli-target.db')}` };
    writeFileSync(join(dir, 'bad.jsonl'), dumped.slice(0, -40));
    const bad = await cli(['restore', join(dir, 'bad.jsonl')], target);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringMatching(/^bindery restore: (truncated|corrupt) dump/)]);
    const good = await cli(['restore', file], target);
    expect(good.code).toBe(0);
    expect(good.stderr).toMatch(/^restored \d+ rows \(7 bindings, schema \d{4}_\w+\)/);
    expect((await cli(['dump', '-'], target)).stdout).toBe(dumped);
    const again = await cli(['restore', file], target);
    expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(/not empty/)]);
  }, 60_000);
});

describe('what a dump covers', () => {
  test('a table this format does not know is refused, not silently left out', async () => {
    const database = createDatabase({ url: ':memory:' });
    await restoreText(database, dumped);
    await database.client.execute('CREATE TABLE plugin_notes (id TEXT PRIMARY KEY, body TEXT)');
    const err = await dumpOf(database).catch((e) => e);
    expect(err).toBeInstanceOf(DumpError);
    expect(String(err.message)).toMatch(/plugin_notes is not known/);
    database.close();
  });
});

describe('progress', () => {
  const sink = (isTTY: boolean) => {
    const out = { isTTY, text: '', write: (s: string) => void (out.text += s) };
    return out;
  };
  test('on a TTY: a redrawn line with done/total, rate and time left, then the summary', async () => {
    const out = sink(true);
    let t = 0;
    const p = rowProgress(out, () => t);
    p.total(1000);
    t = 2000;
    p.update(400);
    p.finish('dumped 1,000 rows');
    expect(out.text).toContain('\r400/1000 rows (40%) · 200/s · 3s left\x1b[K');
    expect(out.text).toEndWith('\r\x1b[Kdumped 1,000 rows in 2.0 s (200 rows/s)\n');
  });
  test('off a TTY: only the summary', () => {
    const out = sink(false);
    const p = rowProgress(out);
    p.total(10);
    p.update(5);
    p.finish('dumped 10 rows');
    expect(out.text).toMatch(/^dumped 10 rows in [\d.]+ s \([\d,]+ rows\/s\)\n$/);
  });
});

describe('remote libSQL', () => {
  // A scratch Turso/sqld database (BINDERY_TEST_REMOTE_URL), emptied of Bindery's tables first.
  test.skipIf(Boolean(remoteUnavailable()))(
    'restore into it through the same client, and dump it back byte-identical',
    async () => {
      const remote = createDatabase({ url: process.env.BINDERY_TEST_REMOTE_URL!, authToken: process.env.BINDERY_TEST_REMOTE_AUTH_TOKEN });
      const names = (
        await remote.client.execute(
          `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts_%' AND name NOT LIKE '_litestream%'`,
        )
      ).rows.map((r) => String(r[0]));
      for (const n of ['bindings_fts', ...names]) await remote.client.execute(`DROP TABLE IF EXISTS "${n}"`);
      await restoreText(remote, dumped);
      expect(await dumpOf(remote)).toBe(dumped);
      expect(String((await restoreText(remote, dumped).catch((e) => e)).message)).toMatch(/not empty/);
      remote.close();
    },
    120_000,
  );
});
