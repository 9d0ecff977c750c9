// Findings of the access-control review, each pinned by a test that failed before its fix: another
// user's activity through runtime figures, link-shared pages in shared caches and in Referer headers,
// link-shared pages opened by their guessable address alone, symlinks out of an imported folder, REST set descriptions past the tools' limit. Plus what was
// judged acceptable, pinned so it stays exactly that small (a taken space slug says nothing more).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markdownFiles } from '../../adapters/cli/import-files.ts';
import { createHttpApp, type HttpApp } from '../../core/http/app.ts';
import { createApiKey } from '../../core/http/auth.ts';
import { parseConfig } from '../../core/index.ts';
import { createBinding } from '../../core/services/bindings.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { createShare, revokeShare } from '../../core/services/shares.ts';
import { createSpace } from '../../core/services/spaces.ts';
import { createDatabase, migrate, type Database } from '../../db/index.ts';
import { createTestWorld, err, ok, testCounter } from '../helpers.ts';
import { seedWorld } from '../../support/targets.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const HUMAN = { source: 'human' as const, model: null };

describe('runtime figures', () => {
  test("list_available_tools shows a user the figures of their own calls, never another user's", async () => {
    const world = await createTestWorld();
    try {
      const alice = await world.connect('alice');
      const mallory = await world.connect('mallory');
      const id = (await ok(alice, 'create_binding', { name: 'Private plan', content: '# Plan\n\nSecret steps.\n', summary: 'Secret.' }))
        .binding.id;
      for (let i = 0; i < 3; i++) await ok(alice, 'get_binding', { id, tier: '2' });
      const seen = await ok(mallory, 'list_available_tools', {});
      const used = seen.categories
        .flatMap((c: { tools: { name: string; runtime: unknown }[] }) => c.tools)
        .filter((t: { runtime: unknown }) => t.runtime !== null);
      expect(used.map((t: { name: string }) => t.name)).toEqual([]);
      expect(seen.meta.runtime.calls).toBe(0);
      // The owner's own figures follow her across sessions (stateless HTTP builds a server per request).
      const again = await world.connect('alice');
      const binding = (await ok(again, 'list_available_tools', { category: 'binding' })).categories[0].tools;
      expect(binding.find((t: { name: string }) => t.name === 'get_binding').runtime).toMatchObject({ count: 3, errors: 0 });
    } finally {
      world.close();
    }
  });
});

describe('HTTP pages and REST', () => {
  let database: Database;
  let app: HttpApp;
  let bobKey: string;
  let bob: { id: string; handle: string };
  const paths: Record<string, string> = {};
  let linkId: string;
  let linkSecret: string;
  let deps: Parameters<typeof createBinding>[0];

  const get = (path: string, headers: Record<string, string> = {}) => app.fetch(new Request(`http://localhost:8787${path}`, { headers }));
  const api = (path: string, init: RequestInit = {}) =>
    app.fetch(
      new Request(`http://localhost:8787${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${bobKey}`, 'Content-Type': 'application/json' },
      }),
    );

  beforeAll(async () => {
    const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager' });
    database = createDatabase({ url: config.dbUrl });
    await migrate(database.db);
    const tokens = await testCounter();
    deps = { db: database.db, tokens, config, now: () => Date.now() };
    bob = await ensureCaller(deps, 'bob');
    bobKey = (await createApiKey(database.db, bob.id, Date.now())).key;
    await createSpace(deps, bob, { slug: 'bob-open', name: 'Open', visibility: 'public' });
    const tracked = '# Open\n\n![pixel](https://img.example/pixel.png)\n';
    const open = await createBinding(deps, bob, { space: 'bob-open', name: 'Open page', content: tracked, summary: 'Open.' }, HUMAN);
    const linked = await createBinding(
      deps,
      bob,
      { name: 'Linked page', content: '# Linked\n\nOnly for link holders.\n', summary: 'Linked.' },
      HUMAN,
    );
    paths.open = `/@${open.spaceSlug}/${open.bindingSlug}`;
    paths.linked = `/@${linked.spaceSlug}/${linked.bindingSlug}`;
    const link = await createShare(deps, bob, { target: linked.bindingId, public: true, permission: 'read' });
    linkId = link.share.id;
    linkSecret = link.linkSecret!;
    app = createHttpApp({ deps: { db: database.db, tokens, config, now: Date.now } });
  });
  afterAll(async () => {
    await app.close();
    database.close();
  });

  test('no page hands its address to the hosts of images or links in its content (Referrer-Policy)', async () => {
    for (const path of [
      paths.open!,
      `${paths.open}?format=md`,
      `${paths.linked}?share=${linkSecret}`,
      paths.linked!,
      '/@bob/no-such-page',
    ]) {
      const res = await get(path);
      expect({ path, policy: res.headers.get('referrer-policy') }).toEqual({ path, policy: 'no-referrer' });
    }
  });

  test('a page read through a public link is never stored by shared caches; a public space page may be', async () => {
    const open = await get(paths.open!);
    expect(open.status).toBe(200);
    expect(open.headers.get('cache-control')).toBe('public, max-age=60');
    for (const format of ['?', '?format=md&']) {
      const linked = await get(`${paths.linked}${format}share=${linkSecret}`);
      expect(linked.status).toBe(200);
      expect(linked.headers.get('cache-control')).toBe('private, no-store');
    }
    expect((await get(paths.open!, { Authorization: `Bearer ${bobKey}` })).headers.get('cache-control')).toBe('private, no-store');
    await revokeShare(deps, bob, linkId);
    expect((await get(`${paths.linked}?share=${linkSecret}`)).status).toBe(404);
  });

  test("a public link's guessable address (/@space/slug) opens nothing without the link's secret (share-links.test.ts has the rest)", async () => {
    const fresh = await createBinding(deps, bob, { name: 'Guessable', content: '# G\n\nNot for guessers.\n', summary: 'G.' }, HUMAN);
    const link = await createShare(deps, bob, { target: fresh.bindingId, public: true, permission: 'read' });
    const path = `/@${fresh.spaceSlug}/${fresh.bindingSlug}`;
    const missing = await (await get('/@bob/no-such-page')).text();
    for (const q of ['', '?format=md']) {
      const res = await get(`${path}${q}`);
      expect({ status: res.status, body: await res.text() }).toEqual({
        status: 404,
        body: q ? await (await get('/@bob/no-such-page?format=md')).text() : missing,
      });
    }
    expect((await get(`${path}?share=${link.linkSecret}`)).status).toBe(200);
  });

  test("REST set descriptions follow the tools' limit (600 characters); nothing is written past it", async () => {
    const long = await api('/api/sets', { method: 'POST', body: JSON.stringify({ name: 'Long', description: 'd'.repeat(601) }) });
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: { field: string; message: string } }).error).toMatchObject({
      field: 'description',
      message: 'description: must be at most 600 characters',
    });
    const list = (await (await api('/api/sets')).json()) as { results: unknown[] };
    expect(list.results).toEqual([]);
    const fine = await api('/api/sets', { method: 'POST', body: JSON.stringify({ name: 'Fine', description: `  ${'d'.repeat(600)}  ` }) });
    expect(fine.status).toBe(201);
    expect(((await fine.json()) as { set: { description: string } }).set.description).toBe('d'.repeat(600));
  });
});

