import type { BinderyConfig } from '../config.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import type { AnyTool, ToolCategory } from '../tools/define.ts';
import { definitionCost } from './definition.ts';
import { staticProfile, summarizeProfiles, type ProfileSummary, type StaticProfile } from './profile.ts';
import { oneLineDescription } from './search.ts';

/** Context cost of a tool or a group: exact tokens and share of all real tools (percent, 2 decimals). */
export interface ContextInfo {
  /** Name, description and input schema: what clients put in the model's context. */
  modelTokens: number;
  /** The whole tools/list entry (with the output schema); `percentTotal` is its share. */
  tokens: number;
  percentTotal: number | null;
}

export interface CatalogTool {
  name: string;
  title: string;
  category: ToolCategory;
  description: string;
  context: ContextInfo;
  profile: Omit<StaticProfile, 'tool'>;
}

/** Every real tool (what eager mode lists) measured and profiled, grouped by category. */
export interface Catalog {
  tokenizer: string;
  totalModelTokens: number;
  totalTokens: number;
  tools: CatalogTool[];
  byName: Map<string, CatalogTool>;
  categories: { category: ToolCategory; context: ContextInfo; tools: CatalogTool[] }[];
  summary: ProfileSummary;
}

export const percentOf = (part: number, whole: number): number => (whole ? Math.round((part / whole) * 10_000) / 100 : 0);

type CatalogConfig = Pick<BinderyConfig, 'riskThresholds' | 'maxResponseTokens'>;
const cache = new WeakMap<readonly AnyTool[], Map<string, Catalog>>();

/**
 * The static part of `list_available_tools`: exact definition tokens, percentages and profiles.
 * It depends only on the tool list, the tokenizer and the thresholds, so it is built once per
 * combination and reused (the warm answer only adds runtime figures and the session's view).
 */
export function catalogOf(all: readonly AnyTool[], tokens: TokenCounter, config: CatalogConfig): Catalog {
  const key = `${tokens.encoding}|${config.maxResponseTokens}|${config.riskThresholds.low},${config.riskThresholds.medium},${config.riskThresholds.high}`;
  let perList = cache.get(all);
  if (!perList) cache.set(all, (perList = new Map()));
  const known = perList.get(key);
  if (known) return known;
  const real = all.filter((t) => t.category !== 'proxy');
  const full = real.map((t) => definitionCost(t, tokens));
  const costs = full.map((c) => c.tokens);
  const total = costs.reduce((a, b) => a + b, 0);
  const profiles = real.map((t) => staticProfile(t, config));
  const tools: CatalogTool[] = real.map((t, i) => {
    const { tool: _t, ...profile } = profiles[i]!;
    return {
      name: t.name,
      title: t.title,
      category: t.category,
      description: oneLineDescription(t.description),
      context: { modelTokens: full[i]!.modelTokens, tokens: costs[i]!, percentTotal: percentOf(costs[i]!, total) },
      profile,
    };
  });
  const groups = new Map<ToolCategory, CatalogTool[]>();
  for (const t of tools) groups.set(t.category, [...(groups.get(t.category) ?? []), t]);
  const categories = [...groups].map(([category, list]) => {
    const sum = list.reduce((n, t) => n + t.context.tokens, 0);
    const model = list.reduce((n, t) => n + t.context.modelTokens, 0);
    return { category, context: { modelTokens: model, tokens: sum, percentTotal: percentOf(sum, total) }, tools: list };
  });
  const catalog: Catalog = {
    tokenizer: tokens.encoding,
    totalModelTokens: full.reduce((n, c) => n + c.modelTokens, 0),
    totalTokens: total,
    tools,
    byName: new Map(tools.map((t) => [t.name, t])),
    categories,
    summary: summarizeProfiles(profiles),
  };
  perList.set(key, catalog);
  return catalog;
}
