// Registration took redirect URIs whose scheme launches a browser on another URL
// (`microsoft-edge:https://…`), and the consent page then showed an empty destination. The rule is now
// an allow rule (https; http only on loopback; a native app's reverse-domain scheme, RFC 8252 §7.1),
// and the consent page always shows the full redirect target.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { insertOAuthClient } from '../../db/store/oauth.ts';
import { redirectUriProblem } from '../../core/oauth/redirect-uri.ts';
import { authorizeQuery, errorOf, oauthWorld, pkce, type OAuthWorld } from './world.ts';

let w: OAuthWorld;
beforeAll(async () => {
  w = await oauthWorld();
});
afterAll(() => w.close());

const REFUSED = [
  'microsoft-edge:https://evil.example/steal',
  'microsoft-edge-https://evil.example/',
  'googlechrome://evil.example/x',
  'googlechromes://evil.example/x',
  'firefox:https://evil.example/',
  'firefox-focus://open-url?url=https://evil.example',
  'opera-http://evil.example/',
  'brave://open-url?url=https://evil.example',
  'x-safari-https://evil.example/',
  'intent://evil.example/#Intent;scheme=https;end',
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'data:text/html,hi',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  'blob:https://evil.example/uuid',
  'about:blank',
  'ftp://evil.example/',
  'ws://127.0.0.1/cb',
  'mailto:someone@example.com',
  'shell:startup',
  'myapp:/callback',
  'http://evil.example/cb',
  'http://127.0.0.1.evil.example/cb',
  '.bad.scheme:/cb',
];
const ACCEPTED = [
  'https://app.example/cb',
  'http://127.0.0.1:53682/callback',
  'http://[::1]:8080/cb',
  'http://localhost/cb',
  'com.example.app:/oauth2redirect',
  'dev.bindery.desktop://callback',
  'cursor://anysphere.cursor-mcp/oauth/callback',
];

const registerBody = (uris: string[]) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ redirect_uris: uris, client_name: 'Scheme test' }),
});

describe('redirect URI schemes (RFC 8252 §7.1, §7.3; RFC 9700 §4.1)', () => {
  test('schemes that open a browser, run script or read files are refused, naming the field', () => {
    for (const uri of REFUSED) expect(redirectUriProblem(uri), uri).toBeString();
    for (const uri of ACCEPTED) expect(redirectUriProblem(uri), uri).toBeUndefined();
  });

  test('POST /register refuses them with invalid_redirect_uri', async () => {
    for (const uri of [
      'microsoft-edge:https://evil.example/steal',
      'googlechrome://evil.example/x',
      'intent://x#Intent;end',
      'myapp:/cb',
    ]) {
      const res = await w.fetch('/register', registerBody(['https://app.example/cb', uri]));
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body.error).toBe('invalid_redirect_uri');
      expect(body.error_description).toStartWith('redirect_uris[1]:');
    }
  });

  test('the consent page shows the full redirect target, whatever its scheme', async () => {
    for (const uri of ['com.example.app:/oauth2redirect', 'https://app.example/cb?tenant=a&x=1', 'http://127.0.0.1:53682/callback']) {
      const res = await w.fetch('/register', registerBody([uri]));
      expect(res.status).toBe(201);
      const id = ((await res.json()) as { client_id: string }).client_id;
      const { challenge } = await pkce();
      const page = await w.fetch(`/authorize?${authorizeQuery(id, challenge, { redirect_uri: uri })}`, { headers: { cookie: w.cookie } });
      expect(page.status).toBe(200);
      const html = await page.text();
      const shown = /<code id="redirect-target">([^<]*)<\/code>/.exec(html)?.[1];
      expect(shown?.replace(/&amp;/g, '&')).toBe(uri);
    }
  });

  test('a client stored before the rule with a browser scheme gets an error page, never the consent page', async () => {
    const uri = 'microsoft-edge:https://evil.example/steal';
    await insertOAuthClient(w.database.db, {
      id: 'ocl_legacyedge000001',
      name: 'Old',
      redirectUris: JSON.stringify([uri]),
      metadata: '{}',
      createdAt: Date.now(),
    });
    const { challenge } = await pkce();
    const page = await w.fetch(`/authorize?${authorizeQuery('ocl_legacyedge000001', challenge, { redirect_uri: uri })}`, {
      headers: { cookie: w.cookie },
    });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
    expect(await page.text()).not.toContain('name="decision"');
  });

  test('refusals keep the RFC 7591 error shape', async () => {
    expect(await errorOf(await w.fetch('/register', registerBody(['javascript:alert(1)'])))).toBe('invalid_redirect_uri');
  });
});
