import { readBodyLimited } from '../http/guard.ts';
import { json } from '../http/responses.ts';

// The OAuth wire format: RFC 6749 §5.2 error bodies, no-store token answers, form bodies read with a
// size bound, and CORS for the endpoints browser-based clients call (metadata, register, token, revoke).

/** RFC 6749 §5.2 / RFC 7591 §3.2.2 / RFC 8707 error codes this server answers with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type'
  /** RFC 6749 §4.1.2.1; also answered with 429/503 when registration is rate-limited or full. */
  | 'temporarily_unavailable';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** An OAuth error response: 400, or 401 for invalid_client (§5.2). */
export function oauthError(error: OAuthErrorCode, description: string, status = error === 'invalid_client' ? 401 : 400): Response {
  return json({ error, error_description: description }, status, NO_STORE);
}

/** A JSON answer that no cache may keep (tokens, registrations). */
export const noStoreJson = (body: unknown, status = 200): Response => json(body, status, NO_STORE);

/** Largest form or JSON body an OAuth endpoint reads (a registration with ten long redirect URIs fits). */
export const MAX_OAUTH_BODY = 16 * 1024;

/** Reads an `application/x-www-form-urlencoded` body (bounded); undefined when it is not one. */
export async function readForm(request: Request): Promise<URLSearchParams | { error: Response }> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    return { error: oauthError('invalid_request', 'the body must be application/x-www-form-urlencoded') };
  const read = await readBodyLimited(request, MAX_OAUTH_BODY);
  if (!read.ok)
    return {
      error: oauthError(
        'invalid_request',
        read.tooLarge ? `the body is over ${MAX_OAUTH_BODY} bytes` : 'the body could not be read',
        read.tooLarge ? 413 : 400,
      ),
    };
  const form = new URLSearchParams(read.text);
  // RFC 6749 §3.1/§3.2: a parameter sent twice is an error, not a choice.
  for (const key of new Set(form.keys()))
    if (form.getAll(key).length > 1) return { error: oauthError('invalid_request', `${key}: sent more than once`) };
  return form;
}

/**
 * CORS for the public OAuth endpoints: any origin, no credentials. They use no cookie and no ambient
 * authority (a public client proves itself with PKCE, a token is its own proof), so a cross-origin page
 * gains nothing a server-side script could not do; browser-based MCP clients need them readable.
 */
export function publicCors(request: Request): Record<string, string> {
  if (!request.headers.get('origin')) return {};
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, Mcp-Protocol-Version',
    'Access-Control-Max-Age': '600',
  };
}
