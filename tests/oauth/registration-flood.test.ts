// Anonymous POST /register had no rate limit, cap or expiry and stored ~29 KiB a
// call (2,000 of 2,000 accepted, +60 MB). Now: bounded fields (refused naming the field), a per-address
// rate limit bounded in memory, a cap on pending clients (registered, never authorized) and their
// expiry; while a flood is refused, everyone else is served.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { errorOf, form, grant, mcpStatus, oauthWorld, REDIRECT, type OAuthWorld } from './world.ts';
import { createApiKey } from '../../core/http/auth.ts';

const ADDR = 'x-test-client-address';
let w: OAuthWorld;
beforeAll(async () => {
  w = await oauthWorld(':memory:', { clientAddress: (r) => r.headers.get(ADDR) ?? undefined });
});
afterAll(() => w.close());

const reg = (body: unknown, address = '192.0.2.1') =>
  w.fetch('/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [ADDR]: address },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** The most a client can store: every field at its limit (what a flood would send). */
const fattest = () => ({
  redirect_uris: Array.from({ length: 5 }, (_, i) => `https://app.example/${i}/${'p'.repeat(480)}`),
  client_name: 'n'.repeat(100),
  client_uri: `https://app.example/${'c'.repeat(480)}`,
  scope: 's'.repeat(256),
  software_id: 'i'.repeat(100),
  software_version: 'v'.repeat(100),
});

async function storedBytes(): Promise<number> {
  const row = await w.database.db.get<{ n: number }>(
    sql`SELECT coalesce(sum(length(metadata) + length(redirect_uris) + length(coalesce(name, ''))), 0) AS n FROM oauth_clients`,
  );
  return Number(row.n);
}

describe('registration limits', () => {
  test('each field over its limit is refused, naming the field and the rule', async () => {
    const base = { redirect_uris: [REDIRECT] };
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ ...base, client_name: 'x'.repeat(101) }, 'invalid_client_metadata', /^client_name: at most 100 characters/],
      [
        { redirect_uris: Array.from({ length: 6 }, (_, i) => `https://app.example/${i}`) },
        'invalid_redirect_uri',
        /^redirect_uris: between 1 and 5/,
      ],
      [{ redirect_uris: [`https://app.example/${'x'.repeat(500)}`] }, 'invalid_redirect_uri', /^redirect_uris\[0\]: longer than 512/],
      [{ ...base, logo_uri: `https://app.example/${'x'.repeat(500)}` }, 'invalid_client_metadata', /^logo_uri: at most 512/],
      [{ ...base, scope: 's'.repeat(257) }, 'invalid_client_metadata', /^scope: at most 256/],
      [{ ...base, software_version: 'v'.repeat(101) }, 'invalid_client_metadata', /^software_version: at most 100/],
    ];
    for (const [i, [body, error, message]] of cases.entries()) {
      const res = await reg(body, `198.51.100.${i}`);
      expect(res.status).toBe(400);
      const answer = (await res.json()) as { error: string; error_description: string };
      expect(answer.error).toBe(error);
      expect(answer.error_description).toMatch(message);
    }
    const big = await reg({ ...base, jwks: { keys: ['k'.repeat(5000)] } }, '198.51.100.99');
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error_description: string }).error_description).toMatch(/^body: a registration is at most 4096 bytes/);
    // At every limit at once it is accepted, and stores a few KiB, not 29.
    const before = await storedBytes();
    expect((await reg(fattest(), '198.51.100.100')).status).toBe(201);
    expect((await storedBytes()) - before).toBeLessThan(8 * 1024);
  });

  test('one address gets 20 registrations, then 429 with Retry-After; another address is not affected', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await reg({ redirect_uris: [REDIRECT] }, '203.0.113.7')).status);
    expect(statuses.slice(0, 20).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    const limited = await reg({ redirect_uris: [REDIRECT] }, '203.0.113.7');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await errorOf(limited)).toBe('temporarily_unavailable');
    expect((await reg({ redirect_uris: [REDIRECT] }, '203.0.113.8')).status).toBe(201);
    // An IPv6 host's whole /64 is one source.
    for (let i = 0; i < 20; i++) expect((await reg({ redirect_uris: [REDIRECT] }, `2001:db8:1:2::${i + 1}`)).status).toBe(201);
    expect((await reg({ redirect_uris: [REDIRECT] }, '2001:db8:1:2:ffff::9')).status).toBe(429);
  });
});

