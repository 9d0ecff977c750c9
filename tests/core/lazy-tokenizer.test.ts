import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createBinderyServer, createTiktokenCounter, parseConfig, type TokenCounter } from '../../core/index.ts';
import { ensureCaller, ensureCountsCurrent } from '../../core/services/prepare.ts';
import { createDatabase, migrate } from '../../db/index.ts';
import { createBinding } from '../../core/services/bindings.ts';
import { call, testCounter } from '../helpers.ts';

/** A counter that records whether anything made it load the encoder. */
function spyCounter(): TokenCounter & { loads: number } {
  const inner = createTiktokenCounter('o200k_base');
  const spy = {
    encoding: inner.encoding,
    stats: inner.stats,
    loads: 0,
    load: () => (spy.loads++, inner.load()),
    count: (t: string) => inner.count(t),
  };
  return spy;
}

async function connect(deps: Parameters<typeof createBinderyServer>[0], handle: string): Promise<Client> {
  const server = createBinderyServer(deps, { caller: await ensureCaller({ db: deps.db, now: Date.now }, handle) });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: 'cold', version: '1' });
  await client.connect(a);
  return client;
}

describe('reads of stored blocks never load the tokenizer', () => {
  test('a fresh process (new database handle, as at an edge cold start) answers get_binding and get_version at every tier with exact counts and no tokenizer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-cold-'));
    const config = parseConfig({ BINDERY_DB_URL: `file:${join(dir, 'b.db')}`, BINDERY_TOOL_MODE: 'eager' });

    // A writer process: migrates, writes a binding, records what its version counts are for. (It
    // never wrote a comment nor recorded comment counts: with no comments, nothing needs the tokenizer.)
    const first = createDatabase({ url: config.dbUrl });
    await migrate(first.db);
    const writerDeps = { db: first.db, tokens: await testCounter(), config, now: Date.now };
    const owner = await ensureCaller(writerDeps, 'reader');
    const created = await createBinding(
      writerDeps,
      owner,
      { name: 'Cold read', content: 'Body text. '.repeat(200), summary: 'A doc read cold.', keyPoints: ['one'] },
      { source: 'human', model: null },
    );
    const id = created.bindingId;
    await ensureCountsCurrent(writerDeps);
    first.close();

    // A cold reader on a new handle: nothing cached in this process for this database.
    const second = createDatabase({ url: config.dbUrl });
    const tokens = spyCounter();
    const reader = await connect({ db: second.db, tokens, config, now: Date.now }, 'reader');
    for (const tier of ['1', '1.5', '2']) {
      expect((await call(reader, 'get_binding', { id, tier })).isError).toBeFalsy();
      expect((await call(reader, 'get_version', { id, version: 1, tier })).isError).toBeFalsy();
    }
    expect(tokens.loads).toBe(0);
    expect(tokens.stats.calls).toBe(0);

    // An error still gets an exact count: the tokenizer loads then.
    const missing = await call(reader, 'get_binding', { id: 'bnd_0000000000000000' });
    expect(missing.isError).toBe(true);
    expect(tokens.loads).toBeGreaterThan(0);
    await reader.close();
    second.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
