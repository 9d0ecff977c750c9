import type { ToolRunObserver } from './tool-run.ts';

/**
 * Seconds buckets of `bindery_tool_duration_seconds`: 1 ms to 10 s, the span between a cached
 * by-id read and a write waiting out a busy lock.
 */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** What the database layer reports (db/ calls it; it knows nothing of core). */
export interface DbObserver {
  busyRetry(): void;
  /** A call that failed for good (after any retries), with SQLite's error code when known. */
  error(code: string | undefined): void;
}

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

/** Label values are tool names, error codes and route templates; still escaped as the format requires. */
function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/** A sample value: integers as written, floats in shortest round-trip form. */
function num(n: number): string {
  return Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
}

/** Bounds a label's distinct values so a caller cannot grow the registry without end. */
const MAX_SERIES_PER_FAMILY = 2_000;

/**
 * The process's counters, histograms and gauges, rendered in the Prometheus text exposition format
 * (0.0.4). Hand-written rather than `prom-client`: that library is Node-only (it imports node:
 * modules for its default collectors), while this module runs in the core, on Bun, Deno and Workers
 * alike; the format for counters and one histogram is a few dozen lines.
 */
export class Metrics {
  private readonly toolCalls = new Map<string, number>();
  private readonly toolDuration = new Map<string, Histogram>();
  private readonly responseTokens = new Map<string, number>();
  private readonly omissions = new Map<string, number>();
  private readonly omittedItems = new Map<string, number>();
  private readonly httpRequests = new Map<string, number>();
  private readonly dbErrors = new Map<string, number>();
  private busyRetries = 0;

  /** Sees every tool result (hand it to the server's observe hook). */
  readonly observeTool: ToolRunObserver = (tool, f) => {
    const outcome = f.isError ? (f.code ?? 'error').toLowerCase() : 'ok';
    bump(this.toolCalls, `${tool}\u0000${outcome}`, 1);
    bump(this.responseTokens, tool, f.tokens);
    if (f.omitted) {
      bump(this.omissions, tool, 1);
      bump(this.omittedItems, tool, f.omitted);
    }
    let h = this.toolDuration.get(tool);
    if (!h) {
      if (this.toolDuration.size >= MAX_SERIES_PER_FAMILY) return;
      h = { counts: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.toolDuration.set(tool, h);
    }
    const seconds = f.ms / 1000;
    for (let i = 0; i < DURATION_BUCKETS.length; i++) if (seconds <= DURATION_BUCKETS[i]!) h.counts[i]!++;
    h.sum += seconds;
    h.count++;
  };

  /** Counts one answered HTTP request by route template and status. */
  observeRequest(method: string, route: string, status: number): void {
    bump(this.httpRequests, `${method}\u0000${route}\u0000${status}`, 1);
  }

  /** The hook to hand to the database client. */
  readonly db: DbObserver = {
    busyRetry: () => void this.busyRetries++,
    error: (code) => bump(this.dbErrors, code ?? 'unknown', 1),
  };

  /** The exposition text; `gauges` are read at scrape time (e.g. sessions open now). */
  render(gauges: { sessionsOpen?: number } = {}): string {
    const out: string[] = [];
    const family = (name: string, type: string, help: string) => out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    family('bindery_tool_calls_total', 'counter', 'Tool calls answered, by tool and outcome (ok, or the error code).');
    for (const [k, v] of sorted(this.toolCalls)) {
      const [tool, outcome] = k.split('\u0000');
      out.push(`bindery_tool_calls_total{tool="${label(tool!)}",outcome="${label(outcome!)}"} ${v}`);
    }
    family('bindery_tool_duration_seconds', 'histogram', 'Time to answer a tool call, by tool.');
    for (const [tool, h] of sorted(this.toolDuration)) {
      const t = label(tool);
      DURATION_BUCKETS.forEach((b, i) => out.push(`bindery_tool_duration_seconds_bucket{tool="${t}",le="${b}"} ${h.counts[i]}`));
      out.push(`bindery_tool_duration_seconds_bucket{tool="${t}",le="+Inf"} ${h.count}`);
      out.push(
        `bindery_tool_duration_seconds_sum{tool="${t}"} ${num(h.sum)}`,
        `bindery_tool_duration_seconds_count{tool="${t}"} ${h.count}`,
      );
    }
    family('bindery_response_tokens_total', 'counter', 'Exact tokens of tool answers sent, by tool.');
    for (const [tool, v] of sorted(this.responseTokens)) out.push(`bindery_response_tokens_total{tool="${label(tool)}"} ${v}`);
    family('bindery_budget_omissions_total', 'counter', 'Answers that left items out to fit a maxTokens budget, by tool.');
    for (const [tool, v] of sorted(this.omissions)) out.push(`bindery_budget_omissions_total{tool="${label(tool)}"} ${v}`);
    family('bindery_budget_omitted_items_total', 'counter', 'Items left out of answers to fit a maxTokens budget, by tool.');
    for (const [tool, v] of sorted(this.omittedItems)) out.push(`bindery_budget_omitted_items_total{tool="${label(tool)}"} ${v}`);
    family('bindery_http_requests_total', 'counter', 'HTTP requests answered, by method, route template and status.');
    for (const [k, v] of sorted(this.httpRequests)) {
      const [method, route, status] = k.split('\u0000');
      out.push(`bindery_http_requests_total{method="${label(method!)}",route="${label(route!)}",status="${status}"} ${v}`);
    }
    family('bindery_sessions_open', 'gauge', 'MCP sessions open (0 when stateless).');
    out.push(`bindery_sessions_open ${gauges.sessionsOpen ?? 0}`);
    family('bindery_db_busy_retries_total', 'counter', 'Database calls run again after SQLite answered busy.');
    out.push(`bindery_db_busy_retries_total ${this.busyRetries}`);
    family('bindery_db_errors_total', 'counter', 'Database calls that failed for good, by SQLite error code.');
    for (const [code, v] of sorted(this.dbErrors)) out.push(`bindery_db_errors_total{code="${label(code)}"} ${v}`);
    return `${out.join('\n')}\n`;
  }
}

function bump(map: Map<string, number>, key: string, by: number): void {
  const v = map.get(key);
  if (v === undefined && map.size >= MAX_SERIES_PER_FAMILY) return;
  map.set(key, (v ?? 0) + by);
}

function sorted<V>(map: Map<string, V>): [string, V][] {
  return [...map].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

let processMetrics: Metrics | undefined;
/** The registry shared by everything in this process (or isolate): Prometheus scrapes a process. */
export function defaultMetrics(): Metrics {
  processMetrics ??= new Metrics();
  return processMetrics;
}

/** The Content-Type of the text exposition format. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
