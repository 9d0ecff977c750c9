// OAuth 2.1 for hosted MCP clients (docs/http-and-oauth.md), in process: metadata, registration, consent, the
// token endpoint and revocation, each refusal checked against the RFC's error code, with a clock the
// test moves for expiry. The SDK client's own flow against a real server is oauth-e2e.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema, OAuthTokensSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createApiKey } from '../../core/http/auth.ts';
import { issueTokens, ACCESS_TTL_MS, CODE_TTL_MS, REFRESH_TTL_MS } from '../../core/oauth/tokens.ts';
import {
  authorizeQuery,
  BASE,
  consent,
  errorOf,
  form,
  grant,
  mcpStatus,
  oauthWorld,
  pkce,
  REDIRECT,
  register,
  RESOURCE,
  type OAuthWorld,
} from './world.ts';

let w: OAuthWorld;
let clientId: string;

beforeAll(async () => {
  w = await oauthWorld();
  clientId = await register(w);
});
afterAll(() => w.close());

describe('discovery', () => {
  test('protected resource metadata at the root and path-suffixed well-known URLs', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await w.fetch(path);
      expect(res.status).toBe(200);
      const meta = OAuthProtectedResourceMetadataSchema.parse(await res.json());
      expect(meta.resource).toBe(RESOURCE);
      expect(meta.authorization_servers).toEqual([BASE]);
    }
  });

  test('authorization server metadata: code + PKCE S256, public clients, registration and revocation', async () => {
    const meta = OAuthMetadataSchema.parse(await (await w.fetch('/.well-known/oauth-authorization-server')).json());
    expect(meta.issuer).toBe(BASE);
    expect(meta.authorization_endpoint).toBe(`${BASE}/authorize`);
    expect(meta.token_endpoint).toBe(`${BASE}/token`);
    expect(meta.registration_endpoint).toBe(`${BASE}/register`);
    expect(meta.revocation_endpoint).toBe(`${BASE}/revoke`);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.token_endpoint_auth_methods_supported).toEqual(['none']);
    expect(meta.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
  });

  test('CORS for browser-based clients on metadata, register and token (any origin, no credentials)', async () => {
    const origin = 'https://assistant.example';
    const meta = await w.fetch('/.well-known/oauth-authorization-server', { headers: { origin } });
    expect(meta.status).toBe(200);
    expect(meta.headers.get('access-control-allow-origin')).toBe('*');
    const pre = await w.fetch('/token', {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
    const reg = await w.fetch('/register', {
      method: 'POST',
      headers: { origin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['https://assistant.example/cb'] }),
    });
    expect(reg.status).toBe(201);
    expect(reg.headers.get('access-control-allow-origin')).toBe('*');
    // The consent page is not CORS-open, and a foreign Origin may not POST to it.
    const post = await w.fetch('/authorize', {
      ...form({ client_id: clientId }),
      headers: { origin, cookie: w.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(post.status).toBe(403);
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('a 401 from /mcp names the resource metadata; a bad token keeps error="invalid_token"', async () => {
    const none = await w.fetch('/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(
      `Bearer realm="bindery", resource_metadata="${BASE}/.well-known/oauth-protected-resource"`,
    );
    const bad = await mcpStatus(w, `bda_${'A'.repeat(43)}`);
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe(
      `Bearer realm="bindery", resource_metadata="${BASE}/.well-known/oauth-protected-resource", error="invalid_token"`,
    );
  });
});

describe('registration (RFC 7591)', () => {
  test('a public client is registered with token_endpoint_auth_method none and no secret', async () => {
    const res = await w.fetch('/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT, 'https://app.example/cb'], client_name: 'Hosted' }),
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.client_id).toMatch(/^ocl_/);
    expect(body.client_secret).toBeUndefined();
    expect(body.token_endpoint_auth_method).toBe('none');
    expect(body.redirect_uris).toEqual([REDIRECT, 'https://app.example/cb']);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  test('bad metadata is refused with invalid_redirect_uri or invalid_client_metadata', async () => {
    const cases: [unknown, string][] = [
      [{ redirect_uris: ['http://evil.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['data:text/html,hi'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['file:///etc/passwd'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['wss://app.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example/cb#frag'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [] }, 'invalid_redirect_uri'],
      [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/${i}`) }, 'invalid_redirect_uri'],
      [{ redirect_uris: [`https://app.example/${'x'.repeat(2100)}`] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      [{ redirect_uris: [REDIRECT], response_types: ['token'] }, 'invalid_client_metadata'],
      ['not an object', 'invalid_client_metadata'],
    ];
    for (const [body, error] of cases) {
      const res = await w.fetch('/register', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toBe(error);
    }
    // Native apps' own schemes (RFC 8252 §7.1), as Cursor registers, are accepted.
    for (const uri of ['cursor://anysphere.cursor-mcp/oauth/callback', 'com.example.app:/cb']) {
      const res = await w.fetch('/register', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [uri] }),
      });
      expect(res.status).toBe(201);
    }
    const huge = await w.fetch('/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'x'.repeat(20_000) }),
    });
    expect(huge.status).toBe(413);
  });
});

describe('authorization endpoint', () => {
  test('not signed in: a page that says how to sign in, links to / and back', async () => {
    const { challenge } = await pkce();
    const res = await w.fetch(`/authorize?${authorizeQuery(clientId, challenge)}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Sign in to Bindery first');
    expect(html).toContain('href="/"');
    expect(html).toContain(`href="${BASE}/authorize?`);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  test('signed in: "Allow <client> to use Bindery as @alice?"', async () => {
    const { challenge } = await pkce();
    const html = await (await w.fetch(`/authorize?${authorizeQuery(clientId, challenge)}`, { headers: { cookie: w.cookie } })).text();
    expect(html).toContain('Allow <span id="client-name">Test Assistant</span> to use Bindery as <span id="handle">@alice</span>?');
  });

  test('an unknown client or an unregistered redirect URI is shown on a page, never redirected to', async () => {
    const { challenge } = await pkce();
    for (const q of [
      authorizeQuery('ocl_0000000000000000', challenge),
      authorizeQuery(clientId, challenge, { redirect_uri: 'http://127.0.0.1:53682/other' }),
      authorizeQuery(clientId, challenge, { redirect_uri: 'https://evil.example/cb' }),
    ]) {
      const res = await w.fetch(`/authorize?${q}`, { headers: { cookie: w.cookie } });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('cannot be authorized');
    }
  });

  test('bad parameters go back to the registered URI with the RFC error and the state', async () => {
    const { challenge } = await pkce();
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge: '' }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ resource: 'https://other.example/mcp' }, 'invalid_target'],
    ];
    for (const [extra, error] of cases) {
      const res = await w.fetch(`/authorize?${authorizeQuery(clientId, challenge, extra)}`, { headers: { cookie: w.cookie } });
      expect(res.status).toBe(303);
      const to = new URL(res.headers.get('location')!);
      expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
      expect(to.searchParams.get('error')).toBe(error);
      expect(to.searchParams.get('state')).toBe('st-123');
      expect(to.searchParams.get('iss')).toBe(BASE);
    }
  });

  test('Deny: redirect with error=access_denied and the state; no code', async () => {
    const { challenge } = await pkce();
    const back = await consent(w, authorizeQuery(clientId, challenge), 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st-123');
    expect(back.searchParams.get('code')).toBeNull();
  });

  test('Allow without the CSRF secret, or from another origin, is refused', async () => {
    const { challenge } = await pkce();
    const fields = Object.fromEntries(new URLSearchParams(authorizeQuery(clientId, challenge)));
    const noCsrf = await w.fetch('/authorize', {
      ...form({ ...fields, decision: 'allow' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', cookie: w.cookie, origin: BASE },
    });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.headers.get('location')).toBeNull();
    const noOrigin = await w.fetch('/authorize', {
      ...form({ ...fields, decision: 'allow', csrf: 'x'.repeat(43) }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', cookie: w.cookie },
    });
    expect(noOrigin.status).toBe(403);
  });
});

describe('token endpoint', () => {
  test('the code grant: tokens in the RFC 6749 shape, the access token opens /mcp, static keys still do', async () => {
    const t = await grant(w, clientId);
    expect(OAuthTokensSchema.parse(t).token_type).toBe('Bearer');
    expect(t.access_token).toMatch(/^bda_/);
    expect(t.refresh_token).toMatch(/^bdr_/);
    expect(t.expires_in).toBe(ACCESS_TTL_MS / 1000);
    expect((await mcpStatus(w, t.access_token)).status).toBe(200);
    const key = await createApiKey(w.database.db, w.alice.id, Date.now());
    expect((await mcpStatus(w, key.key)).status).toBe(200);
    // Bound to the MCP resource: the REST API does not take it.
    expect((await w.fetch('/api/me', { headers: { Authorization: `Bearer ${t.access_token}` } })).status).toBe(401);
    // Only hashes are stored.
    const rows = await w.database.db.all<{ token_hash: string }>(
      sql`SELECT token_hash FROM oauth_tokens UNION ALL SELECT code_hash FROM oauth_codes`,
    );
    for (const r of rows)
      expect([t.access_token, t.refresh_token, t.code].some((s) => s.includes(r.token_hash) || r.token_hash.includes(s))).toBe(false);
  });

  test('wrong redirect URI, missing or wrong PKCE verifier: each refused with its error', async () => {
    const code = async () => {
      const { verifier, challenge } = await pkce();
      return { verifier, code: (await consent(w, authorizeQuery(clientId, challenge))).searchParams.get('code')! };
    };
    const a = await code();
    const wrongRedirect = await w.fetch(
      '/token',
      form({
        grant_type: 'authorization_code',
        code: a.code,
        code_verifier: a.verifier,
        redirect_uri: 'http://127.0.0.1:53682/other',
        client_id: clientId,
      }),
    );
    expect(wrongRedirect.status).toBe(400);
    expect(await errorOf(wrongRedirect)).toBe('invalid_grant');
    const b = await code();
    const missing = await w.fetch(
      '/token',
      form({ grant_type: 'authorization_code', code: b.code, redirect_uri: REDIRECT, client_id: clientId }),
    );
    expect(await errorOf(missing)).toBe('invalid_request');
    const wrong = await w.fetch(
      '/token',
      form({
        grant_type: 'authorization_code',
        code: b.code,
        code_verifier: (await pkce()).verifier,
        redirect_uri: REDIRECT,
        client_id: clientId,
      }),
    );
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toBe('invalid_grant');
    // The code was spent by the wrong try: the right verifier no longer helps.
    const late = await w.fetch(
      '/token',
      form({ grant_type: 'authorization_code', code: b.code, code_verifier: b.verifier, redirect_uri: REDIRECT, client_id: clientId }),
    );
    expect(await errorOf(late)).toBe('invalid_grant');
    const c = await code();
    const shortVerifier = await w.fetch(
      '/token',
      form({ grant_type: 'authorization_code', code: c.code, code_verifier: 'abc', redirect_uri: REDIRECT, client_id: clientId }),
    );
    expect(await errorOf(shortVerifier)).toBe('invalid_request');
  });

  test('a replayed code is refused and revokes the tokens issued from it', async () => {
    const t = await grant(w, clientId);
    expect((await mcpStatus(w, t.access_token)).status).toBe(200);
    const replay = await w.fetch(
      '/token',
      form({ grant_type: 'authorization_code', code: t.code, code_verifier: t.verifier, redirect_uri: REDIRECT, client_id: clientId }),
    );
    expect(replay.status).toBe(400);
    expect(await errorOf(replay)).toBe('invalid_grant');
    const after = await mcpStatus(w, t.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(
      await errorOf(await w.fetch('/token', form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: clientId }))),
    ).toBe('invalid_grant');
  });

  test('an expired code, an expired access token, a token for another resource', async () => {
    const { verifier, challenge } = await pkce();
    const code = (await consent(w, authorizeQuery(clientId, challenge))).searchParams.get('code')!;
    await w.tick(CODE_TTL_MS + 1);
    expect(
      await errorOf(
        await w.fetch(
          '/token',
          form({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId }),
        ),
      ),
    ).toBe('invalid_grant');
    const t = await grant(w, clientId);
    expect((await mcpStatus(w, t.access_token)).status).toBe(200);
    await w.tick(ACCESS_TTL_MS + 1);
    const expired = await mcpStatus(w, t.access_token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // The refresh token outlives it and brings a fresh one.
    const refreshed = await w.fetch('/token', form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: clientId }));
    expect(refreshed.status).toBe(200);
    expect((await mcpStatus(w, ((await refreshed.json()) as { access_token: string }).access_token)).status).toBe(200);
    // A token bound to another resource (as if minted for another server) does not open this /mcp.
    const other = await issueTokens(
      w.database.db,
      { familyId: 'fam_other', clientId, userId: w.alice.id, resource: 'https://other.example/mcp', scope: null },
      Date.now() + ACCESS_TTL_MS * 2,
    );
    expect((await mcpStatus(w, other.access_token)).status).toBe(401);
    // And the token endpoint will not mint one for another resource.
    const t2 = await grant(w, clientId);
    const wrongTarget = await w.fetch(
      '/token',
      form({ grant_type: 'refresh_token', refresh_token: t2.refresh_token, client_id: clientId, resource: 'https://other.example/mcp' }),
    );
    expect(await errorOf(wrongTarget)).toBe('invalid_target');
    await w.tick(REFRESH_TTL_MS + 1);
    expect(
      await errorOf(await w.fetch('/token', form({ grant_type: 'refresh_token', refresh_token: t2.refresh_token, client_id: clientId }))),
    ).toBe('invalid_grant');
  });

  test('refresh rotates; reusing a used refresh token revokes the whole family', async () => {
    const t = await grant(w, clientId);
    const r1 = await w.fetch(
      '/token',
      form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: clientId, resource: RESOURCE }),
    );
    expect(r1.status).toBe(200);
    const n1 = (await r1.json()) as { access_token: string; refresh_token: string };
    expect(n1.refresh_token).not.toBe(t.refresh_token);
    expect(n1.access_token).not.toBe(t.access_token);
    expect((await mcpStatus(w, n1.access_token)).status).toBe(200);
    const reuse = await w.fetch('/token', form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: clientId }));
    expect(reuse.status).toBe(400);
    expect(await errorOf(reuse)).toBe('invalid_grant');
    // Everything of the family is gone: the new access token and the new refresh token too.
    expect((await mcpStatus(w, n1.access_token)).status).toBe(401);
    expect(
      await errorOf(await w.fetch('/token', form({ grant_type: 'refresh_token', refresh_token: n1.refresh_token, client_id: clientId }))),
    ).toBe('invalid_grant');
  });

  test('client and grant type errors: invalid_client (401), unsupported_grant_type, invalid_request', async () => {
    const unknown = await w.fetch('/token', form({ grant_type: 'authorization_code', code: 'x', client_id: 'ocl_0000000000000000' }));
    expect(unknown.status).toBe(401);
    expect(await errorOf(unknown)).toBe('invalid_client');
    expect(await errorOf(await w.fetch('/token', form({ grant_type: 'password', client_id: clientId })))).toBe('unsupported_grant_type');
    expect(await errorOf(await w.fetch('/token', form({ client_id: clientId })))).toBe('invalid_request');
    const json = await w.fetch('/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token' }),
    });
    expect(await errorOf(json)).toBe('invalid_request');
    // Another client cannot use this client's refresh token.
    const t = await grant(w, clientId);
    const thief = await register(w, [REDIRECT], 'Thief');
    expect(
      await errorOf(await w.fetch('/token', form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: thief }))),
    ).toBe('invalid_grant');
  });
});

