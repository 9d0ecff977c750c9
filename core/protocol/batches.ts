/** The only MCP protocol version whose transports carried JSON-RPC batches (2025-06-18 removed them). */
export const BATCH_PROTOCOL_VERSION = '2025-03-26';

/**
 * Why a JSON-RPC batch is refused (-32600), or undefined when it may be processed: an empty batch
 * is invalid in JSON-RPC itself, initialize never rides in one, and only the negotiated protocol
 * 2025-03-26 allows batches at all.
 */
export function batchRefusal(batch: readonly unknown[], protocolVersion: string | undefined): string | undefined {
  if (batch.length === 0) return 'Invalid Request: an empty batch';
  if (batch.some((m) => (m as { method?: unknown } | null)?.method === 'initialize'))
    return 'Invalid Request: initialize must not be part of a batch';
  if (protocolVersion !== BATCH_PROTOCOL_VERSION) {
    return `Invalid Request: JSON-RPC batches are not supported under protocol ${protocolVersion ?? '(none negotiated)'}; only ${BATCH_PROTOCOL_VERSION} allowed them`;
  }
  return undefined;
}
