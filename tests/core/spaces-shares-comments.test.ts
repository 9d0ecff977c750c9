// Spaces, shares and comments end to end over the SDK client: what each tool returns, provenance,
// paging, and every bad input answered with a clear isError result and nothing written.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { commentBodyBlock, ensureCommentCounts } from '../../core/services/comments.ts';
import { contextOf, createTestWorld, err, ok, sampleBinding, textOf, type TestWorld } from '../helpers.ts';

let world: TestWorld;
let alice: Client;
let bob: Client;
let carol: Client;

const countRows = async (table: string) => Number((await world.db.get<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM ${table}`)))!.n);

beforeAll(async () => {
  world = await createTestWorld();
  alice = await world.connect('alice', { clientName: 'claude-code' });
  bob = await world.connect('bob');
  carol = await world.connect('carol');
});
afterAll(() => world.close());

describe('spaces', () => {
  test('create_space is private by default, takes @slug, and is where create_binding writes', async () => {
    const s = await ok(alice, 'create_space', { slug: '@team-docs', name: 'Team docs' });
    expect(s.space).toMatchObject({ slug: '@team-docs', name: 'Team docs', visibility: 'private' });
    expect(s.space.id).toMatch(/^spc_/);
    const pub = await ok(alice, 'create_space', { slug: 'open-2', name: 'Open', visibility: 'public' });
    expect(pub.space.visibility).toBe('public');
    const b = await ok(alice, 'create_binding', { ...sampleBinding(1), space: s.space.id });
    expect(b.binding.space).toBe('@team-docs');
    const listed = await ok(alice, 'list_spaces', {});
    expect(listed.spaces.map((x: { slug: string }) => x.slug)).toEqual(['@alice', '@open-2', '@team-docs']);
    expect(listed.spaces[0]).toMatchObject({ personal: true, access: 'owner' });
    expect(listed.spaces.find((x: { slug: string }) => x.slug === '@team-docs')).toMatchObject({ bindingCount: 1, owner: '@alice' });
    // Paged.
    const p1 = await ok(alice, 'list_spaces', { limit: 2 });
    expect(p1.pagination).toMatchObject({ total: 3, hasMore: true });
    const p2 = await ok(alice, 'list_spaces', { limit: 2, cursor: p1.pagination.nextCursor });
    expect(p2.spaces.map((x: { slug: string }) => x.slug)).toEqual(['@team-docs']);
  });

  test('bad slugs and taken slugs are refused; nothing is written', async () => {
    const before = await countRows('spaces');
    for (const slug of ['Team', 'a', 'has_underscore', '-lead', 'trail-', 'two--dashes', 'x'.repeat(41), 'spc_0123456789abcdef']) {
      expect(await err(alice, 'create_space', { slug, name: 'n' })).toMatch(/^Error INVALID_INPUT: slug: /);
    }
    expect(await err(bob, 'create_space', { slug: 'team-docs', name: 'mine' })).toMatch(/^Error CONFLICT: slug: @team-docs is taken/);
    expect(await err(bob, 'create_space', { slug: 'alice', name: 'a personal space slug' })).toMatch(
      /^Error CONFLICT: slug: @alice is taken/,
    );
    expect(await err(bob, 'create_space', { slug: 'ok-slug', name: 'n', visibility: 'secret' })).toMatch(/visibility: must be/);
    expect(await countRows('spaces')).toBe(before);
  });
});

describe('shares', () => {
  let doc: string;
  beforeAll(async () => {
    doc = (await ok(alice, 'create_binding', sampleBinding(7))).binding.id;
  });

  test('bad shares: unknown user, neither or both of user and public, oneself, bad permission; nothing written', async () => {
    const before = await countRows('shares');
    expect(await err(alice, 'create_share', { target: doc, user: 'nobody-here', permission: 'read' })).toMatch(
      /^Error NOT_FOUND: user: no user with handle "nobody-here"/,
    );
    expect(await err(alice, 'create_share', { target: doc, permission: 'read' })).toMatch(
      /^Error INVALID_INPUT: user: give either user .* or public: true/,
    );
    expect(await err(alice, 'create_share', { target: doc, user: 'bob', public: true, permission: 'read' })).toMatch(
      /INVALID_INPUT: user: give either/,
    );
    expect(await err(alice, 'create_share', { target: doc, user: 'alice', permission: 'read' })).toMatch(
      /INVALID_INPUT: user: "alice" is you/,
    );
    expect(await err(alice, 'create_share', { target: doc, user: 'bob', permission: 'write' })).toMatch(/permission: must be/);
    expect(await err(alice, 'create_share', { target: doc, public: false, permission: 'read' })).toMatch(/public: must be true when given/);
    expect(await err(alice, 'create_share', { target: 'bnd_0000000000000000', user: 'bob', permission: 'read' })).toMatch(
      /^Error NOT_FOUND: id: binding bnd_0000000000000000/,
    );
    expect(await countRows('shares')).toBe(before);
  });

  test('sharing twice returns the same share; a new permission replaces it; list_shares both ways', async () => {
    const first = await ok(alice, 'create_share', { target: doc, user: '@bob', permission: 'read' });
    expect(first).toMatchObject({
      created: true,
      share: { user: '@bob', permission: 'read', public: false, target: { type: 'binding', id: doc, label: 'Sample note 7' } },
    });
    const again = await ok(alice, 'create_share', { target: doc, user: 'bob', permission: 'read' });
    expect(again).toMatchObject({ created: false, share: { id: first.share.id } });
    const upgraded = await ok(alice, 'create_share', { target: doc, user: 'bob', permission: 'comment' });
    expect(upgraded.share.id).not.toBe(first.share.id);
    const onDoc = await ok(alice, 'list_shares', { target: doc });
    expect(onDoc.shares.map((s: { id: string; permission: string }) => [s.id, s.permission])).toEqual([[upgraded.share.id, 'comment']]);
    const bobs = await ok(bob, 'list_shares', {});
    expect(bobs.shares.map((s: { id: string }) => s.id)).toContain(upgraded.share.id);
    expect(textOf(bobs._result)).toContain(`${upgraded.share.id} · binding ${doc} "Sample note 7" · @bob · comment · by @alice`);
    expect(await err(bob, 'list_shares', { target: doc })).toMatch(/^Error FORBIDDEN: binding .* is not yours/);
  });

  test('revoke: by the owner only, once; a second revoke is a conflict', async () => {
    const s = await ok(alice, 'create_share', { target: doc, public: true, permission: 'read' });
    expect(await err(carol, 'revoke_share', { id: s.share.id })).toMatch(/^Error NOT_FOUND: id: share/);
    const r = await ok(alice, 'revoke_share', { id: s.share.id });
    expect(r.share).toMatchObject({ id: s.share.id, revoked: true, public: true });
    expect(await err(alice, 'revoke_share', { id: s.share.id })).toMatch(
      /^Error CONFLICT: id: share .* is already revoked; nothing changed\nNothing to do/,
    );
    expect(await err(alice, 'revoke_share', { id: 'shr_bad' })).toMatch(/^Error INVALID_INPUT: id: must be a share id/);
  });
});

describe('comments', () => {
  let doc: string;
  beforeAll(async () => {
    doc = (await ok(alice, 'create_binding', sampleBinding(9))).binding.id;
    await ok(alice, 'update_binding', { id: doc, summary: 'second version' });
    await ok(alice, 'create_share', { target: doc, user: 'bob', permission: 'comment' });
    await ok(alice, 'create_share', { target: doc, user: 'carol', permission: 'read' });
  });

  test('add_comment records provenance (model argument, else the client), optionally on a version', async () => {
    const a = await ok(alice, 'add_comment', { id: doc, body: '  Looks right; see section 2.  ' });
    expect(a.comment).toMatchObject({
      body: 'Looks right; see section 2.',
      author: '@alice',
      source: 'llm',
      model: 'claude-code 1.0.0',
      version: null,
    });
    expect(contextOf(a._result).agentMeta).toEqual({ source: 'llm', model: 'claude-code 1.0.0' });
    const b = await ok(bob, 'add_comment', { id: doc, body: 'v1 had a typo', version: 1, model: 'opus-test' });
    expect(b.comment).toMatchObject({ version: 1, model: 'opus-test', author: '@bob' });
    // The stored count is of the body as shown: between its comment's fence lines.
    const fence = textOf(b._result).match(/<content fence="([0-9a-f]+)">/)![1]!;
    expect(textOf(b._result)).toContain(`<content fence="${fence}">\nv1 had a typo\n</content fence="${fence}">\n`);
    expect(b.comment.bodyTokenCount).toBe(world.tokens.count(`<content fence="${fence}">\nv1 had a typo\n</content fence="${fence}">\n`));
  });

  test('bad comments write nothing', async () => {
    const before = await countRows('comments');
    expect(await err(carol, 'add_comment', { id: doc, body: 'read-only me' })).toMatch(
      /^Error FORBIDDEN: you may read binding .* but not comment/,
    );
    expect(await err(bob, 'add_comment', { id: doc, body: '   ' })).toMatch(/body: must not be empty/);
    expect(await err(bob, 'add_comment', { id: doc, body: 'x'.repeat(4001) })).toMatch(/body: must be at most 4000 characters/);
    expect(await err(bob, 'add_comment', { id: doc, body: 'x', version: 3 })).toMatch(/^Error NOT_FOUND: version: version 3 of/);
    expect(await err(bob, 'add_comment', { id: 'bnd_0000000000000000', body: 'x' })).toMatch(/^Error NOT_FOUND/);
    expect(await countRows('comments')).toBe(before);
  });

  test('list_comments is paged, oldest first, filterable by version, readable with a read share', async () => {
    for (let i = 0; i < 3; i++) await ok(alice, 'add_comment', { id: doc, body: `note ${i}` });
    const page1 = await ok(carol, 'list_comments', { id: doc, limit: 2 });
    expect(page1.comments.map((c: { body: string }) => c.body)).toEqual(['Looks right; see section 2.', 'v1 had a typo']);
    expect(page1.pagination).toMatchObject({ total: 5, hasMore: true });
    const page2 = await ok(carol, 'list_comments', { id: doc, limit: 2, cursor: page1.pagination.nextCursor });
    expect(page2.comments.map((c: { body: string }) => c.body)).toEqual(['note 0', 'note 1']);
    expect(await err(carol, 'list_comments', { id: doc, limit: 3, cursor: page1.pagination.nextCursor })).toMatch(/cursor: was not issued/);
    const v1 = await ok(carol, 'list_comments', { id: doc, version: 1 });
    expect(v1.comments.map((c: { body: string }) => c.body)).toEqual(['v1 had a typo']);
    expect(textOf(v1._result)).toContain('@bob · llm/opus-test');
  });

  test('delete_comment: the author or the space owner; nobody else; not twice', async () => {
    const list = (await ok(alice, 'list_comments', { id: doc, limit: 50 })).comments as { id: string; author: string; body: string }[];
    const bobs = list.find((c) => c.author === '@bob')!;
    const alices = list.find((c) => c.author === '@alice')!;
    expect(await err(carol, 'delete_comment', { id: bobs.id })).toMatch(/^Error FORBIDDEN: comment .* is not yours/);
    expect(await err(bob, 'delete_comment', { id: alices.id })).toMatch(/^Error FORBIDDEN/);
    expect(await err(await world.connect('mallory'), 'delete_comment', { id: bobs.id })).toMatch(/^Error NOT_FOUND: id: comment/);
    await ok(alice, 'delete_comment', { id: bobs.id }); // the space owner removes someone else's comment
    await ok(alice, 'delete_comment', { id: alices.id });
    expect(await err(alice, 'delete_comment', { id: alices.id })).toMatch(/^Error NOT_FOUND: id: comment/);
    const left = (await ok(alice, 'list_comments', { id: doc, limit: 50 })).comments.map((c: { id: string }) => c.id);
    expect(left).not.toContain(bobs.id);
    expect(left).toHaveLength(list.length - 2);
  });

  test('comment counts made for another tokenizer are recounted on read (in memory) and once at upkeep', async () => {
    const deps = { db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() };
    await world.db.run(sql`UPDATE comments SET body_token_count = 1, counts_key = 'c1|cl100k_base'`);
    // Read before any upkeep: the stale rows are recounted for this process, not trusted.
    await ok(alice, 'list_comments', { id: doc });
    expect(await ensureCommentCounts(deps)).toBeGreaterThan(0);
    expect(await ensureCommentCounts(deps)).toBe(0);
    const rows = await world.db.all<{ body: string; fence: string; n: number }>(
      sql`SELECT body, fence, body_token_count AS n FROM comments`,
    );
    for (const r of rows) expect(r.n).toBe(world.tokens.count(commentBodyBlock(r.body, r.fence)));
    // The listing's exact-count check in `ok` (via `call`) holds again.
    await ok(alice, 'list_comments', { id: doc });
  });

  test('long comments end a page at the response cap; the cursor continues where it stopped', async () => {
    const small = await createTestWorld({ BINDERY_MAX_RESPONSE_TOKENS: '1000' });
    try {
      const me = await small.connect('writer');
      const id = (await ok(me, 'create_binding', sampleBinding(1))).binding.id;
      const words = (i: number) => Array.from({ length: 120 }, (_, k) => `w${i}x${k}`).join(' ');
      for (let i = 0; i < 6; i++) await ok(me, 'add_comment', { id, body: words(i) });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await ok(me, 'list_comments', { id, limit: 50, ...(cursor ? { cursor } : {}) });
        expect(contextOf(page._result).response.tokens).toBeLessThanOrEqual(1000);
        expect(page.comments.length).toBeGreaterThan(0);
        seen.push(...page.comments.map((c: { body: string }) => c.body));
        cursor = page.pagination.nextCursor ?? undefined;
        pages++;
      } while (cursor);
      expect(pages).toBeGreaterThan(1);
      expect(seen).toEqual(Array.from({ length: 6 }, (_, i) => words(i)));
    } finally {
      small.close();
    }
  });
});

describe('personal spaces', () => {
  test("a team space holding a future user's handle does not take that user's personal space away", async () => {
    const own = await createTestWorld();
    const alice = await own.connect('alice');
    await ok(alice, 'create_space', { slug: 'dora', name: 'Dora the project' });
    const dora = await own.connect('dora');
    const created = await ok(dora, 'create_binding', sampleBinding(1));
    expect(created.binding.space).toBe('@dora-home');
    const who = await ok(dora, 'whoami');
    expect(JSON.stringify(who)).toContain('dora-home');
    // The team space stays Alice's, and Dora still cannot write to it.
    const refused = await err(dora, 'create_binding', { ...sampleBinding(2), space: '@dora' });
    expect(refused).toMatch(/NOT_FOUND|FORBIDDEN/);
    own.close();
  });
});
