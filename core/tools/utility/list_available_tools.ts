import { z } from 'zod';
import { defineTool } from '../define.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { catalogOf, percentOf } from '../../footprint/catalog.ts';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { countEntry } from '../../footprint/definition.ts';
import { leanListEntry, toolListEntry } from '../listing.ts';
import type { AnyTool } from '../define.ts';
import { PROXY_LISTED } from '../../modes/session.ts';
import type { ToolContext } from '../../context.ts';
import { contextView, n, riskView } from './footprint-views.ts';
import { itemsUnderCap } from '../cap-lines.ts';

const CATEGORIES = ['binding', 'version', 'set', 'space', 'share', 'comment', 'utility'] as const;

// Every field is in the structured content; the schema types the ones a caller relies on and leaves
// the rest open, because this schema is itself paid for in every eager tools/list.
const toolView = z.looseObject({
  name: z.string(),
  context: contextView,
  listed: z.boolean(),
  profile: z.looseObject({ risk: riskView }),
  runtime: z.looseObject({}).nullable(),
});

/**
 * Tokens `tools/list` would cost in each mode (always-listed set for lazy, as lazy mode first lists it:
 * lean; the proxy set for proxy).
 */
export function modeCosts(ctx: ToolContext, eager: number, key: 'tokens' | 'modelTokens' = 'tokens') {
  const cost = (names: readonly string[], entry: (tool: AnyTool) => Tool) =>
    names.reduce((sum, name) => {
      const tool = ctx.tools.get(name);
      return tool ? sum + countEntry(entry(tool), ctx.tokens)[key] : sum;
    }, 0);
  const real = new Set(ctx.tools.all.filter((t) => t.category !== 'proxy').map((t) => t.name));
  return {
    eager,
    lazy: cost(
      ctx.config.alwaysTools.filter((t) => real.has(t)),
      leanListEntry,
    ),
    proxy: cost(PROXY_LISTED, toolListEntry),
  };
}

export const listAvailableToolsTool = defineTool({
  name: 'list_available_tools',
  title: 'List available tools',
  category: 'utility',
  description:
    'Every tool grouped by category with its context cost (model-visible definition tokens, full tools/list entry tokens, % of all), its response risk from the declared bound, and the response sizes seen so far. Use it to see what listing tools costs and which answers can get large.',
  aliases: ['tool catalog', 'all tools', 'token cost of tools', 'context footprint', 'tool economics'],
  input: z.strictObject({ category: z.enum(CATEGORIES).optional().describe('only this category (totals stay over all tools)') }),
  output: z.object({
    meta: z.looseObject({
      totalPossibleContext: contextView,
      toolCount: z.number(),
      modes: z.looseObject({}),
      summary: z.looseObject({ overallRisk: riskView }),
    }),
    categories: z.array(z.object({ category: z.string(), context: contextView, tools: z.array(toolView) })),
  }),
  bound: { kind: 'tokens', maxTokens: 4_000 },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const catalog = catalogOf(ctx.tools.all, ctx.tokens, ctx.config);
    const thresholds = ctx.config.riskThresholds;
    const visible = new Set(ctx.session.visibleTools());
    let listedTokens = 0;
    let listedModel = 0;
    // What tools/list returns now, lean entries included.
    for (const entry of ctx.session.listedEntries()) {
      const cost = countEntry(entry, ctx.tokens);
      listedTokens += cost.tokens;
      listedModel += cost.modelTokens;
    }
    const modes = modeCosts(ctx, catalog.totalTokens);
    const modelModes = modeCosts(ctx, catalog.totalModelTokens, 'modelTokens');
    const categories = catalog.categories
      .filter((c) => !args.category || c.category === args.category)
      .map((c) => ({
        category: c.category,
        context: c.context,
        tools: c.tools.map((t) => ({
          name: t.name,
          title: t.title,
          description: t.description,
          context: t.context,
          listed: visible.has(t.name),
          profile: t.profile,
          runtime: ctx.profiler?.figures(t.name, thresholds) ?? null,
        })),
      }));
    const s = catalog.summary;
    const runtime = ctx.profiler?.summary(thresholds) ?? {
      calls: 0,
      dataTokens: 0,
      overheadTokens: 0,
      overheadRatio: 0,
      maxTokens: 0,
      observedRisk: 'low' as const,
    };
    const meta = {
      totalPossibleContext: { modelTokens: catalog.totalModelTokens, tokens: catalog.totalTokens, percentTotal: null },
      tokenizer: catalog.tokenizer,
      toolCount: catalog.tools.length,
      mode: ctx.session.mode,
      listedNow: { tools: visible.size, modelTokens: listedModel, tokens: listedTokens },
      modes,
      modelModes,
      summary: {
        overallRisk: s.overallRisk,
        unboundedTools: s.unboundedTools,
        criticalTools: s.criticalTools,
        recommendations: s.recommendations.slice(0, 10),
      },
      runtime,
    };
    const pieces: Piece[] = [
      line(
        `## ${catalog.tools.length} tools · ${n(catalog.totalModelTokens)} model-visible definition tokens if all are listed (name, description, input schema; ${n(catalog.totalTokens)} as full tools/list entries; ${catalog.tokenizer})`,
      ),
      line(
        `This session: ${ctx.session.mode}, ${visible.size} listed = ${n(listedModel)} model-visible / ${n(listedTokens)} tokens (${percentOf(listedTokens, catalog.totalTokens)}%). Modes, model-visible (full): eager ${n(modelModes.eager)} (${n(modes.eager)}) · lazy ${n(modelModes.lazy)} (${n(modes.lazy)}) · proxy ${n(modelModes.proxy)} (${n(modes.proxy)}).`,
      ),
      line(
        `Response risk (worst case from declared bounds): ${s.overallRisk}; critical: ${s.criticalTools.join(', ') || 'none'}; unbounded: ${s.unboundedTools.join(', ') || 'none'}. Observed: ${runtime.calls} calls, largest ${n(runtime.maxTokens)} tokens, overhead ${Math.round(runtime.overheadRatio * 100)}%.`,
      ),
    ];
    const blocks = categories.map((c) => {
      const lines = [
        `### ${c.category} · ${c.tools.length} tools · ${n(c.context.modelTokens)} model-visible / ${n(c.context.tokens)} tokens (${c.context.percentTotal}%)`,
      ];
      for (const t of c.tools) {
        const r = t.runtime;
        const seen = r
          ? ` · ${r.count} calls, p50 ${r.p50}, p95 ${r.p95}, max ${r.max}, overhead ${Math.round(r.overheadRatio * 100)}%`
          : '';
        lines.push(
          `- ${t.name} · ${n(t.context.modelTokens)} / ${n(t.context.tokens)} (${t.context.percentTotal}%) · ${t.profile.bound} ≤${n(t.profile.worstCaseTokens)}, ${t.profile.risk}${seen}${t.listed ? ' · listed' : ''}`,
        );
      }
      return line(lines.join('\n'));
    });
    const advice = s.recommendations.length ? [line(`Advice: ${s.recommendations.slice(0, 3).join(' · ')}`)] : [];
    // Whole categories, while they fit under the response cap (a small cap and runtime figures can pass it).
    const kept = itemsUnderCap([...pieces, ...advice], blocks, ctx);
    pieces.push(...kept);
    const rest = categories.slice(kept.length).map((c) => c.category);
    if (rest.length)
      pieces.push(line(`Over the response cap, not shown: ${rest.join(', ')}; call list_available_tools {category} for each.`));
    pieces.push(...advice);
    return { pieces, data: { meta, categories } };
  },
});
