import { z } from 'zod';
import { defineTool } from '../define.ts';
import { maxTokensSchema, querySchema, setId, tierSchema } from '../schema.ts';
import { packByQuery } from '../query-listing.ts';
import { clip } from '../../budget/card-cut.ts';
import { readSet, setContents } from '../../services/sets.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { bindingWithSections } from '../views.ts';
import { budgetView } from '../budget-view.ts';
import { checkBudget, MIN_BUDGET_TOKENS, packListing } from '../packed-list.ts';
import { oneLine, skippedCount, skippedLine, skippedView } from './set-view.ts';

export const getSetContextTool = defineTool({
  name: 'get_set_context',
  title: 'Load a set under a token budget',
  category: 'set',
  description:
    'Load a set\'s bindings in one call, packed under maxTokens (a hard cap on this whole answer). strategy "ordered" (default): in position order, stopping at the first item that does not fit. "fill": skip what does not fit and keep going. fallback (default true): an item too big at the tier asked for (default "2") is tried at 1.5, then 1, before it is left out. Omitted items are named with their cost, as many as the budget leaves room for (any budget from 50 answers, however large the set); _meta.context.budget has the figures and every omitted id. query: fill the budget with the sections that match it, best first, from any item (tier, strategy and fallback are then ignored).',
  aliases: ['load context', 'pack set', 'budget', 'fill context window', 'set context budget'],
  input: z.strictObject({
    setId: setId(),
    maxTokens: maxTokensSchema().min(MIN_BUDGET_TOKENS, { message: `must be at least ${MIN_BUDGET_TOKENS} tokens` }),
    tier: tierSchema.default('2'),
    strategy: z.enum(['ordered', 'fill'], { message: 'must be "ordered" or "fill"' }).default('ordered'),
    fallback: z.boolean().default(true),
    query: querySchema().optional(),
  }),
  output: z.object({
    set: z.object({ id: z.string(), name: z.string(), space: z.string(), itemCount: z.number(), totalTokenCount: z.number() }),
    items: z.array(bindingWithSections.extend({ position: z.number(), pinned: z.boolean() })),
    skipped: z.array(skippedView),
    budget: budgetView,
  }),
  bound: { kind: 'budget' },
  annotations: { readOnlyHint: true },
  async handler(args, ctx) {
    checkBudget(args.maxTokens, ctx);
    const set = await readSet(ctx, ctx.caller, args.setId);
    const contents = await setContents(ctx, ctx.caller, set);
    const n = contents.items.length;
    if (args.query !== undefined) {
      const header = line(
        `## Set "${oneLine(set.name)}" (${set.id}, @${set.spaceSlug}): ${n} item${n === 1 ? '' : 's'}, sections matching "${clip(oneLine(args.query), 200)}", best first, within ${args.maxTokens} tokens`,
      );
      const trailer: Piece[] = [...skippedLine(contents.skipped, set.spaceOwnerId === ctx.caller.id)];
      if (n === 0) trailer.push(line('The set has no readable items.'));
      const compact = {
        header: [line(`## Set ${set.id}: ${n} item${n === 1 ? '' : 's'}, best sections first`)],
        trailer: [...skippedCount(contents.skipped), ...(n === 0 ? [line('The set has no readable items.')] : [])],
      };
      const q = await packByQuery(
        { header: [header], rows: contents.items.map((it) => it.row), query: args.query, maxTokens: args.maxTokens, trailer, compact },
        ctx,
      );
      const shown = contents.items.flatMap((it, i) => (q.views[i] ? [{ ...q.views[i]!, position: it.position, pinned: it.pinned }] : []));
      // Best match first, as in the text.
      const rank = new Map(q.budget!.included.map((inc, r) => [inc.id, r]));
      shown.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
      const budget = q.budget!;
      const setInfo = { id: set.id, name: set.name, space: `@${set.spaceSlug}`, itemCount: n, totalTokenCount: contents.totalTokenCount };
      return { pieces: q.pieces, data: { set: setInfo, items: shown, skipped: contents.skipped, budget }, meta: { budget } };
    }
    const how = `${args.strategy} at tier ${args.tier}${args.fallback && args.tier !== '1' ? ' (lower tiers allowed)' : ''}`;
    const header = line(
      `## Set "${oneLine(set.name)}" (${set.id}, @${set.spaceSlug}): ${n} item${n === 1 ? '' : 's'}, ${how}, within ${args.maxTokens} tokens`,
    );
    const empty = n === 0 ? [line('The set has no readable items.')] : [];
    const trailer: Piece[] = [...skippedLine(contents.skipped, set.spaceOwnerId === ctx.caller.id), ...empty];
    // For a budget too small for the name and every skipped id: the id, the count, and skipped counted.
    const compact = {
      header: [line(`## Set ${set.id}: ${n} item${n === 1 ? '' : 's'}`)],
      trailer: [...skippedCount(contents.skipped), ...empty],
    };
    const listing = await packListing(
      {
        header: [header],
        rows: contents.items.map((it) => it.row),
        tier: args.tier,
        maxTokens: args.maxTokens,
        strategy: args.strategy,
        fallback: args.fallback,
        trailer,
        compact,
      },
      ctx,
    );
    let k = 0;
    const items = contents.items.flatMap((it, i) =>
      listing.rowTiers[i] ? [{ ...listing.views[k++]!, position: it.position, pinned: it.pinned }] : [],
    );
    const budget = listing.budget!;
    return {
      pieces: listing.pieces,
      data: {
        set: { id: set.id, name: set.name, space: `@${set.spaceSlug}`, itemCount: n, totalTokenCount: contents.totalTokenCount },
        items,
        skipped: contents.skipped,
        budget,
      },
      meta: { budget },
    };
  },
});
