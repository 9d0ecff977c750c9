import type { BinderyConfig } from '../config.ts';
import type { AnyTool, ResponseBound } from '../tools/define.ts';
import { toolListEntry } from '../tools/listing.ts';

import { classifyRisk, RISKS, worstRisk, type Risk } from './risk.ts';

export { classifyRisk, RISKS, worstRisk, type Risk, type RiskThresholds } from './risk.ts';

/** Tokens a list answer adds around its items (heading, paging line, omitted footer). */
export const LIST_FRAMING_TOKENS = 100;
/** More arguments than this is cognitive load for a model. */
const MAX_ARGUMENTS = 15;

/** What a tool's declared bound says about the worst answer it can give (token economics, static). */
export interface StaticProfile {
  tool: string;
  bound: ResponseBound['kind'];
  bounded: boolean;
  /** Worst-case response tokens: the declared bound, never more than the response cap. */
  worstCaseTokens: number;
  risk: Risk;
  recommendations: string[];
}

/** Worst-case response tokens a bound allows, limited by the server-wide response cap. */
export function worstCaseTokens(bound: ResponseBound, responseCap: number): number {
  switch (bound.kind) {
    case 'tokens':
      return Math.min(bound.maxTokens, responseCap);
    case 'items':
      return Math.min(bound.maxItems * bound.itemTokens + LIST_FRAMING_TOKENS, responseCap);
    case 'budget':
    case 'unbounded':
      // A budget tool answers within the caller's maxTokens; without one only the cap holds.
      return responseCap;
  }
}

/** Static profile of one tool from its declared bound and schema; computed without running it. */
export function staticProfile(tool: AnyTool, config: Pick<BinderyConfig, 'riskThresholds' | 'maxResponseTokens'>): StaticProfile {
  const worst = worstCaseTokens(tool.bound, config.maxResponseTokens);
  const risk = classifyRisk(worst, config.riskThresholds);
  const bounded = tool.bound.kind !== 'unbounded';
  const props = Object.keys((toolListEntry(tool).inputSchema.properties ?? {}) as object);
  const recommendations: string[] = [];
  if (!bounded) {
    recommendations.push(
      `declare a response bound (max items or max tokens); today only the ${config.maxResponseTokens}-token response cap limits it`,
    );
  }
  if (risk === 'high' || risk === 'critical') {
    if (props.includes('maxTokens')) recommendations.push('callers should pass maxTokens: it is a hard ceiling on this answer');
    else if (tool.bound.kind === 'items')
      recommendations.push(`lower maxItems (${tool.bound.maxItems}) or the per-item size, or accept a maxTokens budget`);
    else if (props.includes('cursor'))
      recommendations.push(`pages go up to ${worst} tokens; a maxTokens argument or smaller pages would bound one call lower`);
    else recommendations.push('accept a maxTokens budget or page the answer so one call cannot flood the context');
  }
  if (props.includes('tier') && (risk === 'high' || risk === 'critical')) {
    recommendations.push('prefer tier "1" (default) and raise the tier only for the items worth reading');
  }
  if (props.length > MAX_ARGUMENTS)
    recommendations.push(`reduce the argument count (${props.length} > ${MAX_ARGUMENTS} adds cognitive load)`);
  return { tool: tool.name, bound: tool.bound.kind, bounded, worstCaseTokens: worst, risk, recommendations };
}

/** A server-level view over tool profiles: the worst risk and the tools that need attention. */
export interface ProfileSummary {
  overallRisk: Risk;
  toolCount: number;
  byRisk: Record<Risk, number>;
  unboundedTools: string[];
  criticalTools: string[];
  /** Critical tools first, then high, then the rest; each prefixed with the tool name. */
  recommendations: string[];
}

/** Rolls static profiles up into the server summary. */
export function summarizeProfiles(profiles: readonly StaticProfile[]): ProfileSummary {
  const byRisk: Record<Risk, number> = { low: 0, medium: 0, high: 0, critical: 0 };
  let overall: Risk = 'low';
  for (const p of profiles) {
    byRisk[p.risk]++;
    overall = worstRisk(overall, p.risk);
  }
  const ordered = [...profiles].sort((a, b) => RISKS.indexOf(b.risk) - RISKS.indexOf(a.risk));
  return {
    overallRisk: overall,
    toolCount: profiles.length,
    byRisk,
    unboundedTools: profiles.filter((p) => !p.bounded).map((p) => p.tool),
    criticalTools: profiles.filter((p) => p.risk === 'critical').map((p) => p.tool),
    recommendations: ordered.flatMap((p) => p.recommendations.map((r) => `[${p.tool}] ${r}`)),
  };
}