describe('import', () => {
  let root: string;
  let outside: string;
  beforeAll(() => {
    const base = mkdtempSync(join(tmpdir(), 'bindery-symlink-'));
    root = join(base, 'docs');
    outside = join(base, 'home');
    mkdirSync(join(root, 'sub'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(root, 'real.md'), '# Real\n\nInside.\n');
    writeFileSync(join(outside, 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY-----\n');
    symlinkSync(join(root, 'real.md'), join(root, 'sub', 'alias.md'));
    symlinkSync(join(outside, 'id_rsa'), join(root, 'notes.md'));
    symlinkSync('../../home/id_rsa', join(root, 'sub', 'relative.md'));
  });
  afterAll(() => rmSync(join(root, '..'), { recursive: true, force: true }));

  test('no symlinked file is listed, wherever it points; each is named as skipped', () => {
    const skipped: string[] = [];
    const files = markdownFiles(root, (path, reason) => skipped.push(`${path.slice(root.length + 1)}: ${reason}`));
    expect(files.map((f) => f.slice(root.length + 1))).toEqual(['real.md']);
    expect(skipped.sort()).toEqual([
      'notes.md: a symbolic link; links are not followed',
      'sub/alias.md: a symbolic link; links are not followed',
      'sub/relative.md: a symbolic link; links are not followed',
    ]);
  });
});

describe('sessions', () => {
  test("another user's key can neither read from, stream from nor end a session (GET, POST and DELETE)", async () => {
    const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager' });
    const db = createDatabase({ url: config.dbUrl });
    await migrate(db.db);
    const seed = await seedWorld(db.db, config.publicUrl);
    const app = createHttpApp({ deps: { db: db.db, tokens: await testCounter(), config, now: Date.now } });
    const transport = new StreamableHTTPClientTransport(new URL('http://localhost:8787/mcp'), {
      requestInit: { headers: { Authorization: `Bearer ${seed.aliceKey}` } },
      fetch: (input, init) => app.fetch(new Request(input, init)),
    });
    const alice = new Client({ name: 'hijack-test', version: '1' });
    await alice.connect(transport);
    const sid = transport.sessionId!;
    const asBob = (method: string, extra: Record<string, string> = {}, body?: string) =>
      app.fetch(
        new Request('http://localhost:8787/mcp', {
          method,
          body,
          headers: { Authorization: `Bearer ${seed.bobKey}`, 'Mcp-Session-Id': sid, ...extra },
        }),
      );
    expect((await asBob('GET', { Accept: 'text/event-stream' })).status).toBe(404);
    expect((await asBob('DELETE')).status).toBe(404);
    const call = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
    const post = await asBob(
      'POST',
      { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': '2025-06-18' },
      call,
    );
    expect(post.status).toBe(404);
    expect(await post.text()).not.toContain('alice');
    expect(app.sessions!.size).toBe(1);
    expect((await ok(alice, 'whoami')).user.handle).toBe('alice');
    await alice.close();
    await app.close();
    db.close();
  });
});

describe('judged acceptable, pinned', () => {
  test('a taken space slug is a CONFLICT that says nothing of the space: the same words for a private and a public one', async () => {
    const world = await createTestWorld();
    try {
      const alice = await world.connect('alice');
      const mallory = await world.connect('mallory');
      await ok(alice, 'create_space', { slug: 'hidden-lab', name: 'Hidden lab (private)' });
      await ok(alice, 'create_space', { slug: 'open-lab', name: 'Open lab', visibility: 'public' });
      const hidden = await err(mallory, 'create_space', { slug: 'hidden-lab', name: 'x' });
      const open = await err(mallory, 'create_space', { slug: 'open-lab', name: 'x' });
      expect(hidden).toBe(open.replaceAll('open-lab', 'hidden-lab'));
      expect(hidden).not.toMatch(/alice|private|Hidden lab/);
      // Naming it anywhere else still answers exactly as for a slug nobody holds.
      const listed = await err(mallory, 'list_bindings', { space: '@hidden-lab' });
      expect(listed).toBe((await err(mallory, 'list_bindings', { space: '@nobody-lab' })).replaceAll('nobody-lab', 'hidden-lab'));
    } finally {
      world.close();
    }
  });
});
