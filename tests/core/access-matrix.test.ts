// The access-control matrix, end to end over the SDK client: a second user can neither read nor learn
// of another user's private binding through any tool (each refusal is word for word the answer for a
// missing id); a share grants exactly its permission; revoking it closes it on the next call.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ALL_TOOLS } from '../../core/tools/registry.ts';
import { call, createTestWorld, err, ok, textOf, type TestWorld } from '../helpers.ts';

const SECRET = {
  name: 'Zanzibar merger plan',
  summary: 'QUOKKA-SUMMARY-MARKER of the deal.',
  content: '# Plan\n\nOCELOT-CONTENT-MARKER details.\n',
  keyPoints: ['NARWHAL-KEYPOINT'],
};
const MARKERS = ['Zanzibar', 'QUOKKA', 'OCELOT', 'NARWHAL', 'PANGOLIN-SET', 'AXOLOTL-COMMENT'];
const MISSING = { bnd: 'bnd_0000000000000000', set: 'set_0000000000000000', cmt: 'cmt_0000000000000000', shr: 'shr_0000000000000000' };

let world: TestWorld;
let alice: Client;
let mallory: Client;
let secret: string;
let secretSet: string;
let aliceComment: string;
let aliceShare: string;

/** Private markers in a result, except those the caller itself sent (a search echoes its query). */
function leaks(result: CallToolResult, args: Record<string, unknown>): string[] {
  const all = JSON.stringify(result);
  const sent = JSON.stringify(args);
  return MARKERS.filter((m) => all.includes(m) && !sent.includes(m));
}

/** Calls as `client` and asserts nothing private came back. */
async function probe(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await call(client, name, args);
  expect({ tool: name, leaks: leaks(result, args) }).toEqual({ tool: name, leaks: [] });
  return result;
}

/** The refusal for a private id is exactly the refusal for a missing one (with the id swapped). */
async function sameAsMissing(client: Client, name: string, args: Record<string, unknown>, privateId: string, missingId: string) {
  const real = await probe(client, name, args);
  const swapped = JSON.parse(JSON.stringify(args).replaceAll(privateId, missingId));
  const ghost = await probe(client, name, swapped);
  expect(real.isError).toBe(true);
  expect(textOf(real)).toBe(textOf(ghost).replaceAll(missingId, privateId));
}

beforeAll(async () => {
  world = await createTestWorld();
  alice = await world.connect('alice');
  mallory = await world.connect('mallory');
  await world.connect('bob');
  await world.connect('carol');
  secret = (await ok(alice, 'create_binding', SECRET)).binding.id;
  secretSet = (await ok(alice, 'create_set', { name: 'PANGOLIN-SET', bindingIds: [secret] })).set.id;
  aliceComment = (await ok(alice, 'add_comment', { id: secret, body: 'AXOLOTL-COMMENT from the owner' })).comment.id;
  aliceShare = (await ok(alice, 'create_share', { target: secret, user: 'bob', permission: 'read' })).share.id;
});
afterAll(() => world.close());

