import type { ToolRunObserver } from '../observe/tool-run.ts';
import { classifyRisk, type Risk, type RiskThresholds } from './risk.ts';

/** Keep this many recent response sizes per tool for percentiles (a ring; count and max stay exact). */
const SAMPLE_WINDOW = 1024;

/** What was observed of one tool's answers in this process. */
// A type alias (not an interface) so it fits open `{ [key]: unknown }` output schemas.
export type RuntimeFigures = {
  count: number;
  errors: number;
  p50: number;
  p95: number;
  max: number;
  /** Sums over all answers: tokens that were data vs framing, hints and error text. */
  dataTokens: number;
  overheadTokens: number;
  /** overheadTokens / (data + overhead); 0 before any answer. */
  overheadRatio: number;
  /** Risk of the largest answer seen so far. */
  observedRisk: Risk;
  p50Ms: number;
};

interface ToolStats {
  count: number;
  errors: number;
  max: number;
  data: number;
  overhead: number;
  samples: number[];
  ms: number[];
  next: number;
  /** Sorted copies, rebuilt only after new samples (list_available_tools reads them on every call). */
  sorted?: { tokens: number[]; ms: number[] };
}

/**
 * Runtime token profiling for one process: every tool result is measured through the server's
 * `observe` hook (exact response tokens and the data share the handler declared).
 */
export class RuntimeProfiler {
  private readonly stats = new Map<string, ToolStats>();

  /** The hook to hand to `createBinderyServer({ observe })`. */
  readonly observe: ToolRunObserver = (tool, f) => {
    let s = this.stats.get(tool);
    if (!s) {
      s = { count: 0, errors: 0, max: 0, data: 0, overhead: 0, samples: [], ms: [], next: 0 };
      this.stats.set(tool, s);
    }
    s.count++;
    if (f.isError) s.errors++;
    s.max = Math.max(s.max, f.tokens);
    const data = Math.min(f.dataTokens, f.tokens);
    s.data += data;
    s.overhead += f.tokens - data;
    s.samples[s.next] = f.tokens;
    s.ms[s.next] = f.ms;
    s.next = (s.next + 1) % SAMPLE_WINDOW;
    s.sorted = undefined;
  };

  /** Figures for one tool, or null when it has not answered in this process. */
  figures(tool: string, thresholds: RiskThresholds): RuntimeFigures | null {
    const s = this.stats.get(tool);
    if (!s) return null;
    s.sorted ??= { tokens: [...s.samples].sort((a, b) => a - b), ms: [...s.ms].sort((a, b) => a - b) };
    const sorted = s.sorted.tokens;
    const total = s.data + s.overhead;
    return {
      count: s.count,
      errors: s.errors,
      p50: quantile(sorted, 0.5),
      p95: quantile(sorted, 0.95),
      max: s.max,
      dataTokens: s.data,
      overheadTokens: s.overhead,
      overheadRatio: total ? Math.round((s.overhead / total) * 1000) / 1000 : 0,
      observedRisk: classifyRisk(s.max, thresholds),
      p50Ms: quantile(s.sorted.ms, 0.5),
    };
  }

  /** Totals over every tool seen: answers, data vs overhead, the worst observed risk and its tools. */
  summary(thresholds: RiskThresholds) {
    let calls = 0,
      data = 0,
      overhead = 0,
      max = 0;
    for (const s of this.stats.values()) {
      calls += s.count;
      data += s.data;
      overhead += s.overhead;
      max = Math.max(max, s.max);
    }
    return {
      calls,
      dataTokens: data,
      overheadTokens: overhead,
      overheadRatio: data + overhead ? Math.round((overhead / (data + overhead)) * 1000) / 1000 : 0,
      maxTokens: max,
      observedRisk: classifyRisk(max, thresholds),
    };
  }

  /** Forgets everything (tests and benchmarks). */
  reset(): void {
    this.stats.clear();
  }
}

/** Nearest-rank quantile of sorted samples. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

let processProfiler: RuntimeProfiler | undefined;
/** The profiler shared by every server built in this process (or isolate) unless one is passed. */
export function defaultProfiler(): RuntimeProfiler {
  processProfiler ??= new RuntimeProfiler();
  return processProfiler;
}

/** Callers whose figures are kept per process; the least recently served make room past this. */
const MAX_CALLER_PROFILERS = 1_000;
const callerProfilers = new Map<string, RuntimeProfiler>();

/**
 * The figures of one caller's calls in this process. `list_available_tools` shows these, never the
 * process-wide ones: another user's call counts and response sizes would tell what they read and when.
 */
export function callerProfiler(callerId: string): RuntimeProfiler {
  let profiler = callerProfilers.get(callerId);
  if (profiler) callerProfilers.delete(callerId);
  else {
    profiler = new RuntimeProfiler();
    if (callerProfilers.size >= MAX_CALLER_PROFILERS) callerProfilers.delete(callerProfilers.keys().next().value!);
  }
  callerProfilers.set(callerId, profiler);
  return profiler;
}
