// Share acceptance (ARCHITECTURE.md#glossary): another user's share reaches me at once when I name it (an id, a space),
// but enters my default searches and lists only after I accept it, and I can decline it. Nobody else
// can see, accept or decline it; REST's default listings follow the same rule; shares made before the
// upgrade (backfilled as accepted) stay in scope.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { createHttpApp } from '../../core/http/app.ts';
import { createApiKey } from '../../core/http/auth.ts';
import { createBinderyServer, parseConfig } from '../../core/index.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { createDatabase, migrate } from '../../db/index.ts';
import { createTestWorld, err, ok, testCounter, textOf, type TestWorld } from '../helpers.ts';
import { REPO } from '../stdio-client.ts';

const MISSING = 'shr_0000000000000000';
const WORD = 'kinkajou';

let world: TestWorld;
let alice: Client;
let bob: Client;
let carol: Client;
/** Alice's binding in her personal space, her project space with one binding, and a set in it. */
let note: string;
let projNote: string;
let projSet: string;
/** Alice's shares of those three with bob, made in beforeAll and not yet answered. */
let noteShare: string;
let spaceShare: string;
let setShare: string;

const ids = (r: { results?: { id: string }[]; sets?: { id: string }[] }) => (r.results ?? r.sets ?? []).map((x) => x.id);
const slugs = async (c: Client) => (await ok(c, 'list_spaces', {})).spaces.map((s: { slug: string }) => s.slug);

/** A refusal about a share id is word for word the refusal for a share that does not exist. */
async function sameAsMissing(client: Client, name: string, args: Record<string, unknown>, id: string) {
  const real = await err(client, name, args);
  const ghost = await err(client, name, JSON.parse(JSON.stringify(args).replaceAll(id, MISSING)));
  expect(real).toMatch(/^Error NOT_FOUND/);
  expect(real).toBe(ghost.replaceAll(MISSING, id));
}

beforeAll(async () => {
  world = await createTestWorld();
  alice = await world.connect('alice');
  bob = await world.connect('bob');
  carol = await world.connect('carol');
  note = (
    await ok(alice, 'create_binding', {
      name: 'Launch plan',
      content: `# Plan\n\nThe ${WORD} launch.\n`,
      summary: `The ${WORD} launch plan.`,
    })
  ).binding.id;
  await ok(alice, 'create_space', { slug: 'alice-proj', name: 'Project' });
  projNote = (
    await ok(alice, 'create_binding', {
      space: '@alice-proj',
      name: 'Project notes',
      content: `# Notes\n\n${WORD} project.\n`,
      summary: `Notes on the ${WORD} project.`,
    })
  ).binding.id;
  projSet = (await ok(alice, 'create_set', { space: '@alice-proj', name: 'Project reading', bindingIds: [projNote] })).set.id;
  const made = await ok(alice, 'create_share', { target: note, user: 'bob', permission: 'read' });
  expect(made.share.accepted).toBe(false);
  expect(textOf(made._result)).toContain('@bob can open it by id now; it enters their searches and lists once they accept it.');
  noteShare = made.share.id;
  spaceShare = (await ok(alice, 'create_share', { target: '@alice-proj', user: 'bob', permission: 'read' })).share.id;
  setShare = (await ok(alice, 'create_share', { target: projSet, user: 'bob', permission: 'read' })).share.id;
});
afterAll(() => world.close());

