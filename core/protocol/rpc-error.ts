import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

export { ErrorCode };

/**
 * A JSON-RPC error to throw from a request handler. The SDK answers with the thrown error's `code`,
 * `message` and `data`; an `McpError` would put "MCP error <code>: " into the message on the wire, and
 * the client's McpError adds it again ("MCP error -32602: MCP error -32602: …"). This is an McpError
 * whose message is only the text.
 */
export class RpcError extends McpError {
  constructor(code: number, text: string, data?: unknown) {
    super(code, text, data);
    this.message = text;
  }
}

/**
 * The JSON-RPC codes Bindery answers with that the SDK's ErrorCode does not name for this use. The
 * values are the ones the SDK's own Streamable HTTP transport answers raw (-32000 for a refused
 * request, -32001 for a missing session), the MCP spec's for an unknown resource, and LSP's for a
 * cancelled request; every other code is the SDK's ErrorCode.
 */
export const BinderyRpcCode = {
  /** A request refused before it reaches the server: HTTP method, body size, origin, session quota, missing session id. */
  Refused: -32000,
  /** An unknown or ended session, or a missing or bad credential. */
  NoSession: -32001,
  /** resources/read of a URI that is missing or not readable (MCP spec). */
  ResourceNotFound: -32002,
  /** A request the client cancelled, answered when its session goes away (LSP's RequestCancelled). */
  RequestCancelled: -32800,
} as const;
