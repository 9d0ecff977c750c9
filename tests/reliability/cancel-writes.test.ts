// A write that commits answers with its result; one answered as cancelled (no
// result: the SDK drops a cancelled request's answer, HTTP ends it with -32800) has written nothing.
// 60 writes, each cancelled at a random moment, over the SDK's real server transport.
import { describe, expect, test } from 'bun:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createDatabase, migrate } from '../../db/index.ts';
import { createBinderyServer, parseConfig } from '../../core/index.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { testCounter } from '../helpers.ts';
import type { TokenCounter } from '../../core/tokens/counter.ts';
import { createHttpApp } from '../../core/http/app.ts';
import { createApiKey } from '../../core/http/auth.ts';

const WRITES = 60;
const yieldOnce = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The real counter, whose `load()` (awaited before a tool runs and again while its answer is joined,
 * after the write) gives the event loop a few turns: an in-memory database answers without yielding,
 * and these turns are where a cancellation arrives in a real server, before and after the commit.
 */
function jittery(real: TokenCounter): TokenCounter {
  return {
    encoding: real.encoding,
    stats: real.stats,
    count: (t) => real.count(t),
    async load() {
      for (let n = Math.floor(Math.random() * 4); n > 0; n--) await yieldOnce();
      return real.load();
    },
  };
}

describe('cancelled writes', () => {
  test(`${WRITES} creates, each cancelled at a random moment: answered with a result ⇔ written`, async () => {
    const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager' });
    const database = createDatabase({ url: ':memory:' });
    await migrate(database.db);
    const deps = { db: database.db, tokens: jittery(await testCounter()), config, now: () => Date.now() };
    const server = createBinderyServer(deps, { caller: await ensureCaller(deps, 'alice') });
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const answers = new Map<number, JSONRPCMessage>();
    client.onmessage = (m) => {
      if ('id' in m && typeof m.id === 'number') answers.set(m.id, m);
    };
    await client.start();
    await client.send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'canceller', version: '1' } },
    });
    while (!answers.has(0)) await yieldOnce();
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    // One write at a time, its cancellation sent after a random number of event-loop turns
    // spanning the whole call: before it starts, while it writes, after it answers.
    const settled = async (id: number) => {
      for (let quiet = 0, last = ''; quiet < 10; ) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        const now = `${answers.has(id)}|${Number((await database.client.execute('SELECT count(*) FROM versions')).rows[0]![0])}`;
        quiet = now === last ? quiet + 1 : 0;
        last = now;
      }
    };
    for (let id = 1; id <= WRITES; id++) {
      await client.send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: 'create_binding',
          arguments: { name: `Write ${id}`, summary: 'Cancelled at random.', content: `# Write ${id}\n\nbody` },
        },
      });
      for (let n = Math.floor(Math.random() * 10); n > 0; n--) await yieldOnce();
      await client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'test' } });
      await settled(id);
    }

    const written = new Set((await database.client.execute('SELECT name FROM versions')).rows.map((r) => String(r[0])));
    const broken: string[] = [];
    let answered = 0;
    for (let id = 1; id <= WRITES; id++) {
      const answer = answers.get(id) as { result?: { isError?: boolean } } | undefined;
      const result = answer?.result !== undefined && !answer.result.isError;
      if (result) answered++;
      if (result !== written.has(`Write ${id}`))
        broken.push(
          `write ${id}: ${result ? 'answered with a result' : 'answered as cancelled'} but ${written.has(`Write ${id}`) ? 'written' : 'not written'}`,
        );
    }
    expect(broken).toEqual([]);
    // The race is real: some calls were cancelled in time and some committed first.
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(WRITES);
    await client.close();
    database.close();
  }, 30_000);
  test(`over HTTP (a session, JSON responses): ${WRITES} creates, each cancelled at a random moment: answered -32800 ⇔ not written`, async () => {
    const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager' });
    const database = createDatabase({ url: ':memory:' });
    await migrate(database.db);
    const deps = { db: database.db, tokens: jittery(await testCounter()), config, now: () => Date.now() };
    const alice = await ensureCaller(deps, 'alice');
    const key = (await createApiKey(database.db, alice.id, Date.now())).key;
    const app = createHttpApp({ deps });
    const headers = {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-06-18',
    };
    const post = (body: unknown, sid?: string) =>
      app.fetch(
        new Request('http://localhost:8787/mcp', {
          method: 'POST',
          headers: sid ? { ...headers, 'Mcp-Session-Id': sid } : headers,
          body: JSON.stringify(body),
        }),
      );
    const init = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'canceller', version: '1' } },
    });
    const sid = init.headers.get('mcp-session-id')!;
    await init.text();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, sid)).text();

    const broken: string[] = [];
    let answered = 0;
    for (let id = 1; id <= WRITES; id++) {
      const reply = post(
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: {
            name: 'create_binding',
            arguments: { name: `Write ${id}`, summary: 'Cancelled at random.', content: `# Write ${id}\n\nbody` },
          },
        },
        sid,
      ).then((r) => r.json());
      for (let n = Math.floor(Math.random() * 10); n > 0; n--) await yieldOnce();
      await (await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'test' } }, sid)).text();
      const answer = (await reply) as { result?: { isError?: boolean }; error?: { code: number } };
      const result = answer.result !== undefined && !answer.result.isError;
      if (result) answered++;
      else expect(answer.error?.code).toBe(-32800);
      const written =
        Number(
          (await database.client.execute({ sql: 'SELECT count(*) FROM versions WHERE name = ?', args: [`Write ${id}`] })).rows[0]![0],
        ) > 0;
      if (result !== written)
        broken.push(`write ${id}: ${result ? 'answered with a result' : 'answered -32800'} but ${written ? 'written' : 'not written'}`);
    }
    expect(broken).toEqual([]);
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(WRITES);
    await app.close();
    database.close();
  }, 30_000);
});
