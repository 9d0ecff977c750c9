import { findOAuthToken, getOAuthClient, revokeOAuthFamily, revokeOAuthToken } from '../services/oauth.ts';
import type { BinderyDeps } from '../context.ts';
import { sha256Hex } from '../ids.ts';
import { isSecret } from './tokens.ts';
import { oauthError, readForm } from './wire.ts';

/**
 * POST /revoke (RFC 7009). Revoking a refresh token ends its whole grant (every access token of the
 * family, §2.1 "SHOULD"); revoking an access token ends that token. An unknown token, or one issued to
 * another client, answers 200 and changes nothing (§2.2), so the endpoint reveals nothing.
 */
export async function handleRevoke(deps: BinderyDeps, request: Request): Promise<Response> {
  const form = await readForm(request);
  if ('error' in form) return form.error;
  const token = form.get('token');
  if (!token) return oauthError('invalid_request', 'token is required');
  const clientId = form.get('client_id');
  const client = clientId && clientId.length <= 40 ? await getOAuthClient(deps.db, clientId) : undefined;
  if (!client) return oauthError('invalid_client', 'client_id is required and must be a registered client');
  const done = new Response(null, { status: 200, headers: { 'Cache-Control': 'no-store' } });
  if (!isSecret('bda', token) && !isSecret('bdr', token)) return done;
  const row = await findOAuthToken(deps.db, await sha256Hex(token));
  if (!row || row.clientId !== client.id) return done;
  const now = deps.now();
  if (row.kind === 'refresh') await revokeOAuthFamily(deps.db, row.familyId, now);
  else await revokeOAuthToken(deps.db, row.id, now);
  return done;
}
