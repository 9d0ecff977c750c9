// An in-process HTTP app (the same core/http + core/oauth code every adapter mounts) on a migrated
// in-memory database, with a clock the test moves, a signed-in browser session for alice, and the steps
// of the OAuth dance as helpers, so each refusal can be checked against the RFC's error.
import { expect } from 'bun:test';
import { createHttpApp, type HttpApp, type HttpAppOptions } from '../../core/http/app.ts';
import { parseConfig } from '../../core/index.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { createLoginLink, signIn } from '../../core/web/session.ts';
import type { BinderyDeps, Caller } from '../../core/context.ts';
import { b64url } from '../../core/encoding.ts';
import { createDatabase, migrate, type Database } from '../../db/index.ts';
import { testCounter } from '../helpers.ts';

export const BASE = 'http://localhost:8787';
export const RESOURCE = `${BASE}/mcp`;
export const REDIRECT = 'http://127.0.0.1:53682/callback';

export interface OAuthWorld {
  app: HttpApp;
  deps: BinderyDeps;
  database: Database;
  alice: Caller;
  /** alice's web session cookie (`name=value`). */
  cookie: string;
  /** Moves the clock; past a web session's idle limit alice signs in again (a new cookie). */
  tick(ms: number): Promise<void>;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** The world on `url` (default an in-memory database; a `file:` URL for races against a real file). */
export async function oauthWorld(url = ':memory:', appOptions: Omit<HttpAppOptions, 'deps'> = {}): Promise<OAuthWorld> {
  const config = parseConfig({ BINDERY_DB_URL: url, BINDERY_TOOL_MODE: 'eager', BINDERY_PUBLIC_URL: BASE });
  const database = createDatabase({ url: config.dbUrl });
  await migrate(database.db);
  let clock = Date.now();
  const deps: BinderyDeps = {
    db: database.db,
    tokens: await testCounter(),
    config,
    now: () => clock,
  };
  const alice = await ensureCaller(deps, 'alice');
  const link = await createLoginLink(deps, alice.id);
  const session = await signIn(deps, link.url.split('/login/')[1]!);
  const app = createHttpApp({ deps, ...appOptions });
  const world: OAuthWorld = {
    app,
    deps,
    database,
    alice,
    cookie: session!.setCookie.split(';')[0]!,
    async tick(ms) {
      clock += ms;
      const again = await signIn(deps, (await createLoginLink(deps, alice.id)).url.split('/login/')[1]!);
      world.cookie = again!.setCookie.split(';')[0]!;
    },
    fetch: (path, init) => app.fetch(new Request(`${BASE}${path}`, init)),
    async close() {
      await app.close();
      database.close();
    },
  };
  return world;
}

/** A PKCE pair (RFC 7636): a random verifier and its S256 challenge. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

export const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/** Registers a public client; returns its id. */
export async function register(w: OAuthWorld, redirectUris = [REDIRECT], name = 'Test Assistant'): Promise<string> {
  const res = await w.fetch('/register', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ redirect_uris: redirectUris, client_name: name, token_endpoint_auth_method: 'none' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

export function authorizeQuery(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: RESOURCE,
    state: 'st-123',
    ...extra,
  }).toString();
}

/** GET /authorize as signed-in alice, then POST the decision with the page's CSRF secret; returns the redirect. */
export async function consent(w: OAuthWorld, query: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const page = await w.fetch(`/authorize?${query}`, { headers: { cookie: w.cookie } });
  expect(page.status).toBe(200);
  const html = await page.text();
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"'),
    ]),
  );
  expect(fields.csrf).toBeString();
  const res = await w.fetch('/authorize', {
    ...form({ ...fields, decision }),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', cookie: w.cookie, origin: BASE },
  });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location')!);
}

/** The whole dance: a code, exchanged; returns the token response and the PKCE pair used. */
export async function grant(
  w: OAuthWorld,
  clientId: string,
): Promise<{ access_token: string; refresh_token: string; expires_in: number; code: string; verifier: string }> {
  const { verifier, challenge } = await pkce();
  const back = await consent(w, authorizeQuery(clientId, challenge));
  const code = back.searchParams.get('code')!;
  const res = await w.fetch(
    '/token',
    form({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
      resource: RESOURCE,
    }),
  );
  expect(res.status).toBe(200);
  return { ...((await res.json()) as { access_token: string; refresh_token: string; expires_in: number }), code, verifier };
}

/** POST /mcp initialize with a bearer token: the status (200 when the token is accepted). */
export async function mcpStatus(w: OAuthWorld, token: string): Promise<Response> {
  return w.fetch('/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
}

/** The error code of an OAuth error response. */
export async function errorOf(res: Response): Promise<string> {
  return ((await res.json()) as { error: string }).error;
}
