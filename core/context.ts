import type { z } from 'zod';
import type { BinderyDb } from '../db/types.ts';
import type { BinderyConfig, ToolMode } from './config.ts';
import type { Piece } from './tokens/doc.ts';
import type { TokenCounter } from './tokens/counter.ts';

export interface Logger {
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
}

/**
 * What every part of the core reads: storage, the token counter, the configuration and the clock
 * (`Date.now` in service; tests and embedders may pass their own). Services take this; the adapter's
 * deps and a tool's context extend it, so one value passes everywhere without conversion.
 */
export interface CoreDeps {
  db: BinderyDb;
  tokens: TokenCounter;
  config: BinderyConfig;
  now: () => number;
}

/** What the core receives from an adapter: it reaches nothing else. */
export interface BinderyDeps extends CoreDeps {
  log?: Logger;
  /** Metrics and request logs (core/observe); absent, nothing is counted. */
  telemetry?: import('./observe/telemetry.ts').Telemetry;
}

/** What an embedder passes to createBinderyServer or createHttpApp: the clock may be left out. */
export type BinderyDepsInput = Omit<BinderyDeps, 'now'> & { now?: () => number };

/** The deps with the system clock where none was given (embedders written before `now` was required). */
export function withClock(deps: BinderyDepsInput): BinderyDeps {
  return deps.now ? (deps as BinderyDeps) : { ...deps, now: () => Date.now() };
}

export interface Caller {
  id: string;
  handle: string;
}

/** How a write is attributed (ARCHITECTURE.md#provenance): MCP writes are `llm`, everything else `human`. */
export interface Provenance {
  source: 'human' | 'llm';
  model: string | null;
}

/** A person's write: REST, the web app, import and the CLI (ARCHITECTURE.md#provenance). */
export const HUMAN: Provenance = { source: 'human', model: null };

/** Per-session state a handler may read (the tool-mode machinery writes it). */
export interface SessionView {
  mode: Exclude<ToolMode, 'auto'>;
  modeReason: string;
  clientName: string | null;
  clientVersion: string | null;
  visibleTools(): string[];
  /** The entries `tools/list` returns now (lean ones included), for the tools that count them. */
  listedEntries(): import('@modelcontextprotocol/sdk/types.js').Tool[];
}

/** Everything a tool handler gets. */
export interface ToolContext extends CoreDeps {
  log: Logger;
  caller: Caller;
  /** Provenance for writes, given the tool's optional `model` argument. */
  provenance(model?: string): Provenance;
  session: SessionView;
  /** The registry, for the utility tools that describe tools. */
  tools: ToolRegistry;
  /** Runs another tool as this caller (used by `invoke_tool`). */
  invoke(name: string, args: unknown): Promise<import('@modelcontextprotocol/sdk/types.js').CallToolResult>;
  /** Enables tools for this session (lazy mode); returns the names newly listed. */
  enableTools(names: string[]): string[];
  /** Runtime token figures of this process (`list_available_tools` reports them). */
  profiler?: import('./footprint/runtime.ts').RuntimeProfiler;
  /** Aborted when the client cancels the call: long work checks it where that is cheap. */
  signal?: AbortSignal;
  /**
   * A write tool's commit point, called by the runner right before its handler: throws when the call
   * was cancelled already (nothing is written); afterwards a cancellation is ignored and the call
   * answers with its result. Absent outside a tools/call request.
   */
  beginWrite?: () => void;
}

export interface ToolRegistry {
  all: readonly AnyTool[];
  get(name: string): AnyTool | undefined;
}

// What a tool declares (core/tools/define.ts re-exports these with defineTool). They live here, with
// ToolContext, because each names the other.

export type ToolCategory = 'binding' | 'version' | 'set' | 'space' | 'share' | 'comment' | 'utility' | 'proxy';

/**
 * What a tool promises about the size of its answer (token economics): `items` caps a collection,
 * `tokens` is a hard ceiling, `unbounded` is honest about neither.
 */
export type ResponseBound =
  | { kind: 'tokens'; maxTokens: number }
  | { kind: 'items'; maxItems: number; itemTokens: number }
  | { kind: 'budget' }
  | { kind: 'unbounded' };

/** What `_meta.context` may carry besides the response tokens (ARCHITECTURE.md#result-context). */
export interface ContextMeta {
  binding?: { id: string; contentTokenCount: number; publicUrl: string; textUrl: string };
  agentMeta?: { source: 'human' | 'llm'; model: string | null };
  pagination?: { total: number; hasMore: boolean; nextCursor: string | null };
  budget?: {
    maxTokens: number;
    usedTokens: number;
    remainingTokens: number;
    exhausted: boolean;
    included: unknown[];
    omitted: unknown[];
  };
  [key: string]: unknown;
}

/** A handler's answer: text pieces (with stored counts where known), structured data, context. */
export interface ToolOutput<O> {
  pieces: Piece[];
  data: O;
  meta?: ContextMeta;
  /** The part of the text that is data rather than framing, for runtime profiling. */
  dataTokens?: number;
  /**
   * Another tool's complete result, returned unchanged instead of this output (`invoke_tool`: the
   * caller gets the real tool's result with its own `_meta.context`; it was profiled when it ran).
   */
  forward?: import('@modelcontextprotocol/sdk/types.js').CallToolResult;
}

export interface ToolDefinition<I extends z.ZodType, O extends z.ZodType> {
  name: string;
  title: string;
  category: ToolCategory;
  /** Written for a model: when to use it, what it costs, what comes back. */
  description: string;
  /** Extra words `search_tools` matches ("remember this" finds create_binding). */
  aliases?: string[];
  input: I;
  /**
   * The everyday arguments: where lazy mode lists this tool from the start, its listed input schema
   * holds only these (and the required ones) until `search_tools` shows the full definition. Every
   * argument is still accepted and validated against `input`.
   */
  listed?: readonly Extract<keyof z.input<I>, string>[];
  /** The description listed with that lean schema, when `description` speaks of arguments it leaves out. */
  listedDescription?: string;
  output: O;
  bound: ResponseBound;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /**
   * True when the handler's text is made of stored blocks and counts nothing on its usual path
   * (it loads the tokenizer itself where it does): the runner then loads the tokenizer only if a
   * piece is left to count.
   */
  storedTextOnly?: boolean;
  handler(args: z.output<I>, ctx: ToolContext): Promise<ToolOutput<z.input<O>>>;
}

// Handlers are checked against their own schemas at definition; the registry holds them erased.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<any, any>;

export const stderrLogger = (write: (line: string) => void): Logger => ({
  info: (m, e) => write(`[bindery] ${m}${e === undefined ? '' : ` ${fmt(e)}`}`),
  warn: (m, e) => write(`[bindery] warn: ${m}${e === undefined ? '' : ` ${fmt(e)}`}`),
  error: (m, e) => write(`[bindery] error: ${m}${e === undefined ? '' : ` ${fmt(e)}`}`),
});

function fmt(e: unknown): string {
  if (e instanceof Error) return e.stack ?? e.message;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}
