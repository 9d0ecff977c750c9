import { McpError } from '@modelcontextprotocol/sdk/types.js';

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
