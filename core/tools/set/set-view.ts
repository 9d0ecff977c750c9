import { z } from 'zod';
import type { SetWithSpace } from '../../../db/store/sets.ts';
import type { SetContents } from '../../services/sets.ts';
import { tierCost } from '../../budget/tier.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { squashSpace } from '../../text.ts';

const tierTokens = z.object({ '1': z.number(), '1.5': z.number(), '2': z.number() });

/** JSON shape of a set's summary. */
export const setView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  space: z.string(),
  itemCount: z.number(),
  totalTokenCount: z.number().describe('content tokens of the items you can read, at their pinned or latest versions'),
  tierTokens: tierTokens.describe('stored cost of all those items at each tier'),
  updatedAt: z.string(),
});
export type SetView = z.infer<typeof setView>;

/** JSON shape of an item as get_set lists it. */
export const setItemView = z.object({
  position: z.number(),
  id: z.string(),
  name: z.string(),
  version: z.number(),
  pinned: z.boolean(),
  contentTokenCount: z.number(),
  tierTokens,
});

export const skippedView = z.object({ position: z.number(), id: z.string(), reason: z.string() });

/** The summary of a set as the caller sees it. */
export function toSetView(set: SetWithSpace, contents: Pick<SetContents, 'items' | 'totalTokenCount' | 'tierTokens'>): SetView {
  return {
    id: set.id,
    name: set.name,
    description: set.description,
    space: `@${set.spaceSlug}`,
    itemCount: contents.items.length,
    totalTokenCount: contents.totalTokenCount,
    tierTokens: contents.tierTokens,
    updatedAt: new Date(set.updatedAt).toISOString(),
  };
}

/** One line naming a set, its size and its cost. */
export function setLine(v: SetView): Piece {
  return line(
    `${v.id} · "${oneLine(v.name)}" · ${v.space} · ${v.itemCount} item${v.itemCount === 1 ? '' : 's'} · ${v.totalTokenCount} content tokens (tier 1: ${v.tierTokens['1']}, 1.5: ${v.tierTokens['1.5']}, 2: ${v.tierTokens['2']})`,
  );
}

/** The item lines of get_set and the JSON beside them. */
export function itemLines(items: SetContents['items']) {
  return items.map(({ position, pinned, row }) => {
    const view = {
      position,
      id: row.bindingId,
      name: row.name,
      version: row.number,
      pinned,
      contentTokenCount: row.contentTokenCount,
      tierTokens: { '1': tierCost(row, '1'), '1.5': tierCost(row, '1.5'), '2': tierCost(row, '2') },
    };
    const piece = line(
      `- #${position} ${row.bindingId} · "${oneLine(row.name)}" · v${row.number}${pinned ? ' (pinned)' : ''} · ${row.contentTokenCount} content tokens · tier 1/1.5/2 cost ${view.tierTokens['1']}/${view.tierTokens['1.5']}/${view.tierTokens['2']}`,
    );
    return { view, piece };
  });
}

/** A line naming skipped items, or nothing. */
export function skippedLine(skipped: SetContents['skipped'], owner: boolean): Piece[] {
  if (skipped.length === 0) return [];
  // At most ten are named, so a set full of deleted items still leaves room for the live ones.
  const named = skipped
    .slice(0, 10)
    .map((s) => `#${s.position} ${s.id} (${s.reason})`)
    .join(', ');
  const more = skipped.length > 10 ? `, and ${skipped.length - 10} more (all in skipped)` : '';
  return [line(`Skipped: ${named}${more}.${owner ? ' edit_set_items remove drops them.' : ''}`)];
}

/** The skipped items counted in one short line, for a budget too small to name them; or nothing. */
export function skippedCount(skipped: SetContents['skipped']): Piece[] {
  return skipped.length ? [line(`Skipped: ${skipped.length} (listed in skipped).`)] : [];
}

/** A set or item name in a set listing: white space squashed (core/text.ts), at most 200 characters. */
export function oneLine(s: string): string {
  return squashSpace(s).slice(0, 200);
}
