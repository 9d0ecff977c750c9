// Public links carry a secret. A page at /@space/slug is built from names anyone can guess, so a
// public-link share opens it only to a request carrying that link's `?share=` secret; without it, or
// with a wrong or revoked one, the answer is byte for byte the 404 of a missing page. Knowing an id
// stays enough over MCP. Driven through the real tools (MCP) and the real HTTP app on one database.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sql } from 'drizzle-orm';
import { createHttpApp, type HttpApp } from '../../core/http/app.ts';
import { createApiKey } from '../../core/http/auth.ts';
import { newLinkSecret, sha256Hex } from '../../core/ids.ts';
import { securityHeaders } from '../../core/web/page-headers.ts';
import { createTestWorld, err, ok, textOf, type TestWorld } from '../helpers.ts';

const BASE = 'http://localhost:8787';
const LINK_RE = /^http:\/\/localhost:8787\/@[a-z0-9-]+(\/[a-z0-9-]+)?\?share=([A-Za-z0-9_-]{32})$/;

let world: TestWorld;
let app: HttpApp;
let alice: Client;
let bob: Client;
let mallory: Client;
let aliceKey: string;
let bobKey: string;

const get = (path: string, headers: Record<string, string> = {}) =>
  app.fetch(new Request(path.startsWith('http') ? path : `${BASE}${path}`, { headers }));
/** Status, content type and body: what must be identical between a hidden page and a missing one. */
async function snapshot(res: Response) {
  return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), body: await res.text() };
}
const missing = async (md = false) => snapshot(await get(`/@nobody/no-such-page${md ? '?format=md' : ''}`));
const secretOf = (linkUrl: string) => LINK_RE.exec(linkUrl)![2]!;
const pathOf = (publicUrl: string) => publicUrl.slice(BASE.length);

async function privateDoc(client: Client, name: string, space?: string) {
  const b = (
    await ok(client, 'create_binding', {
      name,
      content: `# ${name}\n\nBody of ${name}.\n`,
      summary: `About ${name}.`,
      ...(space ? { space } : {}),
    })
  ).binding;
  return { id: b.id as string, path: pathOf(b.publicUrl) };
}

async function link(client: Client, target: string, permission = 'read') {
  const r = await ok(client, 'create_share', { target, public: true, permission });
  return {
    id: r.share.id as string,
    linkUrl: r.linkUrl as string,
    linkTextUrl: r.linkTextUrl as string,
    secret: secretOf(r.linkUrl),
    text: textOf(r._result),
  };
}

beforeAll(async () => {
  world = await createTestWorld();
  alice = await world.connect('alice');
  bob = await world.connect('bob');
  mallory = await world.connect('mallory');
  const ids = await world.db.all<{ id: string; handle: string }>(sql`SELECT id, handle FROM users`);
  const idOf = (h: string) => ids.find((u) => u.handle === h)!.id;
  aliceKey = (await createApiKey(world.db, idOf('alice'), Date.now())).key;
  bobKey = (await createApiKey(world.db, idOf('bob'), Date.now())).key;
  app = createHttpApp({ deps: { db: world.db, tokens: world.tokens, config: world.config, now: Date.now } });
});
afterAll(async () => {
  await app.close();
  world.close();
});

