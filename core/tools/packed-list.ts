import { tierCost, type Tier } from '../budget/tier.ts';
import type { ToolContext } from '../context.ts';
import { fail } from '../errors.ts';
import { line, type Piece } from '../tokens/doc.ts';
import { paginate } from '../cursor.ts';
import { bindingAt, type BindingView } from './views.ts';
import { freshCounts, loadSections, missingContents } from '../services/counts.ts';
import { footerPieces, listingText } from './omitted-footer.ts';
import { CAP_RESERVE } from './cap-lines.ts';
import { chooseTiers, omittedPrices, rowCosts, type Choice, type ListingRequest, type TierCosts } from './packed-choice.ts';

export { MAX_FOOTER_LINES } from './omitted-footer.ts';
export type { ListingRequest, RowExtra } from './packed-choice.ts';

export interface PackedItem {
  id: string;
  tier: Tier | 'passage';
  tokens: number;
}
export interface OmittedItem {
  id: string;
  tokens: number;
  reason?: string;
}

/** The `_meta.context.budget` block (docs/reference/tiers-and-budgets.md#budgets-maxtokens). */
export interface BudgetReport {
  maxTokens: number;
  usedTokens: number;
  remainingTokens: number;
  exhausted: boolean;
  included: PackedItem[];
  omitted: OmittedItem[];
}

export interface PackedListing {
  pieces: Piece[];
  views: BindingView[];
  /** The tier each row was shown at (aligned with the request's rows), or null when left out. */
  rowTiers: (Tier | null)[];
  included: PackedItem[];
  omitted: OmittedItem[];
  /** Exact tokens of `pieces` (header, items, trailer, footer). */
  totalTokens: number;
  /** Present when the caller gave a budget. */
  budget?: BudgetReport;
}

/** The smallest budget any tool accepts: a compact heading and a one-line count of what was left out fit in it. */
export const MIN_BUDGET_TOKENS = 50;

/** Rejects a budget outside what a response may be (0, negative and fractions fail the schema). */
export function checkBudget(maxTokens: number | undefined, ctx: ToolContext): void {
  if (maxTokens === undefined) return;
  if (maxTokens < MIN_BUDGET_TOKENS) {
    throw fail.invalid(
      'maxTokens',
      `is ${maxTokens} but must be at least ${MIN_BUDGET_TOKENS} tokens (the smallest answer that can name what it left out)`,
    );
  }
  if (maxTokens > ctx.config.maxResponseTokens) {
    throw fail.invalid(
      'maxTokens',
      `is ${maxTokens} but must be at most ${ctx.config.maxResponseTokens} (the response cap, BINDERY_MAX_RESPONSE_TOKENS)`,
    );
  }
}

/** Rendering: the chosen rows' pieces and views (content and sections read only where shown), the footer and the report. */
async function renderListing(
  req: ListingRequest,
  ctx: ToolContext,
  costs: TierCosts[],
  choice: Choice,
  budget: number,
  budgeted: boolean,
): Promise<PackedListing> {
  const { result, framing, footer, notes } = choice;
  const contents = await missingContents(
    ctx,
    req.rows.filter((_, i) => result.chosen[i] === '2'),
  );
  // Sections only for the rows shown at tier 1.5 (their outline); lists at other tiers never read them.
  await loadSections(
    ctx,
    req.rows.filter((_, i) => result.chosen[i] === '1.5'),
  );
  const pieces: Piece[] = [...framing.header];
  const views: BindingView[] = [];
  const included: PackedItem[] = [];
  const omitted: (OmittedItem & { index: number })[] = [];
  const footerRows = omittedPrices(req);
  req.rows.forEach((row, i) => {
    const tier = result.chosen[i];
    if (!tier) {
      omitted.push({ id: row.bindingId, tokens: footerRows[i]!.tokens, index: i });
      return;
    }
    const full = tier === '2' && row.content === undefined ? { ...row, content: contents.get(row.versionId) ?? '' } : row;
    const at = bindingAt(full, tier, ctx);
    const extra = req.extras?.[i];
    pieces.push(...at.pieces, ...(extra ? [extra.piece] : []));
    views.push(extra ? { ...at.view, ...extra.fields } : at.view);
    included.push({ id: row.bindingId, tier, tokens: costs[i]![tier] });
  });
  pieces.push(...framing.trailer, ...notes);
  if (footer)
    pieces.push(
      ...footerPieces(
        listingText(footerRows, req.priceTier ?? req.tier),
        omitted.map((o) => o.index),
        result.footer,
        footer,
      ),
    );
  const omittedOut = omitted.map(({ id, tokens }) => ({ id, tokens }));
  const used = result.totalTokens + notes.reduce((n, p) => n + p.tokens!, 0);
  return {
    pieces,
    views,
    rowTiers: result.chosen,
    included,
    omitted: omittedOut,
    totalTokens: used,
    budget: budgeted
      ? {
          maxTokens: budget,
          usedTokens: used,
          remainingTokens: budget - used,
          exhausted: omitted.length > 0,
          included,
          omitted: omittedOut,
        }
      : undefined,
  };
}