describe('a share nobody accepted', () => {
  test('unsolicited shares stay out of the recipient’s default search, list_spaces, list_sets and whoami', async () => {
    expect(await ok(bob, 'search_bindings', { query: WORD, limit: 10 })).toMatchObject({ results: [], pagination: { total: 0 } });
    expect(await slugs(bob)).toEqual(['@bob']);
    expect(ids(await ok(bob, 'list_sets', {}))).toEqual([]);
    expect(JSON.stringify(await ok(bob, 'whoami', {}))).not.toContain('alice-proj');
  });

  test('naming it still reaches it: by id, by naming the space, through the set', async () => {
    expect((await ok(bob, 'get_binding', { id: note })).binding.name).toBe('Launch plan');
    expect((await ok(bob, 'get_bindings', { ids: [note, projNote] })).results).toHaveLength(2);
    expect(ids(await ok(bob, 'search_bindings', { query: WORD, space: '@alice-proj' }))).toEqual([projNote]);
    expect(ids(await ok(bob, 'list_bindings', { space: '@alice-proj' }))).toEqual([projNote]);
    expect(ids(await ok(bob, 'list_sets', { space: '@alice-proj' }))).toEqual([projSet]);
    expect((await ok(bob, 'get_set_context', { setId: projSet, maxTokens: 2000 })).items.map((i: { id: string }) => i.id)).toEqual([
      projNote,
    ]);
  });

  test('list_shares {incoming: true} shows the recipient each share with accepted: false and how to answer', async () => {
    const incoming = await ok(bob, 'list_shares', { incoming: true });
    expect(incoming.shares.map((s: { id: string; accepted: boolean }) => [s.id, s.accepted]).sort()).toEqual(
      [noteShare, spaceShare, setShare].sort().map((id) => [id, false]),
    );
    expect(textOf(incoming._result)).toContain(
      '## 3 live shares given to you, 3 pending (accept: create_share {accept: id}; decline: revoke_share {id})',
    );
    expect(textOf(incoming._result)).toContain(`${noteShare} · binding ${note} "Launch plan" · @bob · read · by @alice`);
    // The owner sees the same state on the target.
    expect((await ok(alice, 'list_shares', { target: note })).shares[0]).toMatchObject({ id: noteShare, accepted: false });
  });

  test('a third user can neither see, accept nor decline it: the answers of a missing share', async () => {
    await sameAsMissing(carol, 'create_share', { accept: noteShare }, noteShare);
    await sameAsMissing(carol, 'revoke_share', { id: noteShare }, noteShare);
    expect((await ok(carol, 'list_shares', { incoming: true })).shares).toEqual([]);
    expect((await ok(carol, 'list_shares', {})).shares).toEqual([]);
    // The owner knows it exists, so she is told why she cannot accept it.
    expect(await err(alice, 'create_share', { accept: noteShare })).toMatch(
      /^Error FORBIDDEN: accept: share shr_\w+ is addressed to @bob; only they can accept it/,
    );
    expect((await ok(bob, 'list_shares', { incoming: true })).shares.every((s: { accepted: boolean }) => !s.accepted)).toBe(true);
  });

  test('a public link needs no acceptance and still never enters anyone’s searches', async () => {
    const link = await ok(alice, 'create_share', { target: note, public: true, permission: 'read' });
    expect(link.share.accepted).toBe(true);
    expect(await err(alice, 'create_share', { accept: link.share.id })).toMatch(
      /^Error FORBIDDEN: accept: share .* is a public link, which needs no acceptance/,
    );
    await sameAsMissing(carol, 'create_share', { accept: link.share.id }, link.share.id);
    expect((await ok(carol, 'search_bindings', { query: WORD })).results).toEqual([]);
    await ok(alice, 'revoke_share', { id: link.share.id });
  });
});

describe('accepting and declining', () => {
  test('after accepting, each share’s content enters the default scope; accepting twice changes nothing', async () => {
    const accepted = await ok(bob, 'create_share', { accept: noteShare });
    expect(accepted).toMatchObject({ created: false, share: { id: noteShare, accepted: true } });
    expect(textOf(accepted._result)).toStartWith(`Accepted ${noteShare}: binding ${note} now appears in your searches and lists.`);
    expect(ids(await ok(bob, 'search_bindings', { query: WORD, limit: 10 }))).toEqual([note]);
    const again = await ok(bob, 'create_share', { accept: noteShare });
    expect(textOf(again._result)).toStartWith(`Already accepted (${noteShare}); nothing changed.`);

    await ok(bob, 'create_share', { accept: spaceShare });
    expect(ids(await ok(bob, 'search_bindings', { query: WORD, limit: 10 })).sort()).toEqual([note, projNote].sort());
    expect(await slugs(bob)).toEqual(['@bob', '@alice-proj']);
    await ok(bob, 'create_share', { accept: setShare });
    expect(ids(await ok(bob, 'list_sets', {}))).toEqual([projSet]);
    expect((await ok(bob, 'list_shares', { incoming: true })).shares.every((s: { accepted: boolean }) => s.accepted)).toBe(true);
  });

  test('declining removes access entirely, and tells the owner nothing more than a revoke would', async () => {
    const extra = (await ok(alice, 'create_binding', { name: 'Unwanted', content: `${WORD} spam`, summary: 'unwanted' })).binding.id;
    const share = (await ok(alice, 'create_share', { target: extra, user: 'bob', permission: 'comment' })).share.id;
    const declined = await ok(bob, 'revoke_share', { id: share });
    expect(declined.share).toMatchObject({ id: share, revoked: true });
    expect(textOf(declined._result)).toStartWith(`Declined ${share}: it no longer gives you comment access to binding ${extra}.`);
    expect(await err(bob, 'get_binding', { id: extra })).toMatch(/^Error NOT_FOUND/);
    expect(await err(bob, 'add_comment', { id: extra, body: 'x' })).toMatch(/^Error NOT_FOUND/);
    expect((await ok(alice, 'list_shares', { target: extra })).shares).toEqual([]);
    expect(await err(bob, 'revoke_share', { id: share })).toMatch(/^Error CONFLICT: id: share .* is already revoked/);
    expect(await err(bob, 'create_share', { accept: share })).toMatch(
      /^Error CONFLICT: accept: share .* was revoked; there is nothing to accept/,
    );

    // Declining an accepted space share takes its bindings out of search and out of reach.
    await ok(bob, 'revoke_share', { id: spaceShare });
    expect(await slugs(bob)).toEqual(['@bob']);
    expect(await err(bob, 'list_bindings', { space: '@alice-proj' })).toMatch(/^Error NOT_FOUND/);
    // The set share (accepted) still covers the set's item.
    expect(ids(await ok(bob, 'search_bindings', { query: WORD, limit: 10 })).sort()).toEqual([note, projNote].sort());
  });

  test('re-sharing: a new permission keeps acceptance; sharing again after a decline asks again', async () => {
    const up = await ok(alice, 'create_share', { target: note, user: 'bob', permission: 'comment' });
    expect(up).toMatchObject({ created: true, share: { permission: 'comment', accepted: true } });
    expect(ids(await ok(bob, 'search_bindings', { query: WORD, limit: 10 }))).toContain(note);

    const again = await ok(alice, 'create_share', { target: '@alice-proj', user: 'bob', permission: 'read' });
    expect(again).toMatchObject({ created: true, share: { accepted: false } });
    expect(await slugs(bob)).toEqual(['@bob']);
    const pendingUp = await ok(alice, 'create_share', { target: '@alice-proj', user: 'bob', permission: 'comment' });
    expect(pendingUp.share).toMatchObject({ permission: 'comment', accepted: false });
    expect((await ok(bob, 'list_shares', { incoming: true })).shares[0]).toMatchObject({ id: pendingUp.share.id, accepted: false });
  });
});