describe('create_share public: true', () => {
  test('returns linkUrl and linkTextUrl with a 192-bit secret, says it is shown once; list_shares never shows it', async () => {
    const doc = await privateDoc(alice, 'Link shape');
    const l = await link(alice, doc.id);
    expect(l.linkUrl).toBe(`${BASE}${doc.path}?share=${l.secret}`);
    expect(l.linkTextUrl).toBe(`${BASE}${doc.path}?format=md&share=${l.secret}`);
    expect(l.text).toContain(`Link (shown only now; only its hash is kept): ${l.linkUrl}`);
    expect(l.text).toContain(`Markdown: ${l.linkTextUrl}`);
    const listed = await ok(alice, 'list_shares', { target: doc.id });
    expect(listed.shares.map((s: { id: string; public: boolean }) => [s.id, s.public])).toEqual([[l.id, true]]);
    expect(JSON.stringify(listed._result)).not.toContain(l.secret);
    expect(JSON.stringify(await ok(alice, 'list_shares', {}))).not.toContain(l.secret);
  });

  test('the secret is not stored: only its SHA-256 is', async () => {
    const doc = await privateDoc(alice, 'Hash only');
    const l = await link(alice, doc.id);
    const dump = JSON.stringify(await world.db.all(sql`SELECT * FROM shares`));
    expect(dump).not.toContain(l.secret);
    const row = await world.db.get<{ link_hash: string }>(sql`SELECT link_hash FROM shares WHERE id = ${l.id}`);
    expect(row!.link_hash).toBe(await sha256Hex(l.secret));
  });

  test('sharing again the same way changes nothing and cannot show the link again; a new permission keeps the secret', async () => {
    const doc = await privateDoc(alice, 'Shared twice');
    const l = await link(alice, doc.id);
    const again = await ok(alice, 'create_share', { target: doc.id, public: true, permission: 'read' });
    expect(again).toMatchObject({ created: false, share: { id: l.id } });
    expect(again.linkUrl).toBeUndefined();
    expect(textOf(again._result)).toContain('cannot be shown again; to get a new one, revoke_share it and share again');
    const upgraded = await ok(alice, 'create_share', { target: doc.id, public: true, permission: 'comment' });
    expect(upgraded.created).toBe(true);
    expect(upgraded.linkUrl).toBeUndefined();
    expect(textOf(upgraded._result)).toContain(`It replaces ${l.id}; the link handed out before keeps working, with this permission.`);
    expect((await get(l.linkUrl)).status).toBe(200);
    await ok(alice, 'revoke_share', { id: upgraded.share.id });
    expect(await snapshot(await get(l.linkUrl))).toEqual(await missing());
  });

  test('a public share made before links had secrets gets one when shared again the same way', async () => {
    const doc = await privateDoc(alice, 'Old link');
    const l = await link(alice, doc.id);
    await world.db.run(sql`UPDATE shares SET link_hash = NULL WHERE id = ${l.id}`);
    expect(await snapshot(await get(l.linkUrl))).toEqual(await missing());
    const again = await ok(alice, 'create_share', { target: doc.id, public: true, permission: 'read' });
    expect(again).toMatchObject({ created: false, share: { id: l.id } });
    expect(again.linkUrl).toMatch(LINK_RE);
    expect((await get(again.linkUrl)).status).toBe(200);
    expect((await ok(alice, 'create_share', { target: doc.id, public: true, permission: 'read' })).linkUrl).toBeUndefined();
  });
});

