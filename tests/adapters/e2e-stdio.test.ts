// End to end over the real stdio server (`bun adapters/stdio.ts`) on a temp file DB, driven by the SDK
// Client through StdioClientTransport: create → tiers → updates → versions → search → delete.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { call, contextOf, err, ok, textOf } from '../helpers.ts';
import { REPO, startStdioServer, type StdioServer } from '../stdio-client.ts';
import { sql } from 'drizzle-orm';
import { openRuntime } from '../../adapters/runtime.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { storeLoginLink } from '../../core/services/web-sessions.ts';

const DAY = 24 * 3600_000;

const reference = new Tiktoken(o200k);
const tokensOf = (text: string) => reference.encode(text, [], []).length;
const PUBLIC = 'https://bindery.example.org';

const paragraph =
  'Quokkas are small marsupials that live on Rottnest Island. They are mostly nocturnal, eat leaves and grasses, ' +
  'and can survive long periods without drinking water. ';
const CONTENT = `# Field notes\n\n${paragraph.repeat(9)}\n## Habitat\n\n${paragraph.repeat(3)}`;

describe('stdio server end to end', () => {
  let server: StdioServer;
  let id: string;
  beforeAll(async () => {
    server = await startStdioServer({ env: { BINDERY_USER: 'e2e-user', BINDERY_PUBLIC_URL: PUBLIC } });
  });
  afterAll(async () => {
    await server.close();
  });

  test('lists the binding and version tools', async () => {
    const { tools } = await server.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      'create_binding',
      'get_binding',
      'get_bindings',
      'update_binding',
      'delete_binding',
      'list_bindings',
      'search_bindings',
      'list_versions',
      'get_version',
    ]) {
      expect(names).toContain(name);
    }
    expect(tools.find((t) => t.name === 'get_binding')!.outputSchema).toBeDefined();
  });

  test('create_binding records llm provenance with the model argument', async () => {
    const created = await ok(server.client, 'create_binding', {
      name: 'Quokka field notes',
      content: CONTENT,
      summary: 'Notes on quokkas: where they live, what they eat, how they cope without water.',
      keyPoints: ['Live on Rottnest Island', 'Mostly nocturnal'],
      model: 'claude-test-model',
    });
    id = created.binding.id;
    expect(id).toMatch(/^bnd_[0-9a-z]{16}$/);
    expect(created.binding).toMatchObject({ version: 1, source: 'llm', model: 'claude-test-model', space: '@e2e-user' });
    expect(created.binding.publicUrl).toBe(`${PUBLIC}/@e2e-user/quokka-field-notes`);
    expect(created.binding.textUrl).toBe(`${PUBLIC}/@e2e-user/quokka-field-notes?format=md`);
    expect(contextOf(created._result).agentMeta).toEqual({ source: 'llm', model: 'claude-test-model' });
  });

  test('get_binding at tier 1: summary and key points, exact counts, no content', async () => {
    const res = await ok(server.client, 'get_binding', { id, tier: '1' });
    const b = res.binding;
    expect(Object.keys(b).sort()).toEqual(
      [
        'id',
        'name',
        'space',
        'version',
        'tier',
        'summary',
        'keyPoints',
        'contentTokenCount',
        'summaryTokenCount',
        'publicUrl',
        'textUrl',
        'source',
        'model',
        'updatedAt',
      ].sort(),
    );
    expect(b.contentTokenCount).toBe(tokensOf(CONTENT));
    expect(b.summaryTokenCount).toBe(tokensOf(b.summary));
    expect(b.keyPoints).toEqual(['Live on Rottnest Island', 'Mostly nocturnal']);
    const text = textOf(res._result);
    expect(text).toContain(b.summary);
    expect(text).not.toContain('Rottnest Island. They');
    expect(contextOf(res._result).binding).toEqual({
      id,
      contentTokenCount: tokensOf(CONTENT),
      publicUrl: b.publicUrl,
      textUrl: b.textUrl,
    });
  });

  test('get_binding at tier 1.5: the 500-char preview with the exact truncation count', async () => {
    const res = await ok(server.client, 'get_binding', { id, tier: '1.5' });
    const n = CONTENT.length - 500;
    const note = `(... truncated ${n} characters. Request tier 2 for full content.)`;
    expect(res.binding.contentPreview).toBe(`${CONTENT.slice(0, 500)}\n${note}`);
    // In the text the preview sits between its fence lines and the note follows the closing one.
    const fence = textOf(res._result).match(/\nPreview:\n<content fence="([0-9a-f]{12,})">\n/)?.[1];
    expect(fence).toBeString();
    expect(textOf(res._result)).toContain(`<content fence="${fence}">\n${CONTENT.slice(0, 500)}\n</content fence="${fence}">\n${note}\n`);
    expect(res.binding.content).toBeUndefined();
  });

  test('get_binding at tier 2: the full content', async () => {
    const res = await ok(server.client, 'get_binding', { id, tier: '2' });
    expect(res.binding.content).toBe(CONTENT);
    expect(textOf(res._result)).toContain(CONTENT);
    expect(res.binding.page).toBeUndefined();
  });

  test('two updates: the model falls back to clientInfo, expectedVersion is checked', async () => {
    const first = await ok(server.client, 'update_binding', { id, content: `${CONTENT}\nUpdate one.\n` });
    expect(first.binding).toMatchObject({ version: 2, source: 'llm', model: 'e2e-client 2.3.4' });
    expect(first.changed).toBe(true);
    const second = await ok(server.client, 'update_binding', {
      id,
      summary: 'Quokka notes, second revision.',
      expectedVersion: 2,
      model: 'other-model',
    });
    expect(second.binding).toMatchObject({ version: 3, model: 'other-model', summary: 'Quokka notes, second revision.' });
    expect(await err(server.client, 'update_binding', { id, summary: 'stale', expectedVersion: 2 })).toStartWith('Error CONFLICT');
  });

  test('list_versions shows 3 versions newest first with provenance', async () => {
    const res = await ok(server.client, 'list_versions', { id });
    expect(res.versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect(res.versions.map((v: { model: string }) => v.model)).toEqual(['other-model', 'e2e-client 2.3.4', 'claude-test-model']);
    expect(res.versions.every((v: { source: string }) => v.source === 'llm')).toBe(true);
    expect(res.pagination).toEqual({ total: 3, hasMore: false, nextCursor: null });
  });

  test('get_version 1 returns the original content', async () => {
    const res = await ok(server.client, 'get_version', { id, version: 1, tier: '2' });
    expect(res.binding.version).toBe(1);
    expect(res.binding.content).toBe(CONTENT);
    expect(res.current).toBe(false);
    expect(contextOf(res._result).agentMeta).toEqual({ source: 'llm', model: 'claude-test-model' });
  });

  test('search_bindings finds it by a word of its content', async () => {
    const res = await ok(server.client, 'search_bindings', { query: 'marsupials' });
    expect(res.results.map((r: { id: string }) => r.id)).toEqual([id]);
    expect(res.pagination.total).toBe(1);
    expect((await ok(server.client, 'search_bindings', { query: 'aardvark' })).results).toEqual([]);
  });

  test('delete_binding hides it from get, list, search and versions', async () => {
    const del = await ok(server.client, 'delete_binding', { id });
    expect(del).toMatchObject({ id, deleted: true, lastVersion: 3 });
    expect(await err(server.client, 'get_binding', { id })).toStartWith('Error NOT_FOUND');
    expect(await err(server.client, 'get_version', { id, version: 1 })).toStartWith('Error NOT_FOUND');
    expect(await err(server.client, 'list_versions', { id })).toStartWith('Error NOT_FOUND');
    expect(await err(server.client, 'delete_binding', { id })).toStartWith('Error NOT_FOUND');
    const listed = await ok(server.client, 'list_bindings', {});
    expect(listed.pagination.total).toBe(0);
    expect((await ok(server.client, 'search_bindings', { query: 'marsupials' })).results).toEqual([]);
  });

  test('create without a model argument records clientInfo as the model', async () => {
    const created = await ok(server.client, 'create_binding', { name: 'No model', content: 'Body.', summary: 'No model given.' });
    expect(created.binding).toMatchObject({ source: 'llm', model: 'e2e-client 2.3.4' });
    const res = await call(server.client, 'get_binding', { id: created.binding.id });
    expect(res.isError).toBeFalsy();
  });

  test('stdout carried only MCP; logs went to stderr', () => {
    expect(server.transportErrors).toEqual([]);
    expect(server.stderr()).toContain('stdio ready as @e2e-user');
  });
});

