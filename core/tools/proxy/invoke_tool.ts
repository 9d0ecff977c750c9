import { z } from 'zod';
import { defineTool } from '../define.ts';
import { fail } from '../../errors.ts';
import { scoreTools } from '../../footprint/search.ts';

export const invokeToolTool = defineTool({
  name: 'invoke_tool',
  title: 'Invoke tool',
  category: 'proxy',
  description:
    "Proxy mode: run any Bindery tool by name. arguments are checked against that tool's own schema (errors name its field) and you get its result unchanged, with its _meta.context. search_tools shows names and signatures.",
  aliases: ['call tool', 'run tool', 'execute'],
  input: z.strictObject({
    name: z
      .string()
      .trim()
      .min(1, { message: 'must name a tool, e.g. "search_bindings"' })
      .max(64, { message: 'must be at most 64 characters' }),
    arguments: z.record(z.string(), z.unknown(), { message: "must be an object of the tool's arguments" }).default({}),
  }),
  // The result is the invoked tool's own, so its structured content may be any object.
  output: z.looseObject({}),
  bound: { kind: 'tokens', maxTokens: 25_000 },
  annotations: { openWorldHint: false },
  async handler(args, ctx) {
    const tool = ctx.tools.get(args.name);
    if (tool?.category === 'proxy') {
      throw fail.invalid(
        'name',
        `invoke_tool runs Bindery's real tools, not "${args.name}"${args.name === 'invoke_tool' ? ' (it cannot call itself)' : '; call it directly'}`,
      );
    }
    if (!tool) {
      const near = scoreTools(
        args.name.replace(/_/g, ' '),
        ctx.tools.all.filter((t) => t.category !== 'proxy'),
      )
        .slice(0, 3)
        .map((m) => m.tool.name);
      throw fail.invalid(
        'name',
        `no tool named "${args.name}"${near.length ? `; did you mean ${near.join(', ')}?` : ''} (search_tools finds tools by what they do)`,
      );
    }
    return { pieces: [], data: {}, forward: await ctx.invoke(tool.name, args.arguments) };
  },
});
