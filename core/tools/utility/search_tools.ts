import { z } from 'zod';
import { defineTool } from '../define.ts';
import { text } from '../schema.ts';
import { fail } from '../../errors.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { definitionCost } from '../../footprint/definition.ts';
import { oneLineDescription, scoreTools, words } from '../../footprint/search.ts';
import { signatureOf } from '../../footprint/signature.ts';
import { itemsUnderCap } from '../cap-lines.ts';

/** Matches shown without `limit`. */
const DEFAULT_LIMIT = 5;

const match = z.object({
  name: z.string(),
  category: z.string(),
  description: z.string(),
  tokens: z.number(),
  listed: z.boolean(),
  signature: z.string().optional(),
});

export const searchToolsTool = defineTool({
  name: 'search_tools',
  title: 'Search tools',
  category: 'utility',
  description: 'Find more tools (write, sets, share…).',
  aliases: ['find tool', 'which tool', 'discover tools', 'enable tools', 'what can you do', 'capabilities'],
  // Lazy mode lists the query only, and says the always-listed tools have more options than they list.
  listed: ['query'],
  listedDescription: 'Find more tools and options (write, sets, share…).',
  input: z.strictObject({
    query: text().trim().min(1, { message: 'must not be empty' }).max(500, { message: 'must be at most 500 characters' }),
    limit: z
      .number()
      .int({ message: 'must be a whole number' })
      .min(1, { message: 'must be from 1 to 20' })
      .max(20, { message: 'must be from 1 to 20' })
      .optional(),
  }),
  output: z.object({ query: z.string(), mode: z.string(), matches: z.array(match), enabled: z.array(z.string()) }),
  bound: { kind: 'items', maxItems: 20, itemTokens: 90 },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler(args, ctx) {
    if (words(args.query).length === 0) throw fail.invalid('query', 'must contain at least one word (letters or digits)');
    const candidates = ctx.tools.all.filter((t) => t.category !== 'proxy');
    const mode = ctx.session.mode;
    const found = scoreTools(args.query, candidates)
      .slice(0, args.limit ?? DEFAULT_LIMIT)
      .map(({ tool }) => ({
        name: tool.name,
        category: tool.category,
        description: oneLineDescription(tool.description),
        tokens: definitionCost(tool, ctx.tokens).tokens,
        ...(mode === 'proxy' ? { signature: signatureOf(tool) } : {}),
      }));
    const q = args.query.replace(/\s+/g, ' ').slice(0, 80);
    const head = (n: number) => line(`## Tools for "${q}": ${n} match${n === 1 ? '' : 'es'}`);
    // The best matches that fit under the response cap (signatures make proxy-mode lines long).
    const lines = itemsUnderCap(
      [head(found.length)],
      found.map((m) => line(`- ${m.signature ?? m.name} · ${m.category} · ${m.tokens} tokens · ${m.description}`)),
      ctx,
    );
    const top = found.slice(0, lines.length);
    const before = new Set(ctx.session.visibleTools());
    // The best match goes last so it is the most recently used one if the cap evicts. An always-listed
    // tool listed lean (its everyday arguments only) is listed in full from now on.
    const enabled = mode === 'lazy' ? ctx.enableTools(top.map((m) => m.name).reverse()).reverse() : [];
    const visible = new Set(ctx.session.visibleTools());
    const matches = top.map(({ signature, ...m }) => ({ ...m, listed: visible.has(m.name), ...(signature ? { signature } : {}) }));
    const pieces: Piece[] = [head(matches.length), ...lines];
    if (matches.length === 0) pieces.push(line('No tool matches. Try other words; list_available_tools shows every tool.'));
    else if (mode === 'proxy') pieces.push(line('Call one with invoke_tool {name, arguments}.'));
    else if (mode === 'lazy') {
      const added = enabled.filter((name) => !before.has(name));
      const full = enabled.filter((name) => before.has(name));
      const changed = [
        ...(added.length ? [`Enabled for this session: ${added.join(', ')}`] : []),
        ...(full.length ? [`Listed with all arguments now: ${full.join(', ')}`] : []),
      ];
      pieces.push(line(changed.length ? `${changed.join('; ')} (tools/list changed).` : 'All of them are listed already.'));
    } else pieces.push(line('All tools are listed: call them directly.'));
    return { pieces, data: { query: args.query, mode, matches, enabled } };
  },
});
