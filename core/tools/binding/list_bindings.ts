import { z } from 'zod';
import { defineTool } from '../define.ts';
import { cursorSchema, limitSchema, maxTokensSchema, spaceRef, tierSchema } from '../schema.ts';
import { resolveSpace } from '../../services/bindings.ts';
import { listBindings } from '../../services/find.ts';
import { readCursor } from '../../cursor.ts';
import { line } from '../../tokens/doc.ts';
import { bindingView, paginationView } from '../views.ts';
import { checkBudget, pagedListing } from '../packed-list.ts';
import { budgetView } from '../budget-view.ts';

export const listBindingsTool = defineTool({
  name: 'list_bindings',
  title: 'List bindings',
  category: 'binding',
  description:
    'Browse bindings in a space (default: your personal space), most recently updated first, at tier "1" by default. Paged: follow pagination.nextCursor. maxTokens packs the page under a hard budget.',
  aliases: ['browse', 'show all documents', 'what is in this space'],
  input: z.strictObject({
    space: spaceRef().optional(),
    tier: tierSchema.default('1'),
    limit: limitSchema(100, 20),
    maxTokens: maxTokensSchema().optional(),
    cursor: cursorSchema().optional(),
  }),
  output: z.object({ space: z.string(), results: z.array(bindingView), pagination: paginationView, budget: budgetView.optional() }),
  bound: { kind: 'items', maxItems: 100, itemTokens: 400 },
  annotations: { readOnlyHint: true },
  async handler(args, ctx) {
    checkBudget(args.maxTokens, ctx);
    const space = await resolveSpace(ctx, ctx.caller, args.space);
    const scope = `list:${space.id}:${args.limit}:${args.tier}:${args.maxTokens ?? ''}`;
    const offset = await readCursor(ctx.db, args.cursor, scope);
    const found = await listBindings(ctx, ctx.caller, { spaceId: space.id, offset, limit: args.limit });
    // Tier-2 content is loaded by the packer, only for the hits it shows at tier 2.
    const rows = found.rows;
    const count = `${found.total} binding${found.total === 1 ? '' : 's'}${offset ? ` (from #${offset + 1})` : ''}`;
    const header = line(`## @${space.slug}: ${count}`);
    const { listing, pagination, pieces } = await pagedListing(
      {
        header: [header],
        compact: { header: [line(`## ${count}`)] },
        rows,
        tier: args.tier,
        maxTokens: args.maxTokens,
        scope,
        offset,
        total: found.total,
        empty: 'Empty. create_binding adds one.',
      },
      ctx,
    );
    return {
      pieces,
      data: { space: `@${space.slug}`, results: listing.views, pagination, ...(listing.budget ? { budget: listing.budget } : {}) },
      meta: { pagination, ...(listing.budget ? { budget: listing.budget } : {}) },
    };
  },
});