describe('a second user cannot read, find or learn of a private binding through any tool', () => {
  // Every registered tool must appear here: a new tool fails this test until it is added.
  const matrix: Record<string, () => Promise<void>> = {
    create_binding: async () =>
      sameAsMissing(mallory, 'create_binding', { space: '@alice', name: 'x', content: 'x', summary: 'x' }, '@alice', '@nosuchspace'),
    get_binding: async () => {
      for (const tier of ['1', '1.5', '2']) await sameAsMissing(mallory, 'get_binding', { id: secret, tier }, secret, MISSING.bnd);
    },
    get_bindings: async () => {
      const r = await probe(mallory, 'get_bindings', { ids: [secret], tier: '2' });
      expect(r.structuredContent).toMatchObject({ results: [], notFound: [secret] });
      const ghost = await probe(mallory, 'get_bindings', { ids: [MISSING.bnd], tier: '2' });
      expect(textOf(r)).toBe(textOf(ghost).replaceAll(MISSING.bnd, secret));
    },
    update_binding: async () => sameAsMissing(mallory, 'update_binding', { id: secret, summary: 'pwned' }, secret, MISSING.bnd),
    delete_binding: async () => sameAsMissing(mallory, 'delete_binding', { id: secret }, secret, MISSING.bnd),
    list_bindings: async () => {
      await sameAsMissing(mallory, 'list_bindings', { space: '@alice' }, '@alice', '@nosuchspace');
      expect((await probe(mallory, 'list_bindings', {})).structuredContent).toMatchObject({ results: [] });
    },
    search_bindings: async () => {
      for (const query of ['Zanzibar', 'OCELOT', 'NARWHAL', 'QUOKKA']) {
        expect((await probe(mallory, 'search_bindings', { query, tier: '2' })).structuredContent).toMatchObject({
          results: [],
          pagination: { total: 0 },
        });
      }
      await sameAsMissing(mallory, 'search_bindings', { query: 'Zanzibar', space: '@alice' }, '@alice', '@nosuchspace');
    },
    list_versions: async () => sameAsMissing(mallory, 'list_versions', { id: secret }, secret, MISSING.bnd),
    get_version: async () => sameAsMissing(mallory, 'get_version', { id: secret, version: 1, tier: '2' }, secret, MISSING.bnd),
    create_set: async () => sameAsMissing(mallory, 'create_set', { name: 'grab', bindingIds: [secret] }, secret, MISSING.bnd),
    get_set: async () => sameAsMissing(mallory, 'get_set', { id: secretSet }, secretSet, MISSING.set),
    list_sets: async () => {
      expect((await probe(mallory, 'list_sets', {})).structuredContent).toMatchObject({ sets: [] });
      await sameAsMissing(mallory, 'list_sets', { space: '@alice' }, '@alice', '@nosuchspace');
    },
    update_set: async () => sameAsMissing(mallory, 'update_set', { id: secretSet, name: 'mine' }, secretSet, MISSING.set),
    delete_set: async () => sameAsMissing(mallory, 'delete_set', { id: secretSet }, secretSet, MISSING.set),
    edit_set_items: async () => {
      await sameAsMissing(mallory, 'edit_set_items', { id: secretSet, remove: [secret] }, secretSet, MISSING.set);
      const own = (await ok(mallory, 'create_set', { name: 'own' })).set.id;
      await sameAsMissing(mallory, 'edit_set_items', { id: own, add: [{ bindingId: secret }] }, secret, MISSING.bnd);
    },
    get_set_context: async () => sameAsMissing(mallory, 'get_set_context', { setId: secretSet, maxTokens: 5000 }, secretSet, MISSING.set),
    list_spaces: async () => {
      const spaces = (await probe(mallory, 'list_spaces', {})).structuredContent as { spaces: { slug: string }[] };
      expect(spaces.spaces.map((s) => s.slug)).toEqual(['@mallory']);
    },
    create_space: async () => {
      await probe(mallory, 'create_space', { slug: 'mallory-lab', name: 'lab' });
    },
    create_share: async () => {
      await sameAsMissing(mallory, 'create_share', { target: secret, user: 'mallory2', permission: 'read' }, secret, MISSING.bnd);
      await sameAsMissing(mallory, 'create_share', { target: secretSet, public: true, permission: 'read' }, secretSet, MISSING.set);
      await sameAsMissing(mallory, 'create_share', { target: '@alice', public: true, permission: 'comment' }, '@alice', '@nosuchspace');
      await sameAsMissing(mallory, 'create_share', { accept: aliceShare }, aliceShare, MISSING.shr);
    },
    list_shares: async () => {
      await sameAsMissing(mallory, 'list_shares', { target: secret }, secret, MISSING.bnd);
      expect((await probe(mallory, 'list_shares', {})).structuredContent).toMatchObject({ shares: [] });
      expect((await probe(mallory, 'list_shares', { incoming: true })).structuredContent).toMatchObject({ shares: [] });
    },
    revoke_share: async () => sameAsMissing(mallory, 'revoke_share', { id: aliceShare }, aliceShare, MISSING.shr),
    add_comment: async () => sameAsMissing(mallory, 'add_comment', { id: secret, body: 'hi' }, secret, MISSING.bnd),
    list_comments: async () => sameAsMissing(mallory, 'list_comments', { id: secret }, secret, MISSING.bnd),
    delete_comment: async () => sameAsMissing(mallory, 'delete_comment', { id: aliceComment }, aliceComment, MISSING.cmt),
    help: async () => {
      await probe(mallory, 'help', {});
      await probe(mallory, 'help', { topic: 'sharing' });
    },
    whoami: async () => {
      const w = await probe(mallory, 'whoami', {});
      expect(JSON.stringify(w)).not.toContain('@alice');
    },
    search_tools: async () => {
      await probe(mallory, 'search_tools', { query: 'Zanzibar merger plan' });
    },
    list_available_tools: async () => {
      await probe(mallory, 'list_available_tools', {});
    },
    get_active_toolset: async () => {
      await probe(mallory, 'get_active_toolset', {});
    },
    list_tool_categories: async () => {
      const proxied = await world.connect('mallory', { mode: 'proxy' });
      await probe(proxied, 'list_tool_categories', {});
    },
    invoke_tool: async () => {
      const proxied = await world.connect('mallory', { mode: 'proxy' });
      const real = await probe(proxied, 'invoke_tool', { name: 'get_binding', arguments: { id: secret, tier: '2' } });
      const ghost = await probe(proxied, 'invoke_tool', { name: 'get_binding', arguments: { id: MISSING.bnd, tier: '2' } });
      expect(real.isError).toBe(true);
      expect(textOf(real)).toBe(textOf(ghost).replaceAll(MISSING.bnd, secret));
    },
  };

  test('the matrix covers every registered tool, and only registered tools', () => {
    expect(ALL_TOOLS.map((t) => t.name).filter((n) => !(n in matrix))).toEqual([]);
    expect(Object.keys(matrix).filter((n) => !ALL_TOOLS.some((t) => t.name === n))).toEqual([]);
  });
  for (const [name, run] of Object.entries(matrix)) test(name, run);
  test("nothing was written on the owner's side", async () => {
    const g = await ok(alice, 'get_set', { id: secretSet });
    expect(g.set.name).toBe('PANGOLIN-SET');
    expect(g.items.map((i: { id: string }) => i.id)).toEqual([secret]);
    const b = await ok(alice, 'get_binding', { id: secret });
    expect(b.binding).toMatchObject({ summary: SECRET.summary, version: 1 });
    expect((await ok(alice, 'list_comments', { id: secret })).comments).toHaveLength(1);
  });
});

