import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingRef, maxTokensSchema, querySchema, tierSchema } from '../schema.ts';
import { packByQuery } from '../query-listing.ts';
import { clip, oneLine } from '../../budget/card-cut.ts';
import { readableCurrent, resolveBindingRefs } from '../../services/binding-reads.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { bindingWithSections } from '../views.ts';
import { checkBudget, MAX_FOOTER_LINES, packListing } from '../packed-list.ts';
import { budgetView } from '../budget-view.ts';

export const getBindingsTool = defineTool({
  name: 'get_bindings',
  title: 'Get several bindings',
  category: 'binding',
  description:
    'Read 1–50 bindings in one call at a tier (default "1"); ids you cannot read are listed as not found. maxTokens packs them in order under a hard budget, lowering tiers (2 → 1.5 → 1) before leaving any out. query: show only their sections that match it, best first (tier is then ignored).',
  aliases: ['batch read', 'open several', 'fetch many documents'],
  input: z.strictObject({
    ids: z.array(bindingRef()).min(1, { message: 'must list 1 to 50 ids' }).max(50, { message: 'must list 1 to 50 ids' }),
    tier: tierSchema.default('1'),
    maxTokens: maxTokensSchema().optional(),
    query: querySchema().optional(),
  }),
  output: z.object({ results: z.array(bindingWithSections), notFound: z.array(z.string()), budget: budgetView.optional() }),
  bound: { kind: 'items', maxItems: 50, itemTokens: 400 },
  annotations: { readOnlyHint: true },
  async handler(args, ctx) {
    checkBudget(args.maxTokens, ctx);
    // Short ids (as a passage line shows them) read as the whole ids they name.
    const ids = [...new Set(await resolveBindingRefs(ctx, ctx.caller, [...new Set(args.ids)]))];
    // Content is loaded by packListing only for the items it shows at tier 2.
    const found = await readableCurrent(ctx, ctx.caller, ids);
    const rows = ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
    const notFound = ids.filter((id) => !found.has(id));
    const trailer: Piece[] = notFound.length ? [line(`Not found (missing, deleted or not yours to read): ${notFound.join(', ')}`)] : [];
    if (args.query !== undefined) {
      const header = line(
        `## Sections of ${rows.length} of ${ids.length} binding${ids.length === 1 ? '' : 's'} matching "${clip(oneLine(args.query), 200)}", best first`,
      );
      // A small budget: the header without the query, unknown ids counted (they are in notFound).
      const compact = {
        header: [line(`## Sections of ${rows.length} of ${ids.length}, best first`)],
        trailer: notFound.length ? [line(`Not found: ${notFound.length} (listed in notFound).`)] : [],
      };
      const q = await packByQuery({ header: [header], rows, query: args.query, maxTokens: args.maxTokens, trailer, compact }, ctx);
      const results = q.views.filter((v) => v !== null);
      return {
        pieces: q.pieces,
        data: { results, notFound, ...(q.budget ? { budget: q.budget } : {}) },
        meta: q.budget ? { budget: q.budget } : {},
      };
    }
    const header = line(`## ${rows.length} of ${ids.length} binding${ids.length === 1 ? '' : 's'} at tier ${args.tier}`);
    // A small budget cannot hold up to 49 unknown ids: it counts them instead.
    const compact = { header: [header], trailer: notFound.length ? [line(`Not found: ${notFound.length} (listed in notFound).`)] : [] };
    const listing = await packListing({ header: [header], rows, tier: args.tier, maxTokens: args.maxTokens, trailer, compact }, ctx);
    // Named up to MAX_FOOTER_LINES ids, so the note fits in the room the unbudgeted page keeps under
    // the cap (49 ids would not).
    const left = listing.omitted.map((o) => o.id);
    const named =
      left.slice(0, MAX_FOOTER_LINES).join(', ') + (left.length > MAX_FOOTER_LINES ? ` and ${left.length - MAX_FOOTER_LINES} more` : '');
    const omittedNote: Piece[] =
      args.maxTokens === undefined && left.length
        ? [line(`Over the response cap, not shown: ${named} (ask again with a lower tier or fewer ids).`)]
        : [];
    return {
      pieces: [...listing.pieces, ...omittedNote],
      data: { results: listing.views, notFound, ...(listing.budget ? { budget: listing.budget } : {}) },
      meta: listing.budget ? { budget: listing.budget } : {},
    };
  },
});
