import {
  consumeOAuthCode,
  findOAuthCode,
  findOAuthToken,
  getOAuthClient,
  redeemOAuthCode,
  revokeOAuthFamily,
  revokeOAuthToken,
  rotateOAuthRefresh,
} from '../services/oauth.ts';
import type { BinderyDeps } from '../context.ts';
import { sha256Hex } from '../ids.ts';
import { isSecret, mintTokens, pkceMatches, VERIFIER_RE } from './tokens.ts';
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
  if (resource !== null && resource !== mcpResource(deps.config))
    return oauthError('invalid_target', `resource: this server issues tokens only for ${mcpResource(deps.config)}`);
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
  const now = deps.now();
  const hash = await sha256Hex(code);
  const unusable = () => oauthError('invalid_grant', 'the code is unknown, used or expired');
  const row = await findOAuthCode(deps.db, hash);
  if (!row) return unusable();
  if (row.usedAt !== null) return replayed(deps, row.id, row.clientId, now);
  // A check that fails spends the code all the same: a wrong verifier cannot be retried against it.
  const refuse = async (res: Response) => ((await consumeOAuthCode(deps.db, hash, now)) ? res : replayed(deps, row.id, row.clientId, now));
  if (row.expiresAt <= now) return refuse(unusable());
  if (row.clientId !== clientId) return refuse(oauthError('invalid_grant', 'the code was issued to another client'));
  if (row.redirectUri !== redirectUri) return refuse(oauthError('invalid_grant', 'redirect_uri does not match the authorization request'));
  if (!(await pkceMatches(verifier, row.codeChallenge)))
    return refuse(oauthError('invalid_grant', 'code_verifier does not match the code_challenge'));
  const resource = form.get('resource');
  if (resource !== null && resource !== row.resource)
    return refuse(oauthError('invalid_target', 'resource differs from the authorization request'));
  // One batch writes the tokens and spends the code, only while it is unused: of two racing
  // exchanges one wins, and the other's replay revokes what the winner has already committed.
  const { rows, response } = await mintTokens(
    { familyId: row.id, clientId, userId: row.userId, resource: row.resource, scope: row.scope },
    now,
  );
  if (!(await redeemOAuthCode(deps.db, row.id, rows, now))) return replayed(deps, row.id, row.clientId, now);
  return noStoreJson(response);
}

/** A used code was presented again: everything its grant produced is revoked (it may be a stolen copy). */
async function replayed(deps: BinderyDeps, familyId: string, clientId: string, now: number): Promise<Response> {
  const revoked = await revokeOAuthFamily(deps.db, familyId, now);
  deps.log?.warn(`OAuth code replayed for client ${clientId}: ${revoked} token(s) from it revoked`);
  return oauthError('invalid_grant', 'the code is unknown, used or expired');
}

async function refresh(deps: BinderyDeps, form: URLSearchParams, clientId: string): Promise<Response> {
  const token = form.get('refresh_token');
  if (!token) return oauthError('invalid_request', 'refresh_token is required');
  const invalid = () => oauthError('invalid_grant', 'the refresh token is unknown, revoked or expired');
  if (!isSecret('bdr', token)) return invalid();
  const now = deps.now();
  const row = await findOAuthToken(deps.db, await sha256Hex(token));
  if (!row || row.kind !== 'refresh') return invalid();
  if (row.clientId !== clientId) return oauthError('invalid_grant', 'the refresh token was issued to another client');
  const reused = async () => {
    const revoked = await revokeOAuthFamily(deps.db, row.familyId, now);
    if (revoked) deps.log?.warn(`OAuth refresh token reused for client ${row.clientId}: its family (${revoked} live token(s)) revoked`);
    return invalid();
  };
  if (row.revokedAt !== null) return reused();
  if (row.expiresAt <= now) {
    await revokeOAuthToken(deps.db, row.id, now);
    return invalid();
  }
  // One batch revokes it and writes its successors, only while it is live: of two racing refreshes
  // one wins, and the loser's family revocation (after the winner committed) ends the winner's too.
  const { rows, response } = await mintTokens(
    { familyId: row.familyId, clientId, userId: row.userId, resource: row.resource, scope: row.scope },
    now,
  );
  if (!(await rotateOAuthRefresh(deps.db, row.id, rows, now))) return reused();
  return noStoreJson(response);
}
