import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { BinderyRpcCode } from '../protocol/rpc-error.ts';

/** JSON-RPC code for a request the client cancelled (as LSP and the MCP SDKs spell it). */
export const REQUEST_CANCELLED = BinderyRpcCode.RequestCancelled;

/**
 * Watches the requests of one session transport (JSON-response mode) through its public `send` and
 * `onmessage`, for the two things the SDK (1.32.2) leaves undone over HTTP:
 *
 * - A cancelled request is never answered (the server drops its result, as the cancellation rules
 *   ask), so its POST would hang and pin the session. Once `notifications/cancelled` has aborted the
 *   handler, the exchange is ended with a JSON-RPC error -32800 "Request cancelled" (a client that
 *   still tracks the id gets a definite answer; one that forgot it ignores it). `endAll` does the
 *   same for every open request when the session is deleted.
 * - In JSON-response mode a notification sent in the context of a request (`extra.sendNotification`,
 *   e.g. tools/list_changed after search_tools) is dropped. It is held here instead, and `rewrite`
 *   answers that POST as a short SSE body: the notifications, then the response. A client without a
 *   GET stream therefore still receives it.
 */
export interface ExchangeWatch {
  /** Requests received and not answered yet. */
  readonly open: ReadonlySet<RequestId>;
  /** Ends every open request with -32800 (the session is going away). */
  endAll(reason: string): Promise<void>;
  /** The POST's JSON response, as SSE carrying the notifications held for its requests (else unchanged). */
  rewrite(response: Response, body: unknown): Promise<Response>;
}

/**
 * `committed(id)`: true when the call has passed a write's commit point (core/server.ts
 * isCommittedCall); its cancellation is ignored and it answers with its result, so it is not ended here.
 */
export function watchExchanges(transport: WebStandardStreamableHTTPServerTransport, committed?: (id: RequestId) => boolean): ExchangeWatch {
  const open = new Set<RequestId>();
  const held = new Map<RequestId, JSONRPCMessage[]>();
  const send = transport.send.bind(transport);
  /** Answers an open request with -32800 (once); the SDK then resolves its POST or ends its stream. */
  const end = async (id: RequestId, message: string) => {
    if (!open.delete(id)) return;
    held.delete(id);
    await send({ jsonrpc: '2.0', id, error: { code: REQUEST_CANCELLED, message } }).catch(() => {});
  };

  transport.send = async (message, options) => {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      if (message.id !== undefined && message.id !== null) open.delete(message.id);
    } else if (options?.relatedRequestId !== undefined && isJSONRPCNotification(message)) {
      const id = options.relatedRequestId;
      if (open.has(id)) held.set(id, [...(held.get(id) ?? []), message]);
      return;
    }
    return send(message, options);
  };

  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message)) open.add(message.id);
    receive?.(message, extra);
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      // The SDK aborts the handler in a microtask; answer after it, so a result racing in is dropped by the SDK, not sent twice.
      if (id !== undefined) setTimeout(() => void (committed?.(id) ? undefined : end(id, 'Request cancelled')), 0);
    }
  };

  return {
    open,
    async endAll(reason) {
      await Promise.all([...open].map((id) => end(id, `Request cancelled: ${reason}`)));
    },
    async rewrite(response, body) {
      const ids = (Array.isArray(body) ? body : [body]).filter((m) => isJSONRPCRequest(m)).map((m) => (m as { id: RequestId }).id);
      const notes = ids.flatMap((id) => held.get(id) ?? []);
      for (const id of ids) held.delete(id);
      if (notes.length === 0 || !response.headers.get('content-type')?.startsWith('application/json')) return response;
      const answer = (await response.json()) as JSONRPCMessage | JSONRPCMessage[];
      const events = [...notes, ...(Array.isArray(answer) ? answer : [answer])]
        .map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`)
        .join('');
      const headers = new Headers(response.headers);
      headers.set('Content-Type', 'text/event-stream');
      headers.set('Cache-Control', 'no-cache');
      headers.delete('Content-Length');
      return new Response(events, { status: response.status, headers });
    },
  };
}
