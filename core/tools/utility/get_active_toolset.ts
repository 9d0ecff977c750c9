import { z } from 'zod';
import { defineTool } from '../define.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { catalogOf, percentOf } from '../../footprint/catalog.ts';
import { countEntry } from '../../footprint/definition.ts';
import { contextView, n } from './footprint-views.ts';

export const getActiveToolsetTool = defineTool({
  name: 'get_active_toolset',
  title: 'Get active toolset',
  category: 'utility',
  description:
    'The tools listed to you right now in this session (they depend on the tool mode: eager, lazy or proxy), each with its definition tokens, and their total as meta.context. Compare with list_available_tools for all tools.',
  aliases: ['current tools', 'enabled tools', 'what is loaded', 'active tools', 'session tools'],
  input: z.strictObject({}),
  output: z.object({
    mode: z.string(),
    modeReason: z.string(),
    tools: z.array(z.object({ name: z.string(), category: z.string(), context: contextView })),
    meta: z.object({ context: contextView, totalPossibleContext: contextView }),
  }),
  bound: { kind: 'items', maxItems: 40, itemTokens: 25 },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    const catalog = catalogOf(ctx.tools.all, ctx.tokens, ctx.config);
    const total = catalog.totalTokens;
    // Counted over the entries tools/list returns now (lazy mode lists some tools lean).
    const tools = ctx.session.listedEntries().flatMap((entry) => {
      const tool = ctx.tools.get(entry.name);
      if (!tool) return [];
      const { tokens, modelTokens } = countEntry(entry, ctx.tokens);
      return [{ name: entry.name, category: tool.category, context: { modelTokens, tokens, percentTotal: percentOf(tokens, total) } }];
    });
    const sum = tools.reduce((s, t) => s + t.context.tokens, 0);
    const model = tools.reduce((s, t) => s + t.context.modelTokens, 0);
    const context = { modelTokens: model, tokens: sum, percentTotal: percentOf(sum, total) };
    const pieces: Piece[] = [
      line(
        `## Active toolset: ${tools.length} tools, ${n(model)} model-visible tokens (${n(sum)} in tools/list, ${context.percentTotal}% of the ${n(total)} all tools would cost)`,
      ),
      line(`Mode ${ctx.session.mode}: ${ctx.session.modeReason}.`),
      ...tools.map((t) => line(`- ${t.name} · ${t.category} · ${n(t.context.modelTokens)} model-visible / ${n(t.context.tokens)} tokens`)),
    ];
    return {
      pieces,
      data: {
        mode: ctx.session.mode,
        modeReason: ctx.session.modeReason,
        tools,
        meta: { context, totalPossibleContext: { modelTokens: catalog.totalModelTokens, tokens: total, percentTotal: null } },
      },
      meta: { toolset: context },
    };
  },
});
