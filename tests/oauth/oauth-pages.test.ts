// Every OAuth page rendered with hostile input (a client name, redirect URI, scope and state holding
// <script>, quotes and &): each value reaches the page escaped, never as markup or a broken attribute,
// and every page carries the security headers and the stylesheet shared with the web app.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { securityHeaders } from '../../core/web/page-headers.ts';
import { authorizeQuery, BASE, form, oauthWorld, pkce, RESOURCE, type OAuthWorld } from './world.ts';

const HOSTILE = `Evil "App" <script>alert('x')</script> & co`;
const HOSTILE_URI = `https://evil.example/cb?q="><script>alert('u')</script>&x='1'`;
const HOSTILE_SCOPE = `read "all" <script>alert('s')</script> & more`;
const escaped = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

let w: OAuthWorld;
let clientId: string;
let query: string;
let verifier: string;

beforeAll(async () => {
  w = await oauthWorld();
  const res = await w.fetch('/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [HOSTILE_URI], client_name: HOSTILE, token_endpoint_auth_method: 'none' }),
  });
  expect(res.status).toBe(201);
  clientId = ((await res.json()) as { client_id: string }).client_id;
  const pair = await pkce();
  verifier = pair.verifier;
  const challenge = pair.challenge;
  query = authorizeQuery(clientId, challenge, { redirect_uri: HOSTILE_URI, scope: HOSTILE_SCOPE, state: `"'<s>&` });
});
afterAll(() => w.close());

/** The page's text, after checking what every OAuth page must carry. */
async function oauthPage(res: Response, status: number): Promise<string> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  for (const [name, value] of Object.entries(securityHeaders('oauth')))
    expect({ name, value: res.headers.get(name) }).toEqual({ name, value });
  const csp = res.headers.get('content-security-policy')!;
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('script-src');
  expect(csp).not.toContain('unsafe-inline');
  const html = await res.text();
  expect(html).toContain('<link rel="stylesheet" href="/web/app.css">');
  expect(html).not.toContain('<style');
  expect(html).not.toContain(' style="');
  expect(html).not.toMatch(/<script/i);
  // Every attribute value is one quoted run without a stray quote or angle bracket in it.
  for (const tag of html.match(/<[a-z][^>]*>/g) ?? []) expect(tag).toMatch(/^<[a-z0-9]+(?: [a-z-]+(?:="[^"<>]*")?)*>$/);
  return html;
}

describe('OAuth pages with hostile input', () => {
  test('the consent page: client name, redirect URI, scope and state escaped in text and in hidden fields', async () => {
    const html = await oauthPage(await w.fetch(`/authorize?${query}`, { headers: { cookie: w.cookie } }), 200);
    expect(html).toContain(`<span id="client-name">${escaped(HOSTILE)}</span>`);
    expect(html).toContain(`<code id="redirect-target">${escaped(HOSTILE_URI)}</code>`);
    expect(html).toContain(`<title>Allow ${escaped(HOSTILE)}? · Bindery</title>`);
    expect(html).toContain(`<input type="hidden" name="redirect_uri" value="${escaped(HOSTILE_URI)}">`);
    expect(html).toContain(`<input type="hidden" name="scope" value="${escaped(HOSTILE_SCOPE)}">`);
    expect(html).toContain(`<input type="hidden" name="state" value="${escaped(`"'<s>&`)}">`);
  });

  test('the sign-in page: client name and the link back escaped', async () => {
    const html = await oauthPage(await w.fetch(`/authorize?${query}`), 200);
    expect(html).toContain(`<strong>${escaped(HOSTILE)}</strong>`);
    expect(html).toContain(`<a href="${escaped(`${BASE}/authorize?${query}`)}" id="continue">`);
  });

  test('the expired-form page: the link back to the request escaped', async () => {
    const res = await w.fetch('/authorize', {
      ...form({
        client_id: clientId,
        redirect_uri: HOSTILE_URI,
        response_type: 'code',
        code_challenge: (await pkce()).challenge,
        code_challenge_method: 'S256',
        resource: RESOURCE,
        scope: HOSTILE_SCOPE,
        csrf: 'not-the-secret',
        decision: 'allow',
      }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', cookie: w.cookie, origin: BASE },
    });
    const html = await oauthPage(res, 403);
    expect(html).toContain('That form has expired');
    const back = /<a href="([^"]+)">Open the request again<\/a>/.exec(html)![1]!;
    expect(new URLSearchParams(back.replace(/&amp;/g, '&').split('?')[1]).get('scope')).toBe(HOSTILE_SCOPE);
  });

  test('the error page (an unregistered redirect URI) and the connected-apps page', async () => {
    const unregistered = new URLSearchParams(query);
    unregistered.set('redirect_uri', `${HOSTILE_URI}"<x>`);
    const bad = await w.fetch(`/authorize?${unregistered}`);
    expect(await oauthPage(bad, 400)).toContain('redirect_uri is not one this app registered.');
    // The client is listed once alice allowed it and it took its tokens; its name is escaped there too.
    const page = await w.fetch(`/authorize?${query}`, { headers: { cookie: w.cookie } });
    const fields = Object.fromEntries(
      [...(await page.text()).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
        m[1]!,
        m[2]!
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&amp;/g, '&'),
      ]),
    );
    const allowed = await w.fetch('/authorize', {
      ...form({ ...fields, decision: 'allow' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', cookie: w.cookie, origin: BASE },
    });
    expect(allowed.status).toBe(303);
    const code = new URL(allowed.headers.get('location')!).searchParams.get('code')!;
    const tokens = await w.fetch(
      '/token',
      form({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: HOSTILE_URI,
        client_id: clientId,
        resource: RESOURCE,
      }),
    );
    expect(tokens.status).toBe(200);
    const grants = await oauthPage(await w.fetch('/oauth/grants', { headers: { cookie: w.cookie } }), 200);
    expect(grants).toContain(`<strong>${escaped(HOSTILE)}</strong>`);
    await oauthPage(await w.fetch('/oauth/grants'), 401);
  });

  test('the web app sends the same framing, sniffing and referrer headers', async () => {
    const home = await w.fetch('/', { headers: { cookie: w.cookie } });
    expect(home.status).toBe(200);
    const shared = securityHeaders('oauth');
    for (const name of ['X-Content-Type-Options', 'Referrer-Policy', 'X-Frame-Options'])
      expect({ name, value: home.headers.get(name) }).toEqual({ name, value: shared[name]! });
    expect(home.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await home.text()).toContain('<link rel="stylesheet" href="/web/app.css">');
  });
});