describe('a share grants exactly its permission, and revoke closes it on the next call', () => {
  test('read share on a binding: read, search, batch-get and list comments; nothing else', async () => {
    const bob = await world.connect('bob');
    // Accepted, so it enters bob's default search (acceptance itself: share-acceptance.test.ts).
    await ok(bob, 'create_share', { accept: aliceShare });
    const b = await ok(bob, 'get_binding', { id: secret, tier: '2' });
    expect(b.binding.content).toContain('OCELOT');
    expect((await ok(bob, 'search_bindings', { query: 'Zanzibar' })).results.map((r: { id: string }) => r.id)).toEqual([secret]);
    expect((await ok(bob, 'get_bindings', { ids: [secret] })).results).toHaveLength(1);
    expect((await ok(bob, 'list_comments', { id: secret })).comments).toHaveLength(1);
    expect(await err(bob, 'add_comment', { id: secret, body: 'x' })).toMatch(
      /^Error FORBIDDEN: you may read binding .* but not comment on it/,
    );
    expect(await err(bob, 'update_binding', { id: secret, summary: 'x' })).toMatch(/^Error FORBIDDEN/);
    expect(await err(bob, 'delete_binding', { id: secret })).toMatch(/^Error FORBIDDEN/);
    expect(await err(bob, 'create_share', { target: secret, user: 'carol', permission: 'read' })).toMatch(
      /^Error FORBIDDEN: binding .* is not yours/,
    );
    expect(await err(bob, 'delete_comment', { id: aliceComment })).toMatch(/^Error FORBIDDEN/);
    expect(await err(bob, 'get_set', { id: secretSet })).toMatch(/^Error NOT_FOUND/);
  });

  test("comment share: comment and delete one's own comment, still no edits", async () => {
    const bob = await world.connect('bob');
    const up = await ok(alice, 'create_share', { target: secret, user: 'bob', permission: 'comment' });
    expect(up.created).toBe(true);
    const c = await ok(bob, 'add_comment', { id: secret, body: 'from bob', model: 'test-model' });
    expect(c.comment).toMatchObject({ author: '@bob', source: 'llm', model: 'test-model' });
    expect(await err(bob, 'update_binding', { id: secret, summary: 'x' })).toMatch(/^Error FORBIDDEN/);
    await ok(bob, 'delete_comment', { id: c.comment.id });
    // The read share was replaced, not stacked: one live share for bob.
    expect((await ok(alice, 'list_shares', { target: secret })).shares).toHaveLength(1);
    aliceShare = up.share.id;
  });

  test('revoke closes it on the very next call, with the missing-id answers', async () => {
    const bob = await world.connect('bob');
    await ok(alice, 'revoke_share', { id: aliceShare });
    await sameAsMissing(bob, 'get_binding', { id: secret }, secret, MISSING.bnd);
    await sameAsMissing(bob, 'list_comments', { id: secret }, secret, MISSING.bnd);
    expect((await probe(bob, 'search_bindings', { query: 'Zanzibar' })).structuredContent).toMatchObject({ results: [] });
    expect(await err(alice, 'revoke_share', { id: aliceShare })).toMatch(/^Error CONFLICT: id: share .* is already revoked/);
  });

  test("a set share covers the set and the owner's items in it, read only", async () => {
    const bob = await world.connect('bob');
    const share = await ok(alice, 'create_share', { target: secretSet, user: 'bob', permission: 'read' });
    const ctx = await ok(bob, 'get_set_context', { setId: secretSet, maxTokens: 2000 });
    expect(ctx.items.map((i: { id: string }) => i.id)).toEqual([secret]);
    expect((await ok(bob, 'get_binding', { id: secret })).binding.id).toBe(secret);
    expect(await err(bob, 'edit_set_items', { id: secretSet, remove: [secret] })).toMatch(/^Error FORBIDDEN/);
    expect(await err(bob, 'delete_set', { id: secretSet })).toMatch(/^Error FORBIDDEN/);
    await ok(alice, 'revoke_share', { id: share.share.id });
    await sameAsMissing(bob, 'get_set', { id: secretSet }, secretSet, MISSING.set);
    await sameAsMissing(bob, 'get_binding', { id: secret }, secret, MISSING.bnd);
  });

  test('sharing a set never re-shares what was only shared with its owner', async () => {
    const bob = await world.connect('bob');
    const carol = await world.connect('carol');
    const grant = await ok(alice, 'create_share', { target: secret, user: 'bob', permission: 'read' });
    const bobSet = (await ok(bob, 'create_set', { name: 'bob picks', bindingIds: [secret] })).set.id;
    await ok(bob, 'create_share', { target: bobSet, user: 'carol', permission: 'read' });
    const seen = await probe(carol, 'get_set_context', { setId: bobSet, maxTokens: 2000 });
    expect(seen.structuredContent).toMatchObject({ items: [], skipped: [], set: { itemCount: 0 } });
    expect((await probe(carol, 'get_set', { id: bobSet })).structuredContent).toMatchObject({ items: [], skipped: [] });
    await sameAsMissing(carol, 'get_binding', { id: secret }, secret, MISSING.bnd);
    // Bob, the set's owner, still sees the item; once Alice revokes, he sees it as no longer readable.
    expect((await ok(bob, 'get_set', { id: bobSet })).items).toHaveLength(1);
    await ok(alice, 'revoke_share', { id: grant.share.id });
    expect((await ok(bob, 'get_set', { id: bobSet })).skipped).toEqual([{ position: 0, id: secret, reason: 'no longer readable' }]);
  });

  test('a public link opens the binding by id to anyone, without putting it in their searches', async () => {
    const link = await ok(alice, 'create_share', { target: secret, public: true, permission: 'read' });
    expect((await ok(mallory, 'get_binding', { id: secret })).binding.name).toBe(SECRET.name);
    expect((await ok(mallory, 'search_bindings', { query: 'Zanzibar' })).results).toEqual([]);
    expect(await err(mallory, 'add_comment', { id: secret, body: 'x' })).toMatch(/^Error FORBIDDEN/);
    await ok(alice, 'revoke_share', { id: link.share.id });
    await sameAsMissing(mallory, 'get_binding', { id: secret }, secret, MISSING.bnd);
  });

  test('a space share and a public space', async () => {
    const bob = await world.connect('bob');
    const share = await ok(alice, 'create_share', { target: '@alice', user: 'bob', permission: 'read' });
    await ok(bob, 'create_share', { accept: share.share.id });
    expect((await ok(bob, 'list_bindings', { space: '@alice' })).results.map((r: { id: string }) => r.id)).toContain(secret);
    expect((await ok(bob, 'list_spaces', {})).spaces.map((s: { slug: string; access: string }) => `${s.slug}:${s.access}`)).toContain(
      '@alice:read',
    );
    expect(await err(bob, 'create_binding', { space: '@alice', name: 'x', content: 'x', summary: 'x' })).toMatch(/^Error FORBIDDEN/);
    await ok(alice, 'revoke_share', { id: share.share.id });
    await sameAsMissing(bob, 'list_bindings', { space: '@alice' }, '@alice', '@nosuchspace');

    await ok(alice, 'create_space', { slug: 'alice-public', name: 'Open notes', visibility: 'public' });
    const open = await ok(alice, 'create_binding', { space: '@alice-public', name: 'Open note', content: 'hello world', summary: 'open' });
    expect((await ok(mallory, 'get_binding', { id: open.binding.id })).binding.name).toBe('Open note');
    expect((await ok(mallory, 'list_bindings', { space: '@alice-public' })).results).toHaveLength(1);
    expect(await err(mallory, 'create_binding', { space: '@alice-public', name: 'x', content: 'x', summary: 'x' })).toMatch(
      /^Error FORBIDDEN/,
    );
    expect(await err(mallory, 'update_binding', { id: open.binding.id, summary: 'x' })).toMatch(/^Error FORBIDDEN/);
  });
});
