import { z } from 'zod';
import { defineTool } from '../define.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { catalogOf } from '../../footprint/catalog.ts';
import { contextView, n } from '../utility/footprint-views.ts';

export const listToolCategoriesTool = defineTool({
  name: 'list_tool_categories',
  title: 'List tool categories',
  category: 'proxy',
  description:
    'Proxy mode: the categories of Bindery tools with their tool names, counts and definition token cost. Find the right tool with search_tools (it shows each call signature), then call it with invoke_tool {name, arguments}.',
  aliases: ['categories', 'browse tools', 'tool groups'],
  input: z.strictObject({}),
  output: z.object({
    categories: z.array(z.object({ category: z.string(), count: z.number(), context: contextView, tools: z.array(z.string()) })),
    total: contextView,
  }),
  bound: { kind: 'tokens', maxTokens: 800 },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler(_args, ctx) {
    const catalog = catalogOf(ctx.tools.all, ctx.tokens, ctx.config);
    const categories = catalog.categories.map((c) => ({
      category: c.category,
      count: c.tools.length,
      context: c.context,
      tools: c.tools.map((t) => t.name),
    }));
    const pieces: Piece[] = [
      line(
        `## ${catalog.tools.length} tools in ${categories.length} categories (${n(catalog.totalModelTokens)} model-visible definition tokens if all were listed; ${n(catalog.totalTokens)} in tools/list)`,
      ),
    ];
    for (const c of categories)
      pieces.push(line(`- ${c.category} (${c.count}, ${n(c.context.modelTokens)} tokens): ${c.tools.join(', ')}`));
    pieces.push(line('search_tools {query} shows call signatures; invoke_tool {name, arguments} runs a tool.'));
    return {
      pieces,
      data: { categories, total: { modelTokens: catalog.totalModelTokens, tokens: catalog.totalTokens, percentTotal: null } },
    };
  },
});
