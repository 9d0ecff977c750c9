// One MCP case list, run against every adapter with real runtimes: stdio (spawned), Bun HTTP with
// sessions and stateless (spawned, 127.0.0.1), the edge handler under Deno (spawned, local libSQL
// file) and under workerd (miniflare, D1). Same cases, same SDK Client (docs/testing.md).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ALL_TOOLS } from '../../core/index.ts';
import { contextOf, err, ok, sampleBinding } from '../helpers.ts';
import {
  bunHttpTarget,
  denoTarget,
  denoUnavailable,
  remoteBunHttpTarget,
  remoteEdgeTarget,
  remoteUnavailable,
  stdioTarget,
  workerdTarget,
  type Target,
} from '../../support/targets.ts';

const EAGER = ALL_TOOLS.filter((t) => t.category !== 'proxy').map((t) => t.name);

interface Case {
  name: string;
  run(t: Target, client: Client): Promise<void>;
}

const cases: Case[] = [
  {
    name: 'initialize: server info and tool capability',
    async run(_t, client) {
      expect(client.getServerVersion()?.name).toBe('bindery');
      expect(client.getServerCapabilities()?.tools).toBeDefined();
    },
  },
  {
    name: 'tools/list: every tool, eager',
    async run(_t, client) {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...EAGER].sort());
      expect(tools.every((t) => t.inputSchema.type === 'object')).toBe(true);
    },
  },
  {
    name: 'create → search → get at each tier (and the URLs resolve over HTTP)',
    async run(t, client) {
      const word = `quokka${t.name.replace(/[^a-z]/g, '')}`;
      const content = `# Field notes\n\nThe ${word} is a small marsupial.\n\n${'More text about habitats. '.repeat(40)}\n`;
      const created = await ok(client, 'create_binding', {
        name: `Notes ${t.name}`,
        content,
        summary: `About the ${word}.`,
        keyPoints: ['marsupial'],
      });
      const id = created.binding.id as string;
      expect(created.binding.source).toBe('llm');
      const found = await ok(client, 'search_bindings', { query: word });
      expect(found.results.map((r: { id: string }) => r.id)).toContain(id);
      const t1 = await ok(client, 'get_binding', { id, tier: '1' });
      expect(t1.binding.content).toBeUndefined();
      expect(t1.binding.contentPreview).toBeUndefined();
      expect(contextOf(t1._result).binding.id).toBe(id);
      const t15 = await ok(client, 'get_binding', { id, tier: '1.5' });
      expect(t15.binding.contentPreview).toContain('(... truncated');
      const t2 = await ok(client, 'get_binding', { id, tier: '2' });
      expect(t2.binding.content).toBe(content);
      expect(t2.binding.contentTokenCount).toBe(created.binding.contentTokenCount);
      if (t.url) {
        const md = await fetch(t2.binding.textUrl, { headers: { Authorization: `Bearer ${t.seed.aliceKey}` } });
        expect(md.status).toBe(200);
        expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
        expect(await md.text()).toBe(content);
        const page = await fetch(t2.binding.publicUrl, { headers: { Authorization: `Bearer ${t.seed.aliceKey}` } });
        expect(await page.text()).toContain(`About the ${word}.`);
        expect((await fetch(t2.binding.publicUrl)).status).toBe(404); // private space, no key
      }
    },
  },
  {
    name: 'a public link opens its page only with its secret (Web Crypto on every runtime)',
    async run(t, client) {
      const doc = await ok(client, 'create_binding', {
        name: `Linked ${t.name}`,
        content: '# Linked\n\nFor link holders.\n',
        summary: 'Linked.',
      });
      const link = await ok(client, 'create_share', { target: doc.binding.id, public: true, permission: 'read' });
      expect(link.linkUrl).toMatch(/\?share=[A-Za-z0-9_-]{32}$/);
      if (!t.url) return;
      const base = (u: string) => u.replace(/^https?:\/\/[^/]+/, t.url!);
      expect((await fetch(base(doc.binding.publicUrl))).status).toBe(404);
      expect((await fetch(base(doc.binding.textUrl))).status).toBe(404);
      const md = await fetch(base(link.linkTextUrl));
      expect(md.status).toBe(200);
      expect(await md.text()).toBe('# Linked\n\nFor link holders.\n');
      await ok(client, 'revoke_share', { id: link.share.id });
      expect((await fetch(base(link.linkTextUrl))).status).toBe(404);
    },
  },
  {
    name: 'create_set → get_set_context within budget',
    async run(t, client) {
      const ids: string[] = [];
      for (let i = 1; i <= 4; i++)
        ids.push((await ok(client, 'create_binding', sampleBinding(i, { content: `# S${i}\n\n${'word '.repeat(300)}\n` }))).binding.id);
      const set = await ok(client, 'create_set', { name: `Budget ${t.name}`, bindingIds: ids });
      const maxTokens = 700;
      const result = await ok(client, 'get_set_context', { setId: set.set.id, maxTokens, tier: '2' });
      const budget = contextOf(result._result).budget;
      expect(budget.maxTokens).toBe(maxTokens);
      expect(contextOf(result._result).response.tokens).toBeLessThanOrEqual(maxTokens);
      expect(budget.usedTokens).toBeLessThanOrEqual(maxTokens);
      expect(budget.included.length).toBeGreaterThan(0);
      expect(budget.included.length + budget.omitted.length).toBe(4);
    },
  },
  {
    name: 'bad input: isError naming the field, nothing written',
    async run(_t, client) {
      const before = (await ok(client, 'list_bindings', { limit: 1 })).pagination.total;
      expect(await err(client, 'create_binding', { name: 'x', content: 'y', summary: 's'.repeat(601) })).toContain('summary');
      expect(await err(client, 'get_binding', { id: 'bnd_0123456789abcdef', tier: '3' })).toContain('tier');
      expect((await ok(client, 'list_bindings', { limit: 1 })).pagination.total).toBe(before);
    },
  },
  {
    name: "unauthorised access: another user's private binding looks missing; HTTP needs a live key",
    async run(t, client) {
      const text = await err(client, 'get_binding', { id: t.seed.bobPrivate.id });
      expect(text).toContain('NOT_FOUND');
      expect((await ok(client, 'search_bindings', { query: t.seed.bobPrivate.word })).results).toHaveLength(0);
      expect(await err(client, 'list_bindings', { space: '@bob' })).toContain('NOT_FOUND');
      if (!t.url) return;
      for (const auth of [undefined, 'Bearer bdk_nope', `Bearer ${t.seed.revokedKey}`]) {
        const res = await fetch(`${t.url}/mcp`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            ...(auth ? { Authorization: auth } : {}),
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toStartWith('Bearer');
      }
      const page = await fetch(`${t.url}/@bob/${t.seed.bobPrivate.slug}`, { headers: { Authorization: `Bearer ${t.seed.aliceKey}` } });
      expect(page.status).toBe(404);
    },
  },
];

