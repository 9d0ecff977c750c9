// A search's passage line names each hit by its id's first characters (`bnd_` and 8), and get_binding
// reads by them: the same answer as the whole id. A prefix reaches only what a search could have shown
// the caller (own spaces, accepted shares, public spaces): another user's private binding, a share not
// yet accepted and a public link's binding answer exactly as a missing id does. Two documents sharing
// the prefix are refused by name, never guessed between.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sql } from 'drizzle-orm';
import { SHORT_ID_CHARS, shortId } from '../../core/ids.ts';
import { call, createTestWorld, err, ok, textOf, type TestWorld } from '../helpers.ts';

const DOC = {
  name: 'Kiln maintenance guide',
  summary: 'How the studio keeps its kilns firing.',
  content:
    '# Kiln maintenance guide\n\n## Elements\n\nReplace the heating elements every 400 firings.\n\n## Shelves\n\nKiln wash goes on the top of each shelf only.\n',
};
const MISSING_SHORT = 'bnd_00000000';

let world: TestWorld;
let alice: Client;
let bob: Client;
let mallory: Client;
let kiln: string;

beforeAll(async () => {
  world = await createTestWorld();
  alice = await world.connect('alice');
  bob = await world.connect('bob');
  mallory = await world.connect('mallory');
  kiln = (await ok(alice, 'create_binding', DOC)).binding.id;
});
afterAll(() => world.close());

/** The refusal for `ref` is word for word the refusal for an id nobody has. */
async function sameAsMissing(client: Client, ref: string) {
  const real = await err(client, 'get_binding', { id: ref, section: 'elements' });
  const ghost = await err(client, 'get_binding', { id: MISSING_SHORT, section: 'elements' });
  expect(real).toBe(ghost.replaceAll(MISSING_SHORT, ref));
}

describe('short ids', () => {
  test('a passage line names its hit by the first characters of its id; structuredContent keeps the whole id', async () => {
    const found = await ok(alice, 'search_bindings', { query: 'how often are kiln heating elements replaced' });
    const text = textOf(found._result);
    expect(found.results[0].id).toBe(kiln);
    expect(shortId(kiln)).toBe(kiln.slice(0, 'bnd_'.length + SHORT_ID_CHARS));
    expect(text.startsWith(`- ${shortId(kiln)} Kiln maintenance guide · §elements`)).toBe(true);
    expect(text).not.toContain(kiln);
  });

  test('get_binding reads by the short id exactly as by the whole id', async () => {
    for (const args of [{ section: 'elements' }, { section: 'shelves', maxTokens: 60 }, { tier: '1' }, { maxTokens: 200 }]) {
      const whole = await call(alice, 'get_binding', { id: kiln, ...args });
      const short = await call(alice, 'get_binding', { id: shortId(kiln), ...args });
      expect({ args, error: short.isError ? textOf(short) : undefined }).toEqual({ args, error: undefined });
      expect(textOf(short)).toBe(textOf(whole));
      expect(short.structuredContent).toEqual(whole.structuredContent);
    }
  });

  test('get_bindings reads short ids as the whole ids they name; one naming nothing is listed as not found, as given', async () => {
    const both = await ok(alice, 'get_bindings', { ids: [shortId(kiln), kiln, MISSING_SHORT], tier: '1' });
    expect(both.results.map((r: { id: string }) => r.id)).toEqual([kiln]);
    expect(both.notFound).toEqual([MISSING_SHORT]);
    const theirs = await call(mallory, 'get_bindings', { ids: [shortId(kiln)], tier: '1' });
    const ghost = await call(mallory, 'get_bindings', { ids: [MISSING_SHORT], tier: '1' });
    expect(theirs.structuredContent).toMatchObject({ results: [], notFound: [shortId(kiln)] });
    expect(textOf(theirs)).toBe(textOf(ghost).replaceAll(MISSING_SHORT, shortId(kiln)));
  });

  test('a reference shorter than the short id, or not an id, is refused naming the field and the rule', async () => {
    for (const id of [kiln.slice(0, 10), `${shortId(kiln)}!`, 'kiln']) {
      const text = await err(alice, 'get_binding', { id });
      expect(text).toContain('id');
      expect(text).toContain(`first ${SHORT_ID_CHARS} characters`);
    }
  });

  test("another user's private binding: the short id answers as a missing one does", async () => {
    await sameAsMissing(mallory, shortId(kiln));
  });

  test('a user share reaches the short id once accepted (as it reaches searches), the whole id at once', async () => {
    const share = (await ok(alice, 'create_share', { target: kiln, user: 'bob', permission: 'read' })).share.id;
    expect((await call(bob, 'get_binding', { id: kiln, section: 'elements' })).isError).toBeFalsy();
    await sameAsMissing(bob, shortId(kiln));
    await ok(bob, 'create_share', { accept: share });
    const read = await call(bob, 'get_binding', { id: shortId(kiln), section: 'elements' });
    expect(textOf(read)).toContain('400 firings');
  });

  test("a public link's binding: the short id does not shorten the link's secret", async () => {
    const linked = (await ok(alice, 'create_binding', { ...DOC, name: 'Glaze recipes' })).binding.id;
    await ok(alice, 'create_share', { target: linked, public: true, permission: 'read' });
    await sameAsMissing(mallory, shortId(linked));
  });

  test('two readable documents sharing the short id: refused, naming the rule; a third user still sees a missing id', async () => {
    const base = (await ok(alice, 'create_binding', { ...DOC, name: 'Wheel care' })).binding.id;
    const twin = `${shortId(base)}zzzzzzzz`;
    const columns = (await world.db.all<{ name: string }>(sql`PRAGMA table_info(bindings)`)).map((c) => c.name);
    const picked = columns.map((c) => (c === 'id' ? `'${twin}'` : c === 'slug' ? `slug || '-twin'` : `"${c}"`)).join(', ');
    const into = columns.map((c) => `"${c}"`).join(', ');
    await world.db.run(sql`INSERT INTO bindings (${sql.raw(into)}) SELECT ${sql.raw(picked)} FROM bindings WHERE id = ${base}`);
    const text = await err(alice, 'get_binding', { id: shortId(base), section: 'elements' });
    expect(text).toContain('id');
    expect(text).toContain('more than one document you can read');
    expect(text).toContain('whole id');
    // The whole id still reads; another user learns nothing of either.
    expect(textOf(await call(alice, 'get_binding', { id: base, section: 'elements' }))).toContain('400 firings');
    await sameAsMissing(mallory, shortId(base));
  });
});
