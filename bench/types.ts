/** One measured figure: what, how much, and the goal it is held to (if any). */
export interface BenchRow {
  metric: string;
  value: number | string;
  unit?: string;
  goal?: string;
  /** Whether the goal was met in this run (undefined when there is no goal). */
  met?: boolean;
}

/** A benchmark module's answer: a titled group of rows, plus any extra data to save. */
export interface BenchSection {
  title: string;
  rows: BenchRow[];
  extra?: unknown;
}

/** p50/p95/p99 of a list of samples (ms). */
export function percentiles(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: s[s.length - 1] ?? NaN, n: s.length };
}

/** Rounds for display. */
export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