describe('a binding link on /@space/slug', () => {
  let doc: { id: string; path: string };
  let l: Awaited<ReturnType<typeof link>>;
  beforeAll(async () => {
    doc = await privateDoc(alice, 'Linked binding');
    l = await link(alice, doc.id);
  });

  test('without the secret, with a wrong one or a malformed one: the 404 of a missing page, byte for byte', async () => {
    for (const md of [false, true]) {
      const fmt = md ? 'format=md&' : '';
      const expected = await missing(md);
      expect(expected.status).toBe(404);
      for (const q of [
        '',
        `share=${newLinkSecret()}`,
        'share=',
        'share=not-a-secret',
        `share=${l.secret}x`,
        `share=${l.secret.slice(1)}`,
      ]) {
        const path = `${doc.path}?${fmt}${q}`;
        expect({ path, ...(await snapshot(await get(path))) }).toEqual({ path, ...expected });
      }
      // Another user's key does not help either.
      expect(await snapshot(await get(`${doc.path}${md ? '?format=md' : ''}`, { Authorization: `Bearer ${bobKey}` }))).toEqual(expected);
    }
  });

  test('with the secret: 200 as HTML (its Markdown link carries the secret) and as Markdown, never cached, no referrer', async () => {
    const page = await get(l.linkUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('Body of Linked binding.');
    expect(html).toContain(`<a href="${l.linkTextUrl.replace('&', '&amp;')}">Markdown</a>`);
    const md = await get(l.linkTextUrl);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(md.headers.get('cache-control')).toBe('private, no-store');
    expect(md.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await md.text()).toBe('# Linked binding\n\nBody of Linked binding.\n');
    expect((await get(`${doc.path}?share=${l.secret}&format=md`)).status).toBe(200);
  });

  test('the owner and a user-share holder read with their key, no secret needed', async () => {
    expect((await get(doc.path, { Authorization: `Bearer ${aliceKey}` })).status).toBe(200);
    const grant = await ok(alice, 'create_share', { target: doc.id, user: 'bob', permission: 'read' });
    expect((await get(doc.path, { Authorization: `Bearer ${bobKey}` })).status).toBe(200);
    await ok(alice, 'revoke_share', { id: grant.share.id });
    expect((await get(doc.path, { Authorization: `Bearer ${bobKey}` })).status).toBe(404);
  });

  test("one binding's secret does not open another binding, of the same owner or not", async () => {
    const other = await privateDoc(alice, 'Other binding');
    const bobs = await privateDoc(bob, 'Bob binding');
    await link(alice, other.id);
    await link(bob, bobs.id);
    for (const path of [other.path, bobs.path]) {
      for (const fmt of ['', 'format=md&']) {
        expect(await snapshot(await get(`${path}?${fmt}share=${l.secret}`))).toEqual(await missing(fmt !== ''));
      }
    }
  });

  test('revoking ends it on the next request: the same 404 as a missing page', async () => {
    const doc2 = await privateDoc(alice, 'Revoked link');
    const l2 = await link(alice, doc2.id);
    expect((await get(l2.linkUrl)).status).toBe(200);
    await ok(alice, 'revoke_share', { id: l2.id });
    expect(await snapshot(await get(l2.linkUrl))).toEqual(await missing());
    expect(await snapshot(await get(l2.linkTextUrl))).toEqual(await missing(true));
  });

  test("over MCP the id is still enough, and a public link never enters anyone else's searches or lists", async () => {
    expect((await ok(mallory, 'get_binding', { id: doc.id })).binding.id).toBe(doc.id);
    expect((await ok(mallory, 'search_bindings', { query: 'Linked binding' })).results).toEqual([]);
    expect((await ok(mallory, 'list_bindings', {})).results).toEqual([]);
  });
});

describe('a space link', () => {
  let inSpace: { id: string; path: string }[];
  let elsewhere: { id: string; path: string };
  let l: Awaited<ReturnType<typeof link>>;
  let spaceId: string;
  beforeAll(async () => {
    spaceId = (await ok(alice, 'create_space', { slug: 'alice-team', name: 'Alice team' })).space.id;
    inSpace = [await privateDoc(alice, 'Team one', '@alice-team'), await privateDoc(alice, 'Team two', '@alice-team')];
    elsewhere = await privateDoc(alice, 'Not in team');
    l = await link(alice, '@alice-team');
  });

  test('its secret opens every binding in that space and nothing outside it', async () => {
    expect(l.linkUrl).toBe(`${BASE}/@alice-team?share=${l.secret}`);
    for (const d of inSpace) {
      expect((await get(`${d.path}?share=${l.secret}`)).status).toBe(200);
      expect((await get(`${d.path}?format=md&share=${l.secret}`)).status).toBe(200);
      expect(await snapshot(await get(d.path))).toEqual(await missing());
    }
    expect(await snapshot(await get(`${elsewhere.path}?share=${l.secret}`))).toEqual(await missing());
  });

  test('the link opens a page listing the space, each binding linked with the secret; without it, the one 404', async () => {
    const index = await get(l.linkUrl);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('private, no-store');
    expect(index.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await index.text();
    for (const d of inSpace) expect(html).toContain(`href="${BASE}${d.path}?share=${l.secret}"`);
    expect(html).not.toContain(elsewhere.path);
    const md = await (await get(l.linkTextUrl)).text();
    expect(md).toContain(`- [Team one](${BASE}${inSpace[0]!.path}?format=md&share=${l.secret}): About Team one.`);
    for (const q of ['', `?share=${newLinkSecret()}`]) expect(await snapshot(await get(`/@alice-team${q}`))).toEqual(await missing());
    // The secret of a space link names that space only; a binding link has no index.
    expect(await snapshot(await get(`/@alice?share=${l.secret}`))).toEqual(await missing());
    const bl = await link(alice, elsewhere.id);
    expect(await snapshot(await get(`/@alice?share=${bl.secret}`))).toEqual(await missing());
  });

  test('the index, a page it opens and the one 404 share the security headers and stylesheet of every Bindery page', async () => {
    const wanted = securityHeaders('public');
    const pages = [
      { res: await get(l.linkUrl), cls: 'public link-index' },
      { res: await get(`${inSpace[0]!.path}?share=${l.secret}`), cls: 'public' },
      { res: await get('/@nobody/no-such-page'), cls: 'public' },
    ];
    for (const { res, cls } of pages) {
      for (const [name, value] of Object.entries(wanted)) expect({ name, value: res.headers.get(name) }).toEqual({ name, value });
      const html = await res.text();
      expect(html).toContain(`<link rel="stylesheet" href="/web/app.css">`);
      expect(html).toContain(`<body class="${cls}">`);
      expect(html).not.toContain('<style');
    }
    expect(wanted['Content-Security-Policy']).not.toContain('script-src');
    expect(wanted['Referrer-Policy']).toBe('no-referrer');
  });

  test('naming the space by its guessable slug does not reach it through the link (MCP and REST); its id does', async () => {
    expect(await err(mallory, 'list_bindings', { space: '@alice-team' })).toContain('NOT_FOUND');
    expect(await err(mallory, 'search_bindings', { query: 'Team', space: 'alice-team' })).toContain('NOT_FOUND');
    expect((await ok(mallory, 'list_bindings', { space: spaceId })).results).toHaveLength(2);
    const rest = (q: string) => get(`/api/bindings?${q}`, { Authorization: `Bearer ${bobKey}` });
    expect((await rest('space=alice-team')).status).toBe(404);
    expect((await rest(`space=${spaceId}`)).status).toBe(200);
    expect((await get(`/api/sets?space=alice-team`, { Authorization: `Bearer ${bobKey}` })).status).toBe(404);
  });

  test('revoked: the bindings and the index are the one 404 on the next request', async () => {
    await ok(alice, 'revoke_share', { id: l.id });
    expect(await snapshot(await get(`${inSpace[0]!.path}?share=${l.secret}`))).toEqual(await missing());
    expect(await snapshot(await get(l.linkUrl))).toEqual(await missing());
  });
});

describe('a set link', () => {
  test("its secret opens only the set owner's bindings in the set; its page lists just those", async () => {
    const mine = await privateDoc(alice, 'Set mine');
    const notInSet = await privateDoc(alice, 'Set outsider');
    const bobs = await privateDoc(bob, 'Set bob shared');
    await ok(bob, 'create_share', { target: bobs.id, user: 'alice', permission: 'read' });
    const set = (await ok(alice, 'create_set', { name: 'Link set', bindingIds: [mine.id, bobs.id] })).set.id;
    const l = await link(alice, set);
    expect(l.linkUrl).toBe(`${BASE}/@alice?share=${l.secret}`);
    expect(l.text).toContain("It opens a page listing the set's bindings");
    expect((await get(`${mine.path}?share=${l.secret}`)).status).toBe(200);
    expect(await snapshot(await get(`${bobs.path}?share=${l.secret}`))).toEqual(await missing());
    expect(await snapshot(await get(`${notInSet.path}?share=${l.secret}`))).toEqual(await missing());
    const html = await (await get(l.linkUrl)).text();
    expect(html).toContain('<h1>Link set</h1>');
    expect(html).toContain(`href="${BASE}${mine.path}?share=${l.secret}"`);
    expect(html).not.toContain(bobs.path);
    expect(html).not.toContain(notInSet.path);
    expect(await snapshot(await get(`/@bob?share=${l.secret}`))).toEqual(await missing());
    await ok(alice, 'delete_set', { id: set });
    expect(await snapshot(await get(`${mine.path}?share=${l.secret}`))).toEqual(await missing());
    expect(await snapshot(await get(l.linkUrl))).toEqual(await missing());
  });
});

describe('public spaces', () => {
  test('stay readable without a secret and cacheable; a request carrying one is never cached', async () => {
    await ok(alice, 'create_space', { slug: 'alice-open', name: 'Open', visibility: 'public' });
    const open = await privateDoc(alice, 'Open page', '@alice-open');
    const res = await get(open.path);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const l = await link(alice, open.id);
    expect((await get(l.linkUrl)).headers.get('cache-control')).toBe('private, no-store');
  });
});
