import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TokenCounter } from '../tokens/counter.ts';
import type { ToolRegistry } from '../context.ts';
import type { BinderyConfig } from '../config.ts';
import { PROXY_LISTED } from '../modes/session.ts';
import { leanListEntry, toolListEntry } from '../tools/listing.ts';
import { countEntry } from './definition.ts';

/** Tools that front a server in proxy mode, besides `help` (which only Bindery has). */
export const PROXY_FRONT = ['list_tool_categories', 'search_tools', 'invoke_tool'];

export interface MeasuredTool {
  name: string;
  category: string;
  /** Name, description and input schema: what clients put in the model's context. */
  modelTokens: number;
  /** The whole tools/list entry (output schema, title, annotations too). */
  tokens: number;
  percent: number;
}

/** The token cost of a server's tool definitions, and what the lazy and proxy modes would cost instead. */
export interface MeasureReport {
  server: { name: string; version: string } | null;
  tokenizer: string;
  toolCount: number;
  totalModelTokens: number;
  totalTokens: number;
  tools: MeasuredTool[];
  categories: { category: string; tools: number; tokens: number; percent: number }[];
  largest: MeasuredTool[];
  modes: {
    eager: { modelTokens: number; tokens: number; tools: number };
    lazy: { modelTokens: number; tokens: number; tools: string[]; reduction: number };
    proxy: { modelTokens: number; tokens: number; tools: string[]; reduction: number };
  };
}

export interface MeasureInput {
  server?: { name: string; version: string } | null;
  /** Every tool as `tools/list` sent it, with the group it belongs to (category, or the server's name). */
  tools: { entry: Tool; category: string }[];
  /** What `tools/list` would send in lazy mode (the always-listed set) and in proxy mode. */
  lazy: Tool[];
  proxy: Tool[];
}

const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 100 : 0);

/** Counts every definition exactly and rolls the counts up (pure; the caller supplies the entries). */
export function measureTools(input: MeasureInput, tokens: TokenCounter): MeasureReport {
  const counted = input.tools.map((t) => {
    const cost = countEntry(t.entry, tokens);
    return { name: t.entry.name, category: t.category, modelTokens: cost.modelTokens, tokens: cost.tokens };
  });
  const totalModel = counted.reduce((n, t) => n + t.modelTokens, 0);
  const total = counted.reduce((n, t) => n + t.tokens, 0);
  const tools = counted.map((t) => ({ ...t, percent: pct(t.tokens, total) }));
  const groups = new Map<string, { tools: number; tokens: number }>();
  for (const t of tools) {
    const g = groups.get(t.category) ?? { tools: 0, tokens: 0 };
    g.tools++;
    g.tokens += t.tokens;
    groups.set(t.category, g);
  }
  const sum = (entries: Tool[], key: 'tokens' | 'modelTokens' = 'tokens') => entries.reduce((n, e) => n + countEntry(e, tokens)[key], 0);
  const lazy = sum(input.lazy);
  const proxy = sum(input.proxy);
  return {
    server: input.server ?? null,
    tokenizer: tokens.encoding,
    toolCount: tools.length,
    totalModelTokens: totalModel,
    totalTokens: total,
    tools,
    categories: [...groups].map(([category, g]) => ({ category, ...g, percent: pct(g.tokens, total) })),
    largest: [...tools].sort((a, b) => b.tokens - a.tokens).slice(0, 5),
    modes: {
      eager: { modelTokens: totalModel, tokens: total, tools: tools.length },
      lazy: {
        modelTokens: sum(input.lazy, 'modelTokens'),
        tokens: lazy,
        tools: input.lazy.map((e) => e.name),
        reduction: total ? pct(total - lazy, total) : 0,
      },
      proxy: {
        modelTokens: sum(input.proxy, 'modelTokens'),
        tokens: proxy,
        tools: input.proxy.map((e) => e.name),
        reduction: total ? pct(total - proxy, total) : 0,
      },
    },
  };
}

