import type { BinderyDb } from '../db/types.ts';
import type { BinderyConfig, ToolMode } from './config.ts';
import type { TokenCounter } from './tokens/counter.ts';

export interface Logger {
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
}

/** What the core receives from an adapter: it reaches nothing else. */
export interface BinderyDeps {
  db: BinderyDb;
  tokens: TokenCounter;
  config: BinderyConfig;
  clock?: () => number;
  log?: Logger;
  /** Metrics and request logs (core/observe); absent, nothing is counted. */
  telemetry?: import('./observe/telemetry.ts').Telemetry;
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

/** Per-session state a handler may read (the tool-mode machinery writes it). */
export interface SessionView {
  mode: Exclude<ToolMode, 'auto'>;
  modeReason: string;
  clientName: string | null;
  clientVersion: string | null;
  visibleTools(): string[];
}

/** Everything a tool handler gets. */
export interface ToolContext {
  db: BinderyDb;
  tokens: TokenCounter;
  config: BinderyConfig;
  now: () => number;
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
}

export interface ToolRegistry {
  all: readonly import('./tools/define.ts').AnyTool[];
  get(name: string): import('./tools/define.ts').AnyTool | undefined;
}

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

/** The clock every part of the core reads: `deps.clock` when an embedder or a test gives one, else the system's. */
export function clockOf(deps: { clock?: () => number }): () => number {
  return deps.clock ?? Date.now;
}
