import { describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { createTestWorld } from '../helpers.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { pruneWebSessions } from '../../db/store/web-sessions.ts';
import { createLoginLink, csrfOk, loginLinkValid, signIn, signOut, webUser, LOGIN_LINK_TTL_MS } from '../../core/web/session.ts';
import type { BinderyDeps } from '../../core/context.ts';

async function world(publicUrl = 'http://localhost:8787') {
  const w = await createTestWorld({ BINDERY_PUBLIC_URL: publicUrl });
  let clock = Date.UTC(2026, 10, 1);
  const deps: BinderyDeps & { tick(ms: number): void } = {
    db: w.db,
    tokens: w.tokens,
    config: w.config,
    now: () => clock,
    tick: (ms) => void (clock += ms),
  };
  const alice = await ensureCaller(deps, 'alice');
  return { w, deps, alice };
}

const withCookie = (setCookie: string, init: RequestInit = {}) =>
  new Request('http://localhost:8787/', {
    ...init,
    headers: { cookie: setCookie.split(';')[0]!, ...(init.headers as Record<string, string>) },
  });

describe('web sign-in', () => {
  test('a login link signs in once; the cookie finds the person; sign-out ends it at once', async () => {
    const { w, deps, alice } = await world();
    const link = await createLoginLink(deps, alice.id);
    const token = link.url.split('/login/')[1]!;
    expect(link.url.startsWith('http://localhost:8787/login/')).toBe(true);
    expect(await loginLinkValid(deps, token)).toBe(true);
    const first = await signIn(deps, token);
    expect(first?.setCookie).toMatch(/^bindery_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(await signIn(deps, token)).toBeUndefined();
    expect(await loginLinkValid(deps, token)).toBe(false);
    const user = await webUser(deps, withCookie(first!.setCookie));
    expect(user?.caller).toEqual({ id: alice.id, handle: 'alice' });
    // Only hashes are stored.
    const stored = await w.db.all<{ token_hash: string }>(
      sql`SELECT token_hash FROM web_sessions UNION ALL SELECT token_hash FROM login_links`,
    );
    for (const r of stored) expect(first!.setCookie.includes(r.token_hash) || link.url.includes(r.token_hash)).toBe(false);
    const cleared = await signOut(deps, user!);
    expect(cleared).toContain('Max-Age=0');
    expect(await webUser(deps, withCookie(first!.setCookie))).toBeUndefined();
    w.close();
  });

  test('an expired link, a forged token and a malformed cookie sign nobody in', async () => {
    const { w, deps, alice } = await world();
    const link = await createLoginLink(deps, alice.id);
    deps.tick(LOGIN_LINK_TTL_MS + 1);
    expect(await signIn(deps, link.url.split('/login/')[1]!)).toBeUndefined();
    expect(await signIn(deps, 'x'.repeat(43))).toBeUndefined();
    expect(await signIn(deps, '../../etc')).toBeUndefined();
    expect(await webUser(deps, withCookie('bindery_session=not-a-secret'))).toBeUndefined();
    w.close();
  });

  test('two racing uses of one link: exactly one session', async () => {
    const { w, deps, alice } = await world();
    const token = (await createLoginLink(deps, alice.id)).url.split('/login/')[1]!;
    const results = await Promise.all(Array.from({ length: 8 }, () => signIn(deps, token)));
    expect(results.filter(Boolean)).toHaveLength(1);
    w.close();
  });

  test('CSRF: the session secret and our own Origin are both required', async () => {
    const { w, deps, alice } = await world();
    const signed = await signIn(deps, (await createLoginLink(deps, alice.id)).url.split('/login/')[1]!);
    const user = (await webUser(deps, withCookie(signed!.setCookie)))!;
    const post = (origin?: string) => withCookie(signed!.setCookie, { method: 'POST', headers: origin ? { origin } : {} });
    expect(csrfOk(deps, post('http://localhost:8787'), user, user.csrf)).toBe(true);
    expect(csrfOk(deps, post('http://localhost:8787'), user, 'wrong')).toBe(false);
    expect(csrfOk(deps, post('http://localhost:8787'), user, undefined)).toBe(false);
    expect(csrfOk(deps, post('https://evil.example'), user, user.csrf)).toBe(false);
    expect(csrfOk(deps, post(), user, user.csrf)).toBe(false);
    w.close();
  });

  test('over https the cookie is __Host- prefixed and Secure', async () => {
    const { w, deps, alice } = await world('https://kb.example.com');
    const signed = await signIn(deps, (await createLoginLink(deps, alice.id)).url.split('/login/')[1]!);
    expect(signed!.setCookie).toMatch(/^__Host-bindery_session=.*; Secure$/);
    expect(
      await webUser(deps, new Request('https://kb.example.com/', { headers: { cookie: signed!.setCookie.split(';')[0]! } })),
    ).toBeDefined();
    w.close();
  });

  test('upkeep prunes ended sign-ins and stale links, and keeps live ones', async () => {
    const { w, deps, alice } = await world();
    const live = await signIn(deps, (await createLoginLink(deps, alice.id)).url.split('/login/')[1]!);
    const ended = await signIn(deps, (await createLoginLink(deps, alice.id)).url.split('/login/')[1]!);
    await signOut(deps, (await webUser(deps, withCookie(ended!.setCookie)))!);
    await createLoginLink(deps, alice.id);
    deps.tick(LOGIN_LINK_TTL_MS + 1);
    await pruneWebSessions(w.db, deps.now());
    const count = async (table: string) => Number((await w.db.all<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM ${table}`)))[0]!.n);
    expect(await count('web_sessions')).toBe(1);
    expect(await count('login_links')).toBe(0);
    expect(await webUser(deps, withCookie(live!.setCookie))).toBeDefined();
    w.close();
  });
});