describe('revocation', () => {
  test('RFC 7009: revoking the access token ends it; revoking the refresh token ends the grant; unknown tokens answer 200', async () => {
    const t = await grant(w, clientId);
    expect((await w.fetch('/revoke', form({ token: t.access_token, client_id: clientId }))).status).toBe(200);
    expect((await mcpStatus(w, t.access_token)).status).toBe(401);
    const r = (await (
      await w.fetch('/token', form({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: clientId }))
    ).json()) as { access_token: string; refresh_token: string };
    expect((await mcpStatus(w, r.access_token)).status).toBe(200);
    expect((await w.fetch('/revoke', form({ token: r.refresh_token, client_id: clientId, token_type_hint: 'refresh_token' }))).status).toBe(
      200,
    );
    expect((await mcpStatus(w, r.access_token)).status).toBe(401);
    expect((await w.fetch('/revoke', form({ token: `bda_${'Z'.repeat(43)}`, client_id: clientId }))).status).toBe(200);
    expect(await errorOf(await w.fetch('/revoke', form({ token: r.access_token })))).toBe('invalid_client');
  });

  test("the grants page lists the person's connected apps and revokes one at once", async () => {
    const t = await grant(w, clientId);
    const page = await w.fetch('/oauth/grants', { headers: { cookie: w.cookie } });
    const html = await page.text();
    expect(html).toContain('Apps using Bindery as @alice');
    expect(html).toContain('Test Assistant');
    const family = /name="family" value="([^"]+)"/.exec(html)![1]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
    const forged = await w.fetch('/oauth/grants', {
      ...form({ family, csrf: 'x'.repeat(43) }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', cookie: w.cookie, origin: BASE },
    });
    expect(forged.status).toBe(403);
    // Revoke every listed grant (earlier tests left some), then the token is dead.
    for (const m of html.matchAll(/name="family" value="([^"]+)"/g)) {
      const res = await w.fetch('/oauth/grants', {
        ...form({ family: m[1]!, csrf }),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', cookie: w.cookie, origin: BASE },
      });
      expect(res.status).toBe(303);
    }
    expect((await mcpStatus(w, t.access_token)).status).toBe(401);
    expect(await (await w.fetch('/oauth/grants', { headers: { cookie: w.cookie } })).text()).toContain('No app is connected.');
  });
});
