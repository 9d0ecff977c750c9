import type { BindingVersionRow } from '../../../db/store/bindings.ts';
import { loadedSections, renderContent, renderHead, tierObject, type Tier } from '../../budget/tier.ts';
import { splitPages, splitPreviewPages } from '../../budget/page.ts';
import { readCursor, issueCursor } from '../../cursor.ts';
import type { ToolContext } from '../../context.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import { fail } from '../../errors.ts';
import { bindingAt, facts, type BindingView } from '../views.ts';
import { freshCounts, loadSections } from '../../services/counts.ts';
import { renderOutline } from '../../budget/outline.ts';

/** Room left for framing when a tier-1.5 or tier-2 answer must be paged. */
export const PAGE_MARGIN = 200;

/** The cursor scope of a paged single-binding read (resources/read turns `?page=N` into its cursor). */
export function pageScope(row: Pick<BindingVersionRow, 'bindingId' | 'number'>, tier: Tier): string {
  return `page${tier === '2' ? '' : '1.5'}:${row.bindingId}:${row.number}`;
}

/**
 * A binding at a tier for a single-binding read. A tier-1.5 or tier-2 answer that would pass the
 * response cap comes in pages, each the card plus a part of the block, with the cursor to the next:
 * never cut silently. With the card within HEAD_TOKEN_BOUND, every cap leaves room for a page.
 */
export async function renderBindingAtTier(
  row: BindingVersionRow,
  tier: Tier,
  ctx: ToolContext,
  cursor?: string,
): Promise<{ pieces: Piece[]; view: BindingView }> {
  await freshCounts(ctx, [row]);
  if (tier === '1.5') await loadSections(ctx, [row]);
  const block = tier === '2' ? row.contentBlockTokens : tier === '1.5' ? row.previewBlockTokens + row.outlineBlockTokens : 0;
  const margin = tier === '2' ? PAGE_MARGIN : 0;
  if (tier === '0' || tier === '1' || row.headBlockTokens + block + margin <= ctx.config.maxResponseTokens) {
    if (cursor) throw fail.invalid('cursor', 'this binding is not paged at this tier; omit cursor');
    return bindingAt(row, tier, ctx);
  }
  await ctx.tokens.load();
  const pageTokens = ctx.config.maxResponseTokens - row.headBlockTokens - PAGE_MARGIN;
  const pages =
    tier === '2'
      ? splitPages(row.content!, pageTokens, ctx.tokens, row.fence).map((text, i, all) => ({
          text,
          block: renderContent(text, row.fence, { index: i + 1, count: all.length }),
        }))
      : splitPreviewPages(
          facts(row),
          pageTokens,
          ctx.tokens,
          row.outlineBlockTokens ? renderOutline(loadedSections(row), row.fence) : '',
        ).map((block) => ({ text: undefined, block }));
  const scope = pageScope(row, tier);
  const index = await readCursor(ctx.db, cursor, scope);
  if (index >= pages.length) throw fail.invalid('cursor', 'points past the last page');
  const nextCursor = index + 1 < pages.length ? await issueCursor(ctx.db, { scope, offset: index + 1 }) : null;
  const page = { index: index + 1, count: pages.length };
  const base = ctx.config.publicUrl;
  const whole = tierObject(facts(row), tier === '2' ? '1' : '1.5', base);
  const view = { ...whole, tier, ...(tier === '2' ? { content: pages[index]!.text } : {}), page: { ...page, nextCursor } } as BindingView;
  return {
    pieces: [
      { text: renderHead(facts(row), base), tokens: row.headBlockTokens },
      { text: pages[index]!.block },
      line(
        nextCursor
          ? `Page ${page.index} of ${page.count}. Next page: the same call with cursor "${nextCursor}".`
          : `Page ${page.index} of ${page.count} (last).`,
      ),
    ],
    view,
  };
}
