// REST paths from outside: trailing slashes are trimmed in one pass, so a request whose path ends in a
// long run of slashes costs what reading it costs (the pattern /\/+$/ re-read the run from each slash:
// 64,000 slashes took 3 s of the server's time per request).
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createFetchHandler } from '../../adapters/edge.ts';
import { createApiKey } from '../../core/http/auth.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { createDatabase, migrate } from '../../db/index.ts';

const BASE = 'http://localhost:8787';
const database = createDatabase({ url: ':memory:' });
let handler: (r: Request) => Promise<Response>;
let key: string;

beforeAll(async () => {
  await migrate(database.db);
  const caller = await ensureCaller({ db: database.db, now: Date.now }, 'alice');
  key = (await createApiKey(database.db, caller.id, Date.now())).key;
  handler = createFetchHandler({ env: { BINDERY_PUBLIC_URL: BASE }, database: () => database.db });
});
afterAll(() => database.close());

const get = (path: string) => handler(new Request(`${BASE}${path}`, { headers: { Authorization: `Bearer ${key}` } }));

test('a path ending in 300,000 slashes is the path without them', async () => {
  const plain = await get('/api/me');
  expect(plain.status).toBe(200);
  const slashes = await get(`/api/me${'/'.repeat(300_000)}`);
  expect(slashes.status).toBe(200);
  expect(await slashes.json()).toEqual(await plain.json());
});

test('a run of 300,000 slashes inside a path is answered at once, as an unknown route', async () => {
  const inside = await get(`/api/me${'/'.repeat(300_000)}x`);
  expect(inside.status).toBe(404);
});