/** Measure input for Bindery itself: every real tool by category, the always-listed set, the proxy set. */
export function binderyMeasureInput(registry: ToolRegistry, config: Pick<BinderyConfig, 'alwaysTools'>): MeasureInput {
  const real = registry.all.filter((t) => t.category !== 'proxy');
  const always = new Set(config.alwaysTools);
  const pick = (names: string[]) =>
    names
      .map((n) => registry.get(n))
      .filter((t) => !!t)
      .map((t) => toolListEntry(t!));
  return {
    tools: real.map((t) => ({ entry: toolListEntry(t), category: t.category })),
    // Lazy mode lists an always-listed tool lean (its everyday arguments) until a search shows it in full.
    lazy: real.filter((t) => always.has(t.name)).map(leanListEntry),
    proxy: pick(PROXY_LISTED),
  };
}

/**
 * Measure input for another server: one group named after it; lazy mode would list Bindery's
 * `search_tools` plus the tools named in `always`; proxy mode would list the three proxy tools.
 */
export function foreignMeasureInput(
  server: { name: string; version: string } | null,
  entries: Tool[],
  bindery: ToolRegistry,
  always: string[] = [],
): MeasureInput {
  const front = (names: string[]) =>
    names
      .map((n) => bindery.get(n))
      .filter((t) => !!t)
      .map((t) => toolListEntry(t!));
  const group = server?.name ?? 'server';
  return {
    server,
    tools: entries.map((entry) => ({ entry, category: group })),
    lazy: [...front(['search_tools']), ...entries.filter((e) => always.includes(e.name))],
    proxy: front(PROXY_FRONT),
  };
}

/** The report as a Markdown table with the mode comparison underneath. */
export function formatMeasureReport(r: MeasureReport): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const title = r.server ? `${r.server.name} ${r.server.version}` : 'server';
  const out = [
    `# Tool definition footprint: ${title}`,
    '',
    `${r.toolCount} tools, ${n(r.totalModelTokens)} model-visible tokens (name, description and input schema: what clients put in the model's context), ${n(r.totalTokens)} tokens as full tools/list entries (with output schemas) (${r.tokenizer}, exact counts of the JSON).`,
    '',
    '| tool | group | model-visible tokens | tools/list entry tokens | % of entries |',
    '|---|---|---:|---:|---:|',
    ...r.tools.map((t) => `| ${t.name} | ${t.category} | ${n(t.modelTokens)} | ${n(t.tokens)} | ${t.percent.toFixed(2)} |`),
    `| **total** | | **${n(r.totalModelTokens)}** | **${n(r.totalTokens)}** | **100.00** |`,
    '',
    '| group | tools | tokens | % |',
    '|---|---:|---:|---:|',
    ...r.categories.map((c) => `| ${c.category} | ${c.tools} | ${n(c.tokens)} | ${c.percent.toFixed(2)} |`),
    '',
    `Largest: ${r.largest.map((t) => `${t.name} (${n(t.tokens)})`).join(', ') || 'none'}`,
    '',
    '| mode | model-visible tokens | tools/list tokens | vs eager | listed |',
    '|---|---:|---:|---:|---|',
    `| eager | ${n(r.modes.eager.modelTokens)} | ${n(r.modes.eager.tokens)} | — | all ${r.modes.eager.tools} |`,
    `| lazy | ${n(r.modes.lazy.modelTokens)} | ${n(r.modes.lazy.tokens)} | ${signed(r.modes.lazy.reduction)} | ${r.modes.lazy.tools.join(', ')} |`,
    `| proxy | ${n(r.modes.proxy.modelTokens)} | ${n(r.modes.proxy.tokens)} | ${signed(r.modes.proxy.reduction)} | ${r.modes.proxy.tools.join(', ')} |`,
  ];
  return `${out.join('\n')}\n`;
}

/** A reduction as a signed change: 92.5 → "−92.5%", −10 → "+10.0%" (the mode would cost more). */
function signed(reduction: number): string {
  return reduction >= 0 ? `−${reduction.toFixed(1)}%` : `+${(-reduction).toFixed(1)}%`;
}
