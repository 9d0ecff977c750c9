// The MCP SDK client's own OAuth flow against a real `bun adapters/bun-http.ts` child: discovery from
// the 401, dynamic registration, the consent page driven in Chromium (Playwright) as a signed-in
// person, the redirect to the client's loopback URI, finishAuth, then tools/list and a tool call with
// the token; an expired-looking access token makes the SDK refresh, which rotates the refresh token,
// and reusing the old one revokes the family. What a hosted assistant does, end to end.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'bun';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { parseConfig } from '../../core/index.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { createLoginLink, signIn } from '../../core/web/session.ts';
import { createDatabase, type Database } from '../../db/index.ts';
import { testCounter } from '../helpers.ts';
import { startServer, type ServerProc } from '../../support/procs.ts';

const chromium = '/usr/bin/chromium';
const browserSkip = existsSync(chromium) ? undefined : `${chromium} is absent (apt-get install -y chromium)`;

/** An OAuthClientProvider that keeps everything in memory, as a hosted assistant keeps it in its store. */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(readonly redirect: string) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E Assistant',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return 'e2e-state';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** A free loopback port (the server must know its public URL, so PORT=0 will not do). */
function freePort(): number {
  const s = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

let dir: string;
let server: ServerProc;
let base: string;
let database: Database;
let cookieValue: string;
let callback: Server<undefined>;
let codes: { resolve: (u: URL) => void; promise: Promise<URL> };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bindery-oauth-'));
  const port = freePort();
  base = `http://127.0.0.1:${port}`;
  const env = {
    BINDERY_DB_URL: `file:${join(dir, 'bindery.db')}`,
    BINDERY_PUBLIC_URL: base,
    PORT: String(port),
    BINDERY_TOOL_MODE: 'eager',
  };
  server = await startServer(env);
  expect(server.url).toBe(base);
  // The person signs in to the web app beside the running server (same database file).
  const config = parseConfig(env);
  database = createDatabase({ url: config.dbUrl });
  const deps = { db: database.db, tokens: await testCounter(), config, now: () => Date.now() };
  const alice = await ensureCaller(deps, 'alice');
  const session = await signIn(deps, (await createLoginLink(deps, alice.id)).url.split('/login/')[1]!);
  cookieValue = session!.setCookie.split(';')[0]!.split('=')[1]!;
  // The client's loopback redirect URI: a real listener, as a desktop or CLI client runs.
  codes = Promise.withResolvers<URL>() as typeof codes;
  callback = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      codes.resolve(new URL(req.url));
      return new Response('You can close this window.');
    },
  });
}, 40_000);

afterAll(async () => {
  callback?.stop(true);
  database?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the SDK client connects through OAuth', () => {
  test.skipIf(!!browserSkip)(
    'discovery, registration, consent in Chromium, finishAuth, tools, refresh rotation, reuse revokes the family',
    async () => {
      const redirect = `http://127.0.0.1:${callback.port}/callback`;
      const provider = new MemoryProvider(redirect);
      const mcpUrl = new URL(`${base}/mcp`);

      // 1. Without a token the server answers 401; the SDK discovers, registers and asks us to redirect.
      const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await expect(new Client({ name: 'e2e', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
      expect(provider.info?.client_id).toMatch(/^ocl_/);
      const authUrl = provider.authorizationUrl!;
      expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${base}/authorize`);
      expect(authUrl.searchParams.get('resource')).toBe(`${base}/mcp`);
      expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');

      // 2. The person, signed in, opens it in a browser and clicks Allow.
      const { chromium: pw } = await import('playwright-core');
      const browser = await pw.launch({
        executablePath: chromium,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      let back: URL;
      try {
        const context = await browser.newContext();
        await context.addCookies([{ name: 'bindery_session', value: cookieValue, url: base }]);
        const page = await context.newPage();
        await page.goto(authUrl.href);
        expect(await page.textContent('h1')).toBe('Allow E2E Assistant to use Bindery as @alice?');
        await page.click('#allow');
        back = await Promise.race([codes.promise, Bun.sleep(15_000).then(() => Promise.reject(new Error('no redirect to the callback')))]);
      } finally {
        await browser.close();
      }
      expect(back.pathname).toBe('/callback');
      expect(back.searchParams.get('state')).toBe('e2e-state');
      expect(back.searchParams.get('iss')).toBe(base);
      const code = back.searchParams.get('code')!;
      expect(code).toMatch(/^bdc_/);

      // 3. The client exchanges the code (PKCE verifier), then works with the token.
      await first.finishAuth(code);
      const issued = provider.saved!;
      expect(issued.access_token).toMatch(/^bda_/);
      expect(issued.refresh_token).toMatch(/^bdr_/);
      const client = new Client({ name: 'e2e', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      const tools = await client.listTools();
      expect(tools.tools.length).toBe(29);
      const who = await client.callTool({ name: 'whoami', arguments: {} });
      expect(who.isError).toBeFalsy();
      expect(JSON.stringify(who.structuredContent)).toContain('alice');

      // 4. The access token stops working (as when it expires): the SDK refreshes on the 401 and retries.
      provider.saved = { ...issued, access_token: `bda_${'A'.repeat(43)}` };
      const again = await client.callTool({ name: 'whoami', arguments: {} });
      expect(again.isError).toBeFalsy();
      const rotated = provider.saved!;
      expect(rotated.access_token).not.toBe(issued.access_token);
      expect(rotated.refresh_token).not.toBe(issued.refresh_token);

      // 5. Bad inputs against the real server: the code again, the old refresh token again.
      const post = (fields: Record<string, string>) =>
        fetch(`${base}/token`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields),
        });
      const clientId = provider.info!.client_id;
      const reused = await post({ grant_type: 'refresh_token', refresh_token: issued.refresh_token!, client_id: clientId });
      expect(reused.status).toBe(400);
      expect(((await reused.json()) as { error: string }).error).toBe('invalid_grant');
      const dead = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${rotated.access_token}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(dead.status).toBe(401);
      expect(dead.headers.get('www-authenticate')).toBe(
        `Bearer realm="bindery", resource_metadata="${base}/.well-known/oauth-protected-resource", error="invalid_token"`,
      );
      const replay = await post({
        grant_type: 'authorization_code',
        code,
        code_verifier: provider.verifier,
        redirect_uri: redirect,
        client_id: clientId,
      });
      expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
      await client.close();
    },
    60_000,
  );
});
