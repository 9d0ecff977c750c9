import type { Tier } from '../../budget/tier.ts';
import type { ToolContext } from '../../context.ts';
import { readCursor } from '../../cursor.ts';
import { readSet, setContents } from '../../services/sets.ts';
import { line } from '../../tokens/doc.ts';
import { checkBudget, pagedListing } from '../packed-list.ts';
import { cappedText } from '../run.ts';
import { oneLine, skippedCount, skippedLine, toSetView } from './set-view.ts';

export interface SetPageArgs {
  id: string;
  tier: Tier;
  limit: number;
  cursor?: string;
  maxTokens?: number;
}

/**
 * A page of a set's items at a tier, laid out by the packer list_bindings uses: without a budget the
 * page ends at the response cap and its cursor continues from the first item left out; with one it is
 * packed under it. For REST `GET /api/sets/:id`, which shows items with their content.
 */
export async function setItemsPage(args: SetPageArgs, ctx: ToolContext) {
  checkBudget(args.maxTokens, ctx);
  const set = await readSet(ctx, ctx.caller, args.id);
  const contents = await setContents(ctx, ctx.caller, set);
  const scope = `set-items:${set.id}:${args.limit}:${args.tier}:${args.maxTokens ?? ''}`;
  const offset = await readCursor(ctx.db, args.cursor, scope);
  const entries = contents.items.slice(offset, offset + args.limit);
  const total = contents.items.length;
  const header = line(
    `## Set "${oneLine(set.name)}" (${set.id}, @${set.spaceSlug}): ${total} item${total === 1 ? '' : 's'}${offset ? ` (from #${offset + 1})` : ''}`,
  );
  const { listing, pagination, pieces } = await pagedListing(
    {
      header: [header],
      rows: entries.map((e) => e.row),
      tier: args.tier,
      maxTokens: args.maxTokens,
      trailer: skippedLine(contents.skipped, set.spaceOwnerId === ctx.caller.id),
      compact: {
        header: [line(`## Set ${set.id}: ${total} item${total === 1 ? '' : 's'}${offset ? ` (from #${offset + 1})` : ''}`)],
        trailer: skippedCount(contents.skipped),
      },
      scope,
      offset,
      total,
      empty: 'The set has no readable items.',
    },
    ctx,
  );
  await cappedText(pieces, ctx);
  let k = 0;
  const items = entries.flatMap((e, i) =>
    listing.rowTiers[i] ? [{ ...listing.views[k++]!, position: e.position, pinned: e.pinned }] : [],
  );
  return {
    set: { ...toSetView(set, contents), items, skipped: contents.skipped },
    pagination,
    ...(listing.budget ? { budget: listing.budget } : {}),
  };
}
