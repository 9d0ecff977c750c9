import type { BindingVersionRow } from '../../../db/store/bindings';
import { renderContent, renderHead, type Tier } from '../../budget/tier';
import { splitPages } from '../../budget/page';
import { readCursor, issueCursor } from '../../cursor';
import type { ToolContext } from '../../context';
import { line, type Piece } from '../../tokens/doc';
import { fail } from '../../errors';
import { bindingAt, facts, type BindingView } from '../views';
import { freshCounts } from '../../services/counts';

/** Room left for framing when a tier-2 answer must be paged. */
const PAGE_MARGIN = 200;

/**
 * A binding at a tier for a single-binding read. Tier 2 content whose block would pass the response
 * cap comes in pages, each with the cursor to the next: never cut silently.
 */
export async function renderBindingAtTier(
  row: BindingVersionRow,
  tier: Tier,
  ctx: ToolContext,
  cursor?: string,
): Promise<{ pieces: Piece[]; view: BindingView }> {
  await freshCounts(ctx, [row]);
  const whole = row.headBlockTokens + row.contentBlockTokens + PAGE_MARGIN;
  if (tier !== '2' || whole <= ctx.config.maxResponseTokens) {
    if (cursor) throw fail.invalid('cursor', 'this binding is not paged at this tier; omit cursor');
    return bindingAt(row, tier, ctx);
  }
  const scope = `page:${row.bindingId}:${row.number}`;
  await ctx.tokens.load();
  const pageTokens = ctx.config.maxResponseTokens - row.headBlockTokens - PAGE_MARGIN;
  const pages = splitPages(row.content!, pageTokens, ctx.tokens);
  const index = await readCursor(ctx.db, cursor, scope);
  if (index >= pages.length) throw fail.invalid('cursor', 'points past the last page');
  const nextCursor = index + 1 < pages.length ? await issueCursor(ctx.db, { scope, offset: index + 1 }) : null;
  const { view } = bindingAt({ ...row, content: undefined }, '1', ctx);
  const page = { index: index + 1, count: pages.length };
  return {
    pieces: [
      { text: renderHead(facts(row), ctx.config.publicUrl), tokens: row.headBlockTokens },
      { text: renderContent(pages[index]!, page) },
      line(nextCursor ? `Page ${page.index} of ${page.count}. Next page: get_binding with cursor "${nextCursor}".` : `Page ${page.index} of ${page.count} (last).`),
    ],
    view: { ...view, tier: '2', content: pages[index]!, page: { ...page, nextCursor } },
  };
}
