import type { BinderyConfig } from '../config.ts';

// Token-risk levels and how a token figure is classified: a leaf module, so the runtime profiler
// (which the tool context carries) needs nothing from the tools themselves.

export type Risk = 'low' | 'medium' | 'high' | 'critical';
export const RISKS: readonly Risk[] = ['low', 'medium', 'high', 'critical'];
export type RiskThresholds = BinderyConfig['riskThresholds'];

/** `low` ≤ thresholds.low < `medium` ≤ thresholds.medium < `high` ≤ thresholds.high < `critical`. */
export function classifyRisk(tokens: number, t: RiskThresholds): Risk {
  if (tokens <= t.low) return 'low';
  if (tokens <= t.medium) return 'medium';
  if (tokens <= t.high) return 'high';
  return 'critical';
}

/** The worse of two risks. */
export function worstRisk(a: Risk, b: Risk): Risk {
  return RISKS.indexOf(a) >= RISKS.indexOf(b) ? a : b;
}