interface Runtime {
  name: string;
  start(): Promise<Target>;
  skip?: () => string | undefined;
}

const runtimes: Runtime[] = [
  { name: 'stdio', start: stdioTarget },
  { name: 'bun-http', start: () => bunHttpTarget() },
  {
    name: 'bun-http-stateless',
    start: () => bunHttpTarget({ BINDERY_HTTP_STATELESS: '1', BINDERY_TOOL_MODE: 'lazy' }, 'bun-http-stateless'),
  },
  { name: 'deno-edge', start: denoTarget, skip: denoUnavailable },
  { name: 'workerd-edge', start: workerdTarget },
  // A real remote libSQL server (Turso or sqld) when BINDERY_TEST_REMOTE_URL is set.
  { name: 'bun-http+remote-libsql', start: remoteBunHttpTarget, skip: remoteUnavailable },
  { name: 'edge+remote-libsql', start: remoteEdgeTarget, skip: remoteUnavailable },
];

for (const rt of runtimes) {
  const reason = rt.skip?.();
  if (reason) {
    // Said on stderr, not as an empty test that would count as a skip and could never fail.
    console.warn(`[contract] SKIPPED ${rt.name}: ${reason}`);
    continue;
  }
  describe(`adapter contract: ${rt.name}`, () => {
    let target: Target;
    let client: Client;
    beforeAll(async () => {
      target = await rt.start();
      client = await target.connect();
    }, 60_000);
    afterAll(async () => {
      await target?.stop();
    });
    for (const c of cases) test(c.name, () => c.run(target, client), 30_000);
  });
}
