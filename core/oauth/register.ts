import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { insertOAuthClient } from '../../db/store/oauth.ts';
import { clockOf, type BinderyDeps } from '../context.ts';
import { readBodyLimited } from '../http/guard.ts';
import { newId } from '../ids.ts';
import { redirectUriProblem } from './redirect-uri.ts';
import { MAX_OAUTH_BODY, noStoreJson, oauthError } from './wire.ts';

// RFC 7591 dynamic registration, public clients only: no secret is issued, the client proves itself
// at the token endpoint with PKCE. Registration is open (MCP clients register themselves), so every
// size is bounded and a redirect URI must pass the allow rule of redirect-uri.ts.

const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const MAX_NAME_LENGTH = 100;

/** POST /register: validates the metadata and answers the registered client (201). */
export async function handleRegister(deps: BinderyDeps, request: Request): Promise<Response> {
  const read = await readBodyLimited(request, MAX_OAUTH_BODY);
  if (!read.ok) return oauthError('invalid_client_metadata', read.tooLarge ? `the body is over ${MAX_OAUTH_BODY} bytes` : 'the body could not be read', read.tooLarge ? 413 : 400);
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
  if (meta.redirect_uris.length === 0 || meta.redirect_uris.length > MAX_REDIRECT_URIS) {
    return oauthError('invalid_redirect_uri', `redirect_uris: between 1 and ${MAX_REDIRECT_URIS} are required`);
  }
  for (const [i, uri] of meta.redirect_uris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) return oauthError('invalid_redirect_uri', `redirect_uris[${i}]: ${problem}`);
  }
  if (meta.token_endpoint_auth_method !== undefined && meta.token_endpoint_auth_method !== 'none') {
    return oauthError('invalid_client_metadata', 'token_endpoint_auth_method: only "none" (public clients with PKCE) is supported');
  }
  const grants = meta.grant_types ?? ['authorization_code', 'refresh_token'];
  if (grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    return oauthError('invalid_client_metadata', 'grant_types: only authorization_code and refresh_token are supported');
  }
  const responses = meta.response_types ?? ['code'];
  if (responses.some((r) => r !== 'code')) return oauthError('invalid_client_metadata', 'response_types: only "code" is supported');
  const name = meta.client_name?.trim().slice(0, MAX_NAME_LENGTH) || null;
  for (const key of ['client_uri', 'logo_uri', 'tos_uri', 'policy_uri', 'scope', 'software_id', 'software_version'] as const) {
    const value = meta[key];
    if (typeof value === 'string' && value.length > MAX_URI_LENGTH) return oauthError('invalid_client_metadata', `${key}: longer than ${MAX_URI_LENGTH} characters`);
  }
  const now = clockOf(deps)();
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
  await insertOAuthClient(deps.db, { id, name, redirectUris: JSON.stringify(meta.redirect_uris), metadata: JSON.stringify(answer), createdAt: now });
  return noStoreJson(answer, 201);
}
