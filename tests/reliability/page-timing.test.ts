// Timing: an anonymous GET of someone's private page and of a missing page must do
// the same work up to the one 404, so that their timings cannot tell them apart.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { httpWorld, median, type HttpWorld } from './http-world.ts';

let w: HttpWorld;
/** SQL text of every statement the database ran since the last reset. */
let statements: string[] = [];

beforeAll(async () => {
  w = await httpWorld();
  // Drizzle runs every query through the client's execute: record the SQL (not the arguments).
  const client = w.database.client as unknown as { execute: (stmt: unknown) => Promise<unknown> };
  const execute = client.execute.bind(client);
  client.execute = (stmt: unknown) => {
    statements.push(typeof stmt === 'string' ? stmt : (stmt as { sql: string }).sql);
    return execute(stmt);
  };
});

afterAll(() => w.close());

async function trace(path: string): Promise<{ status: number; body: string; sql: string[] }> {
  statements = [];
  const res = await w.get(path);
  return { status: res.status, body: await res.text(), sql: statements };
}

test('private and missing pages run the same queries and answer the same bytes', async () => {
  const privatePath = `/@bob/${w.seed.bobPrivate.slug}`;
  for (const suffix of ['', '?format=md', `?share=${'x'.repeat(43)}`]) {
    const priv = await trace(privatePath + suffix);
    for (const missing of ['/@bob/no-such-binding', '/@nobody/no-such-binding']) {
      const miss = await trace(missing + suffix);
      expect(priv.status).toBe(404);
      expect(miss.status).toBe(404);
      expect(miss.body).toBe(priv.body);
      expect(miss.sql).toEqual(priv.sql);
    }
  }
});

test('their timings match (interleaved, medians within a loose bound)', async () => {
  const paths = { private: `/@bob/${w.seed.bobPrivate.slug}`, missing: '/@bob/no-such-binding' };
  const times: Record<keyof typeof paths, number[]> = { private: [], missing: [] };
  const rounds = 600;
  for (let i = 0; i < rounds; i++) {
    // Alternate which goes first so drift and warm-up land on both alike.
    const order = i % 2 ? (['private', 'missing'] as const) : (['missing', 'private'] as const);
    for (const k of order) {
      const t = performance.now();
      const res = await w.get(paths[k]);
      await res.arrayBuffer();
      times[k].push(performance.now() - t);
    }
  }
  const skip = 100; // warm-up
  const mp = median(times.private.slice(skip)) * 1000;
  const mm = median(times.missing.slice(skip)) * 1000;
  console.log(
    `anonymous 404 medians over ${rounds - skip} rounds: private ${mp.toFixed(1)} µs, missing ${mm.toFixed(1)} µs (difference ${(mp - mm).toFixed(1)} µs)`,
  );
  // The leak was ~150 µs on a ~300 µs request; the same work leaves noise, a few µs either way.
  expect(Math.abs(mp - mm)).toBeLessThan(Math.max(40, 0.15 * Math.min(mp, mm)));
}, 60_000);