/**
 * Lays out bindings under a budget with stored counts: header framing, each item at its chosen tier,
 * the trailer, and (with a budget) a footer about the omitted items, naming as many with their cost
 * as the room left holds (all of them are in the budget report). The text is at most the budget,
 * counted exactly; only framing lines are tokenized, never stored content.
 */
export async function packListing(req: ListingRequest, ctx: ToolContext): Promise<PackedListing> {
  await freshCounts(ctx, req.rows);
  const budgeted = req.maxTokens !== undefined;
  // Without a budget the page fills the response cap less the room kept for the paging line after it.
  const budget = req.maxTokens ?? Math.min(req.pageTokens ?? Infinity, ctx.config.maxResponseTokens - CAP_RESERVE);
  const costs = rowCosts(req);
  return renderListing(req, ctx, costs, chooseTiers(req, ctx, costs, budget, budgeted), budget, budgeted);
}

/**
 * A page of a list or search: with a budget the whole page is packed and the cursor moves past it;
 * without one the page is cut to the response cap and the cursor continues from the first item left.
 */
export async function pagedListing(
  req: ListingRequest & { scope: string; offset: number; total: number; empty: string },
  ctx: ToolContext,
) {
  const trailer: Piece[] = [...(req.trailer ?? [])];
  const compactTrailer: Piece[] = [...(req.compact?.trailer ?? [])];
  const more = (cursor: string | null) => line(`More: call again with cursor "${cursor}".`);
  let pagination = await paginate(ctx.db, req.scope, req.offset, req.rows.length, req.total);
  if (req.maxTokens !== undefined && pagination.hasMore) {
    trailer.push(more(pagination.nextCursor));
    // A cursor carries its query: a small budget points to it instead of spelling it out.
    compactTrailer.push(line('More: call again with cursor = pagination.nextCursor.'));
  }
  if (req.total === 0) for (const t of [trailer, compactTrailer]) t.push(line(req.empty));
  const compact = req.compact && { header: req.compact.header, trailer: compactTrailer };
  const listing = await packListing({ ...req, trailer, compact }, ctx);
  const pieces = [...listing.pieces];
  if (req.maxTokens === undefined) {
    const first = req.rows[0];
    if (first && listing.included.length === 0) {
      // Only a cap smaller than one card gets here; an empty page with the same cursor would loop.
      throw fail.tooLarge(
        'response',
        `binding ${first.bindingId} alone is ${tierCost(first, req.tier)} tokens at tier ${req.tier}, over the ${ctx.config.maxResponseTokens}-token response cap (BINDERY_MAX_RESPONSE_TOKENS); ask for tier "1" or raise the cap`,
      );
    }
    pagination = await paginate(ctx.db, req.scope, req.offset, listing.included.length, req.total);
    if (pagination.hasMore) pieces.push(more(pagination.nextCursor));
  }
  return { listing, pagination, pieces };
}
