import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  JSONRPCMessageSchema,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { batchRefusal } from './batches.ts';

/** What the stdio adapter hands in: Node-style streams (process.stdin / process.stdout), duck-typed so the core stays runtime-neutral. */
export interface LineInput {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: 'data' | 'error', listener: (arg: any) => void): unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  off(event: 'data' | 'error', listener: (arg: any) => void): unknown;
  pause?(): unknown;
}
export interface LineOutput {
  write(text: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

const NEWLINE = 0x0a;
/** How much of an oversize line's end is kept to find its `"id"` (the SDK client writes the id last). */
const TAIL_BYTES = 256;

/**
 * MCP over newline-delimited JSON (stdio), answering what the SDK's StdioServerTransport (1.32.2)
 * drops or dies on: a line that is not JSON gets -32700, one that is not a JSON-RPC message -32600
 * (both with id null, as JSON-RPC asks when the id cannot be read), and a line over `maxLineBytes`
 * is skipped to its end and answered -32600 (with its id when its tail shows one) where the SDK
 * closed stdin and the server exited. JSON-RPC batches are taken only under protocol 2025-03-26,
 * the one version that allowed them, and answered as one array.
 */
export class LineTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private chunks: Uint8Array[] = [];
  private size = 0;
  /** Bytes of the current oversize line skipped so far (-1: not skipping). */
  private skipped = -1;
  private tail = new Uint8Array(0);
  private protocolVersion: string | undefined;
  private readonly batches: { ids: Set<RequestId>; responses: JSONRPCMessage[] }[] = [];
  private readonly decoder = new TextDecoder();
  private readonly ondata = (chunk: Uint8Array) => this.read(chunk);
  private readonly onerr = (error: Error) => this.onerror?.(error);

  constructor(
    private readonly input: LineInput,
    private readonly output: LineOutput,
    private readonly maxLineBytes: number,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.ondata);
    this.input.on('error', this.onerr);
  }

  async close(): Promise<void> {
    this.input.off('data', this.ondata);
    this.input.off('error', this.onerr);
    this.input.pause?.();
    this.chunks = [];
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (
      isJSONRPCResultResponse(message) &&
      message.result &&
      typeof (message.result as { protocolVersion?: unknown }).protocolVersion === 'string' &&
      'serverInfo' in message.result
    ) {
      this.protocolVersion = (message.result as { protocolVersion: string }).protocolVersion;
    }
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
      const batch = this.batches.find((b) => b.ids.has(message.id as RequestId));
      if (batch) {
        batch.ids.delete(message.id as RequestId);
        batch.responses.push(message);
        if (batch.ids.size > 0) return;
        this.batches.splice(this.batches.indexOf(batch), 1);
        return this.write(batch.responses);
      }
    }
    return this.write(message);
  }

  private write(value: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(value)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  private read(chunk: Uint8Array): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      this.take(chunk.subarray(start, end));
      if (nl === -1) return;
      this.endLine();
      start = nl + 1;
    }
  }

  /** Adds part of the current line, switching to skipping once it passes the limit. */
  private take(part: Uint8Array): void {
    if (part.length === 0) return;
    if (this.skipped < 0 && this.size + part.length > this.maxLineBytes) {
      this.skipped = this.size;
      this.chunks = [];
      this.size = 0;
    }
    if (this.skipped >= 0) {
      this.skipped += part.length;
      const joined = new Uint8Array(Math.min(TAIL_BYTES, this.tail.length + part.length));
      const keep = part.subarray(Math.max(0, part.length - TAIL_BYTES));
      joined.set(this.tail.subarray(this.tail.length - (joined.length - keep.length)), 0);
      joined.set(keep, joined.length - keep.length);
      this.tail = joined;
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
  }

  private endLine(): void {
    if (this.skipped >= 0) {
      const id = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*}\s*$/.exec(this.decoder.decode(this.tail).replace(/\r$/, ''))?.[1];
      const bytes = this.skipped;
      this.skipped = -1;
      this.tail = new Uint8Array(0);
      this.refuse(
        id === undefined ? null : (JSON.parse(id) as RequestId),
        ErrorCode.InvalidRequest,
        `Invalid Request: a message of ${bytes} bytes is over the ${this.maxLineBytes}-byte limit of this server`,
      );
      return;
    }
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : concat(this.chunks, this.size);
    this.chunks = [];
    this.size = 0;
    const line = this.decoder.decode(bytes).replace(/\r$/, '');
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.refuse(null, ErrorCode.ParseError, 'Parse error: the line is not JSON');
      return;
    }
    if (Array.isArray(value)) {
      this.batch(value);
      return;
    }
    this.deliver(value);
  }

  private batch(values: unknown[]): void {
    const refusal = batchRefusal(values, this.protocolVersion);
    if (refusal) {
      this.refuse(null, ErrorCode.InvalidRequest, refusal);
      return;
    }
    const messages = values.map((v) => JSONRPCMessageSchema.safeParse(v));
    const requests = messages.flatMap((m) => (m.success && isJSONRPCRequest(m.data) ? [m.data.id] : []));
    const batch = { ids: new Set<RequestId>(requests), responses: [] as JSONRPCMessage[] };
    // Messages that are not JSON-RPC answer inside the batch's array, as JSON-RPC asks.
    for (const m of messages) if (!m.success) batch.responses.push(invalid(null));
    if (batch.ids.size > 0) this.batches.push(batch);
    else if (batch.responses.length) void this.write(batch.responses);
    for (const m of messages) if (m.success) this.onmessage?.(m.data);
  }

  private deliver(value: unknown): void {
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    const id = (value as { id?: unknown } | null)?.id;
    this.refuse(
      typeof id === 'string' || typeof id === 'number' ? id : null,
      ErrorCode.InvalidRequest,
      'Invalid Request: not a JSON-RPC 2.0 message',
    );
  }

  private refuse(id: RequestId | null, code: number, message: string): void {
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }
}

function invalid(id: RequestId | null): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
  } as unknown as JSONRPCMessage;
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
