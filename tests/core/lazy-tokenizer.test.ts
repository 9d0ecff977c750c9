import { describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createBinderyServer, createTiktokenCounter, type TokenCounter } from '../../core/index';
import { ensureCaller } from '../../core/services/prepare';
import { call, createTestWorld } from '../helpers';

/** A counter that records whether anything made it load the encoder. */
function spyCounter(): TokenCounter & { loads: number } {
  const inner = createTiktokenCounter('o200k_base');
  const spy = { encoding: inner.encoding, stats: inner.stats, loads: 0, load: () => (spy.loads++, inner.load()), count: (t: string) => inner.count(t) };
  return spy;
}

describe('reads of stored blocks never load the tokenizer', () => {
  test('get_binding and get_version at every tier answer exact counts with no tokenizer', async () => {
    const world = await createTestWorld();
    const writer = await world.connect('reader');
    const created = await call(writer, 'create_binding', { name: 'Cold read', content: 'Body text. '.repeat(200), summary: 'A doc read cold.', keyPoints: ['one'] });
    const id = (created.structuredContent as { binding: { id: string } }).binding.id;

    const tokens = spyCounter();
    const caller = await ensureCaller({ db: world.db, now: Date.now }, 'reader');
    const server = createBinderyServer({ db: world.db, tokens, config: world.config }, { caller });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: 'cold', version: '1' });
    await client.connect(a);
    for (const tier of ['1', '1.5', '2']) {
      const r = await call(client, 'get_binding', { id, tier });
      expect(r.isError).toBeFalsy();
      const v = await call(client, 'get_version', { id, version: 1, tier });
      expect(v.isError).toBeFalsy();
    }
    expect(tokens.loads).toBe(0);
    expect(tokens.stats.calls).toBe(0);

    // An error still gets an exact count: the tokenizer loads then.
    const missing = await call(client, 'get_binding', { id: 'bnd_0000000000000000' });
    expect(missing.isError).toBe(true);
    expect(tokens.loads).toBe(1);
    world.close();
  });
});