describe('stdio stdout purity (raw)', () => {
  test('every stdout line is a JSON-RPC message, from start to the tools/list answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-raw-'));
    const proc = Bun.spawn([process.execPath, join(REPO, 'adapters', 'stdio.ts')], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', BINDERY_DB_URL: `file:${join(dir, 'db', 'x.db')}` },
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const send = (msg: object) => proc.stdin.write(`${JSON.stringify(msg)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await proc.stdin.flush();
    const lines: string[] = [];
    const reader = proc.stdout.getReader();
    let buffer = '';
    while (!lines.some((l) => l.includes('"id":2'))) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += new TextDecoder().decode(value);
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts.filter(Boolean));
    }
    proc.stdin.end();
    proc.kill();
    await proc.exited;
    rmSync(dir, { recursive: true, force: true });
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const l of lines) expect(JSON.parse(l).jsonrpc).toBe('2.0');
    const list = JSON.parse(lines.find((l) => l.includes('"id":2'))!);
    expect(list.result.tools.length).toBeGreaterThanOrEqual(9);
  });
});

describe('stdio start-up pruning', () => {
  test('sign-ins that ended over a day ago are pruned after the first answers, not before them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-stdio-prune-'));
    const env = { BINDERY_DB_URL: `file:${join(dir, 'data', 'bindery.db')}` };
    const links = async (db: Awaited<ReturnType<typeof openRuntime>>['deps']['db']) =>
      Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM login_links`))?.n);
    const setup = await openRuntime(env);
    const caller = await ensureCaller(setup.deps, 'local');
    await storeLoginLink(setup.deps.db, caller.id, 'hash-old', Date.now() - 3 * DAY, Date.now() - 2 * DAY);
    setup.database.close();
    const server = await startStdioServer({ dir });
    try {
      await ok(server.client, 'whoami');
      const check = await openRuntime(env);
      try {
        expect(await links(check.deps.db)).toBe(1);
        // Pruned a couple of seconds after start-up (bounded wait).
        for (let i = 0; i < 50 && (await links(check.deps.db)) > 0; i++) await Bun.sleep(100);
        expect(await links(check.deps.db)).toBe(0);
      } finally {
        check.database.close();
      }
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 15_000);
});