describe('arguments', () => {
  test('create_share takes either target and permission or accept alone; list_shares target or incoming', async () => {
    expect(await err(bob, 'create_share', {})).toMatch(
      /^Error INVALID_INPUT: target: is required \(string\) to share; to accept a share given to you, give accept instead; permission: is required with target/,
    );
    expect(await err(bob, 'create_share', { target: note })).toMatch(/^Error INVALID_INPUT: permission: is required with target/);
    expect(await err(bob, 'create_share', { accept: noteShare, permission: 'read' })).toMatch(
      /^Error INVALID_INPUT: permission: must not be given with accept/,
    );
    expect(await err(bob, 'create_share', { accept: 'shr_bad' })).toMatch(/^Error INVALID_INPUT: accept: must be a share id like shr_/);
    expect(await err(bob, 'list_shares', { target: note, incoming: true })).toMatch(
      /^Error INVALID_INPUT: incoming: give target or incoming: true, not both/,
    );
  });
});

describe('REST', () => {
  test('the default listings of /api follow the same rule; naming the space reaches a pending share', async () => {
    const deps = { db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() };
    const dave = await ensureCaller(deps, 'dave');
    const key = (await createApiKey(world.db, dave.id, Date.now())).key;
    const app = createHttpApp({ deps: { db: world.db, tokens: await testCounter(), config: world.config, now: Date.now } });
    const get = async (path: string) => {
      const res = await app.fetch(new Request(`http://localhost:8787${path}`, { headers: { Authorization: `Bearer ${key}` } }));
      expect(res.status).toBe(200);
      return ((await res.json()) as { results: { id: string }[] }).results.map((r) => r.id);
    };
    const share = (await ok(alice, 'create_share', { target: '@alice-proj', user: 'dave', permission: 'read' })).share.id;
    expect(await get(`/api/bindings?q=${WORD}`)).toEqual([]);
    expect(await get('/api/sets')).toEqual([]);
    expect(await get(`/api/bindings?q=${WORD}&space=@alice-proj`)).toEqual([projNote]);
    expect(await get('/api/sets?space=@alice-proj')).toEqual([projSet]);
    await ok(await world.connect('dave'), 'create_share', { accept: share });
    expect(await get(`/api/bindings?q=${WORD}`)).toEqual([projNote]);
    expect(await get('/api/sets')).toEqual([projSet]);
  });
});

describe('upgrade', () => {
  test('a user share made before acceptance existed (release 0.1.0, backfilled) is still in the default scope', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-accept-upgrade-'));
    const file = join(dir, 'old.db');
    copyFileSync(join(REPO, 'tests', 'fixtures', 'db', 'v0.1.0.db'), file);
    const database = createDatabase({ url: `file:${file}` });
    try {
      await migrate(database.db);
      const config = parseConfig({ BINDERY_DB_URL: `file:${file}`, BINDERY_TOOL_MODE: 'eager' });
      const deps = { db: database.db, tokens: await testCounter(), config, now: () => Date.now() };
      const server = createBinderyServer(deps, { caller: await ensureCaller(deps, 'bob') });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(b);
      const client = new McpClient({ name: 'upgrade-check', version: '1' });
      await client.connect(a);
      const incoming = await ok(client, 'list_shares', { incoming: true });
      expect(incoming.shares).toHaveLength(1);
      expect(incoming.shares[0]).toMatchObject({ user: '@bob', permission: 'comment', accepted: true });
      const found = await ok(client, 'search_bindings', { query: 'Fixture note' });
      expect(found.results.map((r: { id: string }) => r.id)).toEqual([incoming.shares[0].target.id]);
      await client.close();
    } finally {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
