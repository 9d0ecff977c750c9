import { consumeOAuthCode, findOAuthCode, findOAuthToken, getOAuthClient, revokeOAuthFamily, revokeOAuthToken } from '../../db/store/oauth.ts';
import { clockOf, type BinderyDeps } from '../context.ts';
import { sha256Hex } from '../ids.ts';
import { isSecret, issueTokens, pkceMatches, VERIFIER_RE } from './tokens.ts';
import { mcpResource } from './urls.ts';
import { noStoreJson, oauthError, readForm } from './wire.ts';

// POST /token (RFC 6749 §4.1.3 and §6, OAuth 2.1): the authorization_code grant with its PKCE
// verifier, and refresh_token with rotation. A grant's tokens share a family id (the code's row id),
// so a replayed code or a reused refresh token revokes everything that grant produced (OAuth 2.1
// §4.3.1, RFC 9700 §4.14.2): whoever replays a secret may be an attacker holding a copy.

/** POST /token. */
export async function handleToken(deps: BinderyDeps, request: Request): Promise<Response> {
  const form = await readForm(request);
  if ('error' in form) return form.error;
  const clientId = form.get('client_id');
  if (!clientId) return oauthError('invalid_client', 'client_id is required (public clients authenticate with client_id and PKCE)');
  const client = clientId.length <= 40 ? await getOAuthClient(deps.db, clientId) : undefined;
  if (!client) return oauthError('invalid_client', 'unknown client_id');
  const resource = form.get('resource');
  if (resource !== null && resource !== mcpResource(deps.config)) return oauthError('invalid_target', `resource: this server issues tokens only for ${mcpResource(deps.config)}`);
  const grantType = form.get('grant_type');
  if (grantType === 'authorization_code') return exchangeCode(deps, form, client.id);
  if (grantType === 'refresh_token') return refresh(deps, form, client.id);
  if (!grantType) return oauthError('invalid_request', 'grant_type is required');
  return oauthError('unsupported_grant_type', 'grant_type: authorization_code or refresh_token');
}

async function exchangeCode(deps: BinderyDeps, form: URLSearchParams, clientId: string): Promise<Response> {
  const code = form.get('code');
  const verifier = form.get('code_verifier');
  const redirectUri = form.get('redirect_uri');
  if (!code) return oauthError('invalid_request', 'code is required');
  if (!verifier) return oauthError('invalid_request', 'code_verifier is required (PKCE)');
  if (!VERIFIER_RE.test(verifier)) return oauthError('invalid_request', 'code_verifier: 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
  if (!redirectUri) return oauthError('invalid_request', 'redirect_uri is required');
  if (!isSecret('bdc', code)) return oauthError('invalid_grant', 'the code is unknown, used or expired');
  const now = clockOf(deps)();
  const hash = await sha256Hex(code);
  // One statement marks it used: of two racing exchanges one gets the code, the other is a replay.
  const row = await consumeOAuthCode(deps.db, hash, now);
  if (!row) {
    const used = await findOAuthCode(deps.db, hash);
    if (used) {
      const revoked = await revokeOAuthFamily(deps.db, used.id, now);
      deps.log?.warn(`OAuth code replayed for client ${used.clientId}: ${revoked} token(s) from it revoked`);
    }
    return oauthError('invalid_grant', 'the code is unknown, used or expired');
  }
  // The code is spent whatever follows: a wrong verifier cannot be retried against it.
  if (row.expiresAt <= now) return oauthError('invalid_grant', 'the code is unknown, used or expired');
  if (row.clientId !== clientId) return oauthError('invalid_grant', 'the code was issued to another client');
  if (row.redirectUri !== redirectUri) return oauthError('invalid_grant', 'redirect_uri does not match the authorization request');
  if (!(await pkceMatches(verifier, row.codeChallenge))) return oauthError('invalid_grant', 'code_verifier does not match the code_challenge');
  const resource = form.get('resource');
  if (resource !== null && resource !== row.resource) return oauthError('invalid_target', 'resource differs from the authorization request');
  const tokens = await issueTokens(deps.db, { familyId: row.id, clientId, userId: row.userId, resource: row.resource, scope: row.scope }, now);
  return noStoreJson(tokens);
}

async function refresh(deps: BinderyDeps, form: URLSearchParams, clientId: string): Promise<Response> {
  const token = form.get('refresh_token');
  if (!token) return oauthError('invalid_request', 'refresh_token is required');
  const invalid = () => oauthError('invalid_grant', 'the refresh token is unknown, revoked or expired');
  if (!isSecret('bdr', token)) return invalid();
  const now = clockOf(deps)();
  const row = await findOAuthToken(deps.db, await sha256Hex(token));
  if (!row || row.kind !== 'refresh') return invalid();
  if (row.clientId !== clientId) return oauthError('invalid_grant', 'the refresh token was issued to another client');
  // Revoking it is the check: a token already revoked (or revoked by a racing refresh) is a reuse.
  const rotated = row.revokedAt === null && (await revokeOAuthToken(deps.db, row.id, now));
  if (!rotated) {
    const revoked = await revokeOAuthFamily(deps.db, row.familyId, now);
    if (revoked) deps.log?.warn(`OAuth refresh token reused for client ${row.clientId}: its family (${revoked} live token(s)) revoked`);
    return invalid();
  }
  if (row.expiresAt <= now) return invalid();
  const tokens = await issueTokens(deps.db, { familyId: row.familyId, clientId, userId: row.userId, resource: row.resource, scope: row.scope }, now);
  return noStoreJson(tokens);
}
