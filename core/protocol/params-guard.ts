import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ClientRequestSchema, ErrorCode, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { formatIssues } from '../tools/format-issues.ts';

/** Each client request method's SDK schema (tools/call, resources/read, prompts/get, …). */
const schemas = new Map<string, z.ZodType>(
  (ClientRequestSchema as unknown as { options: { shape: { method: { value: string } } }[] }).options.map((s) => [
    s.shape.method.value,
    s as unknown as z.ZodType,
  ]),
);

/**
 * Answers a request whose `params` do not fit its method with JSON-RPC -32602 and a short message
 * naming the field ("Invalid params: params.name: is required (string)"). Left to the SDK (1.32.2),
 * the same request gets a dump of zod's issues as JSON, and for methods other than tools/call the
 * code -32603 (internal error). Checked as messages arrive, so it covers every handler, whoever
 * registers it; methods it does not know go on unchanged (the SDK answers "Method not found").
 */
export function guardParams(transport: Transport): void {
  const receive = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message)) {
      const schema = schemas.get(message.method);
      const parsed = schema?.safeParse(message);
      if (parsed && !parsed.success) {
        const { message: text } = formatIssues(parsed.error as z.ZodError, '', message);
        void transport
          .send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${text}` } })
          .catch(() => {});
        return;
      }
    }
    receive?.(message, extra);
  };
}
