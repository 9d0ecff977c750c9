import type { ToolRunObserver } from './tool-run.ts';
import { defaultMetrics, type Metrics } from './metrics.ts';

/** What observability is switched on (read from the environment by parseConfig). */
export interface ObserveConfig {
  /** `BINDERY_METRICS_TOKEN`: GET /metrics answers only with this bearer token; unset, /metrics is 404. */
  metricsToken?: string;
  /** `BINDERY_LOG_FORMAT=json`: one JSON line per HTTP request on stderr. */
  logFormat: 'text' | 'json';
}

/** Reads BINDERY_METRICS_TOKEN and BINDERY_LOG_FORMAT. */
export function parseObserveConfig(env: Record<string, string | undefined>): ObserveConfig {
  const format = env.BINDERY_LOG_FORMAT || 'text';
  if (format !== 'text' && format !== 'json') throw new Error(`BINDERY_LOG_FORMAT: must be text or json (got "${format}")`);
  const token = env.BINDERY_METRICS_TOKEN?.trim();
  if (token && token.length < 16) throw new Error('BINDERY_METRICS_TOKEN: must be at least 16 characters (it guards /metrics)');
  return { metricsToken: token || undefined, logFormat: format };
}

/** What one HTTP request did, gathered while it runs (for its log line). */
export interface RequestRecord {
  tools: string[];
  tokens: number;
  toolErrors: number;
}

/**
 * Carries a request's record across the awaits of its handling, so a tool call deep inside the MCP
 * SDK finds the request it belongs to. Adapters back it with AsyncLocalStorage; where none is given
 * (the edge handler) log lines simply name no tools.
 */
export interface RequestScope {
  run<T>(record: RequestRecord, fn: () => T): T;
  current(): RequestRecord | undefined;
}

/** Metrics, the request scope and the log sink, handed to the core through `deps.telemetry`. */
export interface Telemetry {
  metrics: Metrics;
  scope?: RequestScope;
  /** Writes one log line (stderr in the Bun adapter); set only with BINDERY_LOG_FORMAT=json. */
  writeLine?: (line: string) => void;
  /** Every tool result: counted, and added to the current request's record. */
  observeTool: ToolRunObserver;
}

/** Builds the telemetry an adapter passes in `deps.telemetry`. */
export function createTelemetry(opts: { metrics?: Metrics; scope?: RequestScope; writeLine?: (line: string) => void } = {}): Telemetry {
  const metrics = opts.metrics ?? defaultMetrics();
  const scope = opts.scope;
  return {
    metrics,
    scope,
    writeLine: opts.writeLine,
    observeTool: (tool, figures) => {
      metrics.observeTool(tool, figures);
      const record = scope?.current();
      if (record) {
        if (record.tools.length < 32) record.tools.push(tool);
        record.tokens += figures.tokens;
        if (figures.isError) record.toolErrors++;
      }
    },
  };
}
