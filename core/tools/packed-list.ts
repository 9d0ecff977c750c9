import type { BindingVersionRow } from '../../db/store/bindings.ts';
import { pack, type PackResult } from '../budget/pack.ts';
import { NO_FOOTER, type FooterCosts } from '../budget/footer.ts';
import { tierCost, type Tier } from '../budget/tier.ts';
import type { ToolContext } from '../context.ts';
import { fail } from '../errors.ts';
import { line, type Piece } from '../tokens/doc.ts';
import { paginate } from '../cursor.ts';
import { bindingAt, type BindingView } from './views.ts';
import { freshCounts, loadSections, missingContents } from '../services/counts.ts';
import { footerPieces, listingFooter, type ListingFooter } from './omitted-footer.ts';
import { CAP_RESERVE } from './cap-lines.ts';

export { FOOTER_HEAD, MAX_FOOTER_LINES, countLine, moreLine, omitLine } from './omitted-footer.ts';

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

export interface ListingRequest {
  header: Piece[];
  /** Rows read through an access check; tier-2 content is loaded here, only for rows shown at tier 2. */
  rows: BindingVersionRow[];
  tier: Tier;
  /** With a budget: pack to it and name what was left out. Without: fill the response cap and page the rest. */
  maxTokens?: number;
  /** Without a budget, fill this many tokens instead of the response cap (a default page size in tokens). */
  pageTokens?: number;
  strategy?: 'ordered' | 'fill';
  fallback?: boolean;
  /** Framing after the items (skipped ids, paging hints); counted into the budget. */
  trailer?: Piece[];
  /**
   * Shorter framing for a budget that cannot hold the header, the trailer and a one-line count of
   * the items: a small budget still answers (with ids and names that are long, or many skipped ids,
   * the full framing alone can pass 50 tokens). Keep it to a few tokens that do not grow with input.
   */
  compact?: { header: Piece[]; trailer?: Piece[] };
  /** Per row (aligned with `rows`): lines shown right under the item and fields added to its view; their tokens count as the item's. */
  extras?: (RowExtra | undefined)[];
  /** The tier omitted items are priced at (default `tier`): a page shown at a cheaper tier than asked still prices what it left out at the tier asked for. */
  priceTier?: Tier;
}

/** What a listing shows under one item besides its tier block (a search hit's match line). */
export interface RowExtra {
  piece: Piece & { tokens: number };
  fields: Record<string, unknown>;
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

function counted(pieces: readonly Piece[], ctx: ToolContext): Piece[] {
  return pieces.map((p) => ({ ...p, tokens: p.tokens ?? ctx.tokens.count(p.text) }));
}

type TierCosts = Record<Tier, number>;
type Framing = { header: Piece[]; trailer: Piece[] };

/** Cost: each row's exact tokens at every tier (stored counts plus its extra line). */
function rowCosts(req: ListingRequest): TierCosts[] {
  return req.rows.map((r, i) => {
    const extra = req.extras?.[i]?.piece.tokens ?? 0;
    return {
      '0': tierCost(r, '0') + extra,
      '1': tierCost(r, '1') + extra,
      '1.5': tierCost(r, '1.5') + extra,
      '2': tierCost(r, '2') + extra,
    };
  });
}

/**
 * What fetching each row by id costs at the tier the listing prices omitted items at: the footer's
 * "N tokens at tier T" and `budget.omitted[].tokens` (a listing's extra lines are not part of that read).
 */
function omittedPrices(req: ListingRequest): { id: string; tokens: number }[] {
  return req.rows.map((r) => ({ id: r.bindingId, tokens: tierCost(r, req.priceTier ?? req.tier) }));
}

interface Choice {
  result: PackResult;
  framing: Framing;
  footer: ListingFooter | undefined;
  notes: Piece[];
}

/**
 * Choice: which rows go in at which tier under the budget (or the page size), with the full framing
 * or the compact one when the full one leaves no room, and a footer whose size matches what it names.
 */
function chooseTiers(req: ListingRequest, ctx: ToolContext, costs: TierCosts[], budget: number, budgeted: boolean): Choice {
  const footerRows = omittedPrices(req);
  const framings: Framing[] = [
    { header: req.header, trailer: req.trailer ?? [] },
    ...(budgeted && req.compact ? [{ trailer: [], ...req.compact }] : []),
  ].map((f) => ({
    header: counted(f.header, ctx),
    trailer: counted(f.trailer, ctx),
  }));
  const input = {
    budget,
    items: costs.map((c) => ({ costs: c })),
    tier: req.tier,
    strategy: req.strategy ?? (budgeted ? 'fill' : 'ordered'),
    fallback: req.fallback ?? budgeted,
  } as const;
  /** Packs with the full framing, or with the compact one when the full one leaves no room even for the count line. */
  const packFramed = (footer: FooterCosts) => {
    let last: { result: PackResult; framing: Framing } | undefined;
    for (const framing of framings) {
      const headerTokens = [...framing.header, ...framing.trailer].reduce((n, p) => n + p.tokens!, 0);
      last = { result: pack({ ...input, headerTokens, footer }), framing };
      if (last.result.fits) break;
    }
    return last!;
  };
  let footer: ListingFooter | undefined = budgeted ? listingFooter(footerRows, req.priceTier ?? req.tier, ctx.tokens, false) : undefined;
  let { result, framing } = packFramed(footer ?? NO_FOOTER);
  if (footer && !footer.exact(result.footer, result.chosen.filter((t) => t === null).length)) {
    footer = listingFooter(footerRows, req.priceTier ?? req.tier, ctx.tokens, true);
    ({ result, framing } = packFramed(footer));
  }
  const notes: Piece[] = [];
  if (!budgeted && req.rows.length > 0 && result.chosen[0] === null) {
    // Without a budget the page is cut at the cap; a first item too large for it alone would stall
    // paging, so it is shown at the best lower tier instead, and said so.
    const first = pack({ ...input, headerTokens: result.totalTokens, footer: NO_FOOTER, items: input.items.slice(0, 1), fallback: true });
    if (first.chosen[0]) {
      result = { ...first, chosen: [first.chosen[0], ...req.rows.slice(1).map(() => null)] };
      notes.push(
        ...counted(
          [
            line(
              `${req.rows[0]!.bindingId} is too long for tier ${req.tier} in a list; shown at tier ${first.chosen[0]}. get_binding reads it in pages.`,
            ),
          ],
          ctx,
        ),
      );
    }
  }
  if (!result.fits) {
    throw fail.invalid(
      'maxTokens',
      `is ${budget} but even an answer that leaves every item out needs ${result.totalTokens} tokens here; raise it to at least ${result.totalTokens}`,
    );
  }
  return { result, framing, footer, notes };
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
        footerRows,
        omitted.map((o) => o.index),
        result.footer,
        req.priceTier ?? req.tier,
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
