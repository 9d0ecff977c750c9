import { getOAuthClient, type OAuthClientRow } from '../services/oauth.ts';
import type { BinderyDeps } from '../context.ts';
import { redirectUriProblem } from './redirect-uri.ts';
import { CHALLENGE_RE } from './tokens.ts';
import { issuer, mcpResource } from './urls.ts';
import type { OAuthErrorCode } from './wire.ts';

// Checking an authorization request (RFC 6749 §4.1.1 with OAuth 2.1's PKCE rule, RFC 8707's
// resource). The order matters: until the client and its redirect URI are known good, errors are
// shown on a page, never redirected (§4.1.2.1), so this server cannot be made an open redirector.

export const AUTHORIZE_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'resource',
  'scope',
  'state',
] as const;

export interface AuthorizeRequest {
  client: OAuthClientRow;
  clientName: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scope: string | null;
  state: string | null;
}

export type AuthorizeCheck =
  | { kind: 'ok'; request: AuthorizeRequest }
  /** Shown as a page: the redirect target is unknown or unregistered. */
  | { kind: 'page'; status: number; message: string }
  /** Sent back to the client's registered redirect URI. */
  | { kind: 'redirect'; location: string };

const MAX_STATE = 2000;
const MAX_SCOPE = 1000;

/** Validates the parameters of GET or POST /authorize. */
export async function checkAuthorizeRequest(deps: BinderyDeps, params: URLSearchParams): Promise<AuthorizeCheck> {
  const one = (name: string) => params.get(name);
  const clientId = one('client_id');
  if (!clientId) return { kind: 'page', status: 400, message: 'client_id is missing.' };
  for (const name of AUTHORIZE_PARAMS)
    if (params.getAll(name).length > 1) return { kind: 'page', status: 400, message: `${name} was sent more than once.` };
  const client = clientId.length <= 40 ? await getOAuthClient(deps.db, clientId) : undefined;
  if (!client) return { kind: 'page', status: 400, message: 'This app is not registered with Bindery (unknown client_id).' };
  const registered = JSON.parse(client.redirectUris) as string[];
  const sent = one('redirect_uri');
  // Exact string match (OAuth 2.1 §4.1.1); omitted only when the client registered exactly one.
  const redirectUri = sent ?? (registered.length === 1 ? registered[0]! : undefined);
  if (!redirectUri) return { kind: 'page', status: 400, message: 'redirect_uri is missing and this app registered more than one.' };
  if (!registered.includes(redirectUri)) return { kind: 'page', status: 400, message: 'redirect_uri is not one this app registered.' };
  // Registered before the allow rule tightened: never sent there, never offered for consent.
  if (redirectUriProblem(redirectUri))
    return {
      kind: 'page',
      status: 400,
      message: 'This app registered a redirect_uri that Bindery no longer accepts; it must register again.',
    };

  const state = one('state');
  const fail = (error: OAuthErrorCode, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    location: redirectWith(deps, redirectUri, { error, error_description: description, state }),
  });
  if (state !== null && state.length > MAX_STATE) return fail('invalid_request', `state: at most ${MAX_STATE} characters`);
  if (one('response_type') !== 'code') return fail('unsupported_response_type', 'response_type: only "code" is supported');
  const challenge = one('code_challenge');
  if (!challenge) return fail('invalid_request', 'code_challenge: PKCE is required');
  if (one('code_challenge_method') !== 'S256') return fail('invalid_request', 'code_challenge_method: must be S256');
  if (!CHALLENGE_RE.test(challenge)) return fail('invalid_request', 'code_challenge: must be 43 base64url characters (S256)');
  const ours = mcpResource(deps.config);
  const resource = one('resource') ?? ours;
  if (resource !== ours) return fail('invalid_target', `resource: this server issues tokens only for ${ours}`);
  const scope = one('scope');
  if (scope !== null && scope.length > MAX_SCOPE) return fail('invalid_scope', `scope: at most ${MAX_SCOPE} characters`);
  const meta = JSON.parse(client.metadata) as { client_uri?: string };
  const clientName = client.name ?? meta.client_uri ?? redirectUri;
  return { kind: 'ok', request: { client, clientName, redirectUri, codeChallenge: challenge, resource, scope, state } };
}

/** The client's redirect URI with response parameters added (and `iss`, RFC 9207). */
export function redirectWith(deps: BinderyDeps, redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  url.searchParams.set('iss', issuer(deps.config));
  return url.href;
}

/** A 303 to the client (after the POST the browser follows it with a GET). */
export const redirect = (location: string): Response =>
  new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } });
