import { BinderyError, HTTP_STATUS } from '../errors.ts';
import { BinderyRpcCode } from '../protocol/rpc-error.ts';

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers } });
}

/** A JSON-RPC error response (for /mcp, where clients expect JSON-RPC shapes). */
export function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return json({ jsonrpc: '2.0', error: { code, message }, id: null }, status, headers);
}

/**
 * 401 with the challenge RFC 6750 asks for; `invalid` adds error="invalid_token"; `resourceMetadata`
 * (on /mcp) adds RFC 9728's resource_metadata, where OAuth clients start discovery.
 */
export function unauthorized(invalid: boolean, mcp: boolean, resourceMetadata?: string): Response {
  const params = [
    'realm="bindery"',
    ...(resourceMetadata ? [`resource_metadata="${resourceMetadata}"`] : []),
    ...(invalid ? ['error="invalid_token"'] : []),
  ];
  const challenge = `Bearer ${params.join(', ')}`;
  const message = invalid
    ? 'invalid, unknown, expired or revoked API key or token'
    : 'Authorization: Bearer <key> is required (bindery keys create --user <handle>)';
  const headers = { 'WWW-Authenticate': challenge };
  return mcp
    ? rpcError(401, BinderyRpcCode.NoSession, `Unauthorized: ${message}`, headers)
    : json({ error: { code: 'UNAUTHORIZED', message } }, 401, headers);
}

/** The REST face of the one error mapper: typed errors keep their message, anything else is a bare 500. */
export function errorResponse(err: unknown, log?: (msg: string, extra?: unknown) => void): Response {
  if (err instanceof BinderyError)
    return json({ error: { code: err.code, message: err.message, field: err.field } }, HTTP_STATUS[err.code]);
  log?.('internal error in HTTP handler', err);
  return json({ error: { code: 'INTERNAL', message: 'An internal error occurred; nothing was written.' } }, 500);
}

/** The same response with extra headers (CORS). */
export function withHeaders(res: Response, extra: Record<string, string>): Response {
  const keys = Object.keys(extra);
  if (keys.length === 0) return res;
  const headers = new Headers(res.headers);
  for (const k of keys) headers.set(k, extra[k]!);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}