describe('a flood of registrations', () => {
  test('from 1,000 addresses at once: at most 200 pending clients are stored, the rest refused, and everyone else is served meanwhile', async () => {
    const key = await createApiKey(w.database.db, w.alice.id, Date.now());
    const flood = Array.from({ length: 1_000 }, (_, i) => reg(fattest(), `10.${(i >> 8) & 255}.${i & 255}.1`));
    const others = Array.from({ length: 20 }, () =>
      Promise.all([w.fetch('/healthz'), w.fetch('/api/me', { headers: { Authorization: `Bearer ${key.key}` } }), mcpStatus(w, key.key)]),
    );
    const answers = await Promise.all(flood);
    for (const trio of await Promise.all(others)) expect(trio.map((r) => r.status)).toEqual([200, 200, 200]);
    const accepted = answers.filter((r) => r.status === 201).length;
    const refused = answers.filter((r) => r.status === 503);
    expect(accepted + refused.length).toBe(1_000);
    expect(refused.length).toBeGreaterThan(0);
    expect(await errorOf(refused[0]!)).toBe('temporarily_unavailable');
    const pending = await w.database.db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM oauth_clients WHERE id NOT IN (SELECT client_id FROM oauth_codes)`,
    );
    expect(Number(pending.n)).toBe(200);
    // Bounded on disk: 200 clients at every limit, under 8 KiB each (1.6 MB at most, was 60 MB for 2,000).
    expect(await storedBytes()).toBeLessThan(200 * 8 * 1024);
  });

  test('a client someone authorized is no longer pending and never expires; pending ones expire after a day', async () => {
    // Full: a new registration is refused until a pending client is used or expires.
    expect((await reg({ redirect_uris: [REDIRECT] }, '192.0.2.50')).status).toBe(503);
    const ids = await w.database.db.all<{ id: string }>(
      sql`SELECT id FROM oauth_clients WHERE redirect_uris = ${JSON.stringify([REDIRECT])} ORDER BY created_at LIMIT 1`,
    );
    const used = ids[0]!.id;
    const t = await grant(w, used);
    expect((await reg({ redirect_uris: [REDIRECT] }, '192.0.2.51')).status).toBe(201);
    await w.tick(24 * 3600_000 + 1);
    const fresh = await reg({ redirect_uris: [REDIRECT], client_name: 'After a day' }, '192.0.2.52');
    expect(fresh.status).toBe(201);
    const left = await w.database.db.all<{ id: string }>(sql`SELECT id FROM oauth_clients`);
    expect(left.map((r) => r.id).sort()).toEqual([used, ((await fresh.json()) as { client_id: string }).client_id].sort());
    // The authorized client keeps working.
    const refreshed = await w.fetch('/token', form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: used }));
    expect(refreshed.status).toBe(200);
  });
});

describe('the real Bun server', () => {
  test("keys the limit by the socket's address: a header a client sends cannot pose as another source", async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { startHttp } = await import('../../adapters/bun-http.ts');
    const dir = mkdtempSync(join(tmpdir(), 'bindery-reg-'));
    const running = await startHttp({ BINDERY_DB_URL: `file:${join(dir, 'r.db')}`, PORT: '0', BINDERY_HTTP_HOST: '127.0.0.1' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        const res = await fetch(`${running.url}/register`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'x-bindery-client-address': `10.9.8.${i}`, 'X-Forwarded-For': `10.7.6.${i}` },
          body: JSON.stringify({ redirect_uris: [REDIRECT] }),
        });
        statuses.push(res.status);
      }
      expect(statuses.filter((s) => s === 201)).toHaveLength(20);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
