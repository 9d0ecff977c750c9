// Resources, subscriptions, completions and logging through real adapters: the spawned Bun HTTP
// adapter with sessions (notifications reach another session's GET stream) and stateless, and stdio
// (log lines reach the client as notifications/message on stdout without breaking the stream).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { BINDING_URI_TEMPLATE } from '../../core/mcp/uri.ts';
import { ok } from '../helpers.ts';
import { bunHttpTarget, httpClient, stdioTarget, type Target } from '../../support/targets.ts';

const independent = new Tiktoken(o200k);

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await Bun.sleep(20);
}

describe('HTTP sessions', () => {
  let target: Target;
  beforeAll(async () => {
    target = await bunHttpTarget();
  }, 60_000);
  afterAll(() => target.stop());

  test('subscribe in one session, update_binding in another: notifications/resources/updated arrives; unsubscribe stops it', async () => {
    const watcher = await target.connect();
    const writer = await target.connect();
    expect(watcher.getServerCapabilities()!.resources).toEqual({ subscribe: true, listChanged: false });
    const made = await ok(writer, 'create_binding', { name: 'Watched note', content: '# Watched\n\nv1\n', summary: 'Watched.' });
    const uri = 'bindery://alice/watched-note';
    const updates: string[] = [];
    watcher.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    await watcher.subscribeResource({ uri });
    // The client opens its GET stream after initialize; give it a moment before the write.
    await Bun.sleep(200);
    await ok(writer, 'update_binding', { id: made.binding.id, content: '# Watched\n\nv2\n' });
    await until(() => updates.length > 0, 5000);
    expect(updates).toEqual([uri]);
    const read = (await watcher.readResource({ uri })) as ReadResourceResult;
    const text = (read.contents[0] as { text: string }).text;
    expect(text).toContain('v2');
    expect((read._meta as any).context.response.tokens).toBe(independent.encode(text, [], []).length);
    await watcher.unsubscribeResource({ uri });
    await ok(writer, 'update_binding', { id: made.binding.id, content: '# Watched\n\nv3\n' });
    await Bun.sleep(2500); // past one poll interval
    expect(updates).toEqual([uri]);
  }, 30_000);

  test("bob's private binding: not listed, not completed, unreadable exactly like a missing one", async () => {
    const alice = await target.connect();
    const { slug, word } = target.seed.bobPrivate;
    const listed = await alice.listResources();
    expect(JSON.stringify(listed)).not.toContain(word);
    const spaces = await alice.complete({
      ref: { type: 'ref/resource', uri: BINDING_URI_TEMPLATE },
      argument: { name: 'space', value: 'b' },
    });
    expect(spaces.completion).toEqual({ values: [], total: 0, hasMore: false });
    const bindings = await alice.complete({
      ref: { type: 'ref/resource', uri: BINDING_URI_TEMPLATE },
      argument: { name: 'binding', value: '' },
      context: { arguments: { space: 'bob' } },
    });
    expect(bindings.completion).toEqual({ values: [], total: 0, hasMore: false });
    const fail = (uri: string) =>
      alice.readResource({ uri }).then(
        () => 'read',
        (e: Error) => e.message,
      );
    expect(await fail(`bindery://bob/${slug}`)).toBe((await fail('bindery://bob/no-such-thing')).replace('no-such-thing', slug));
    // Bob himself reads it.
    const bob = await httpClient(target.url!, target.seed.bobKey);
    const own = (await bob.readResource({ uri: `bindery://bob/${slug}` })) as ReadResourceResult;
    expect((own.contents[0] as { text: string }).text).toContain(word);
    await bob.close();
  }, 30_000);
});

describe('stateless HTTP', () => {
  let target: Target;
  beforeAll(async () => {
    target = await bunHttpTarget({ BINDERY_HTTP_STATELESS: '1' }, 'bun-http-stateless');
  }, 60_000);
  afterAll(() => target.stop());

  test('advertises resources without subscribe, still lists and reads them', async () => {
    const client = await target.connect();
    const caps = client.getServerCapabilities()!;
    expect(caps.resources).toEqual({ subscribe: false, listChanged: false });
    expect(caps.logging).toBeDefined();
    expect(caps.prompts).toBeDefined();
    expect(caps.completions).toBeDefined();
    await ok(client, 'create_binding', { name: 'Stateless note', content: 'Hello.\n', summary: 'Hi.' });
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain('bindery://alice/stateless-note');
    const read = (await client.readResource({ uri: 'bindery://alice/stateless-note' })) as ReadResourceResult;
    expect((read.contents[0] as { text: string }).text).toContain('Hello.');
  }, 30_000);
});

describe('stdio', () => {
  let target: Target;
  beforeAll(async () => {
    target = await stdioTarget();
  }, 60_000);
  afterAll(() => target.stop());

  test('resources, subscription notifications and log lines share stdout with the MCP stream', async () => {
    const client = await target.connect();
    expect(client.getServerCapabilities()!.resources).toEqual({ subscribe: true, listChanged: false });
    const made = await ok(client, 'create_binding', { name: 'Stdio note', content: 'Over stdio.\n', summary: 'Stdio.' });
    const logs: string[] = [];
    const updates: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(`${n.params.level} ${String(n.params.data)}`);
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    await client.setLoggingLevel('info');
    const uri = 'bindery://alice/stdio-note';
    await client.subscribeResource({ uri });
    await ok(client, 'update_binding', { id: made.binding.id, content: 'Changed over stdio.\n' });
    await until(() => updates.length > 0 && logs.length > 0, 5000);
    expect(updates).toEqual([uri]);
    expect(logs).toContain(`info resources/subscribe ${uri}`);
    const read = (await client.readResource({ uri })) as ReadResourceResult;
    expect((read.contents[0] as { text: string }).text).toContain('Changed over stdio.');
  }, 30_000);
});
