import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { insertOAuthClientCapped, pruneStaleOAuthClients } from '../services/oauth.ts';
import type { BinderyDeps } from '../context.ts';
import { readBodyLimited } from '../http/guard.ts';
import { newId } from '../ids.ts';
import { withHeaders } from '../http/responses.ts';
import type { RateLimiter } from './rate-limit.ts';
import { redirectUriProblem } from './redirect-uri.ts';
import { noStoreJson, oauthError } from './wire.ts';

// RFC 7591 dynamic registration, public clients only: no secret is issued, the client proves itself
// at the token endpoint with PKCE. Registration is open (MCP clients register themselves), so nothing
// about it may grow without bound (2,000 anonymous calls had stored 60 MB):
//  - every field is bounded and a registration is at most REGISTRATION_LIMITS.bodyBytes; a field over
//    its limit is refused naming it (nothing is cut silently);
//  - each source address gets REGISTRATION_RATE (rate-limit.ts), before the body is even read;
//  - at most `maxPending` clients may be pending (registered, never allowed by anyone); past it a
//    registration is refused until some are used or expire;
//  - a pending client expires after `pendingTtlMs` (pruned here and at start-up).
// Keycloak's anonymous-registration policy caps a realm at 200 clients; GitLab allows 10 registrations
// an hour per address, Resend 20, with 10 redirect URIs.

export const REGISTRATION_LIMITS = {
  bodyBytes: 4096,
  redirectUris: 5,
  clientName: 100,
  /** client_uri, logo_uri, tos_uri, policy_uri. */
  uri: 512,
  scope: 256,
  /** software_id, software_version. */
  software: 100,
  maxPending: 200,
  pendingTtlMs: 24 * 3600_000,
} as const;

const L = REGISTRATION_LIMITS;
const FIELD_LIMITS: Record<string, number> = {
  client_name: L.clientName,
  client_uri: L.uri,
  logo_uri: L.uri,
  tos_uri: L.uri,
  policy_uri: L.uri,
  scope: L.scope,
  software_id: L.software,
  software_version: L.software,
};

export interface RegisterOptions {
  limiter: RateLimiter;
  /** The bucket key of the caller's address (rate-limit.ts `sourceKey`). */
  source: string;
}

/** POST /register: validates the metadata and answers the registered client (201). */
export async function handleRegister(deps: BinderyDeps, request: Request, opts: RegisterOptions): Promise<Response> {
  const now = deps.now();
  const wait = opts.limiter.take(opts.source, now);
  if (wait)
    return withHeaders(oauthError('temporarily_unavailable', `too many registrations from this address: try again in ${wait} s`, 429), {
      'Retry-After': String(wait),
    });
  const read = await readBodyLimited(request, L.bodyBytes);
  if (!read.ok)
    return oauthError(
      'invalid_client_metadata',
      read.tooLarge ? `body: a registration is at most ${L.bodyBytes} bytes` : 'the body could not be read',
      read.tooLarge ? 413 : 400,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(read.text);
  } catch {
    return oauthError('invalid_client_metadata', 'the body must be a JSON object');
  }
  const parsed = OAuthClientMetadataSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'body';
    return oauthError(field.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata', `${field}: ${issue.message}`);
  }
  const meta = parsed.data;
  if (meta.redirect_uris.length === 0 || meta.redirect_uris.length > L.redirectUris) {
    return oauthError('invalid_redirect_uri', `redirect_uris: between 1 and ${L.redirectUris} are required`);
  }
  for (const [i, uri] of meta.redirect_uris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) return oauthError('invalid_redirect_uri', `redirect_uris[${i}]: ${problem}`);
  }
  for (const [key, max] of Object.entries(FIELD_LIMITS)) {
    const value = (meta as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.length > max) return oauthError('invalid_client_metadata', `${key}: at most ${max} characters`);
  }
  if (meta.token_endpoint_auth_method !== undefined && meta.token_endpoint_auth_method !== 'none') {
    return oauthError('invalid_client_metadata', 'token_endpoint_auth_method: only "none" (public clients with PKCE) is supported');
  }
  const grants = meta.grant_types ?? ['authorization_code', 'refresh_token'];
  if (grants.length > 2 || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    return oauthError('invalid_client_metadata', 'grant_types: only authorization_code and refresh_token are supported');
  }
  const responses = meta.response_types ?? ['code'];
  if (responses.length > 1 || responses.some((r) => r !== 'code'))
    return oauthError('invalid_client_metadata', 'response_types: only "code" is supported');
  const name = meta.client_name?.trim() || null;
  const id = newId('ocl');
  // What we answer is what we keep: only the fields we understand, bounded (no jwks, no software statement).
  const answer = {
    client_id: id,
    client_id_issued_at: Math.floor(now / 1000),
    redirect_uris: meta.redirect_uris,
    token_endpoint_auth_method: 'none',
    grant_types: grants,
    response_types: responses,
    ...(name ? { client_name: name } : {}),
    ...(meta.client_uri ? { client_uri: meta.client_uri } : {}),
    ...(meta.scope ? { scope: meta.scope } : {}),
    ...(meta.software_id ? { software_id: meta.software_id } : {}),
    ...(meta.software_version ? { software_version: meta.software_version } : {}),
  };
  const row = { id, name, redirectUris: JSON.stringify(meta.redirect_uris), metadata: JSON.stringify(answer), createdAt: now };
  // Pending clients past their time go first, so the cap counts only live ones.
  await pruneStaleOAuthClients(deps.db, now - L.pendingTtlMs);
  if (!(await insertOAuthClientCapped(deps.db, row, L.maxPending))) {
    deps.log?.warn(`OAuth registration refused: ${L.maxPending} clients are pending (registered, never authorized)`);
    return withHeaders(
      oauthError(
        'temporarily_unavailable',
        `registration is closed for now: ${L.maxPending} registered apps have not been authorized yet; try again later`,
        503,
      ),
      { 'Retry-After': '3600' },
    );
  }
  return noStoreJson(answer, 201);
}
