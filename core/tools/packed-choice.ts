// How a listing is chosen before it is rendered (./packed-list.ts renders it): what a listing asks for
// (ListingRequest), each row's exact cost at every tier, and which rows go in at which tier under the
// budget or the page size, with the full or the compact framing and a footer that matches what it names.
import type { BindingVersionRow } from '../../db/store/bindings.ts';
import { pack, type PackResult } from '../budget/pack.ts';
import { NO_FOOTER, type FooterCosts } from '../budget/footer.ts';
import { tierCost, type Tier } from '../budget/tier.ts';
import type { ToolContext } from '../context.ts';
import { fail } from '../errors.ts';
import { line, type Piece } from '../tokens/doc.ts';
import { footerCosts, listingText, type CountedFooter } from './omitted-footer.ts';

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

export function counted(pieces: readonly Piece[], ctx: ToolContext): Piece[] {
  return pieces.map((p) => ({ ...p, tokens: p.tokens ?? ctx.tokens.count(p.text) }));
}

export type TierCosts = Record<Tier, number>;
type Framing = { header: Piece[]; trailer: Piece[] };

/** Cost: each row's exact tokens at every tier (stored counts plus its extra line). */
export function rowCosts(req: ListingRequest): TierCosts[] {
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
export function omittedPrices(req: ListingRequest): { id: string; tokens: number }[] {
  return req.rows.map((r) => ({ id: r.bindingId, tokens: tierCost(r, req.priceTier ?? req.tier) }));
}

export interface Choice {
  result: PackResult;
  framing: Framing;
  footer: CountedFooter | undefined;
  notes: Piece[];
}

/**
 * Choice: which rows go in at which tier under the budget (or the page size), with the full framing
 * or the compact one when the full one leaves no room, and a footer whose size matches what it names.
 */
export function chooseTiers(req: ListingRequest, ctx: ToolContext, costs: TierCosts[], budget: number, budgeted: boolean): Choice {
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
  const text = listingText(footerRows, req.priceTier ?? req.tier);
  let footer: CountedFooter | undefined = budgeted ? footerCosts(text, ctx.tokens, false) : undefined;
  let { result, framing } = packFramed(footer ?? NO_FOOTER);
  if (footer && !footer.exact(result.footer, result.chosen.filter((t) => t === null).length)) {
    footer = footerCosts(text, ctx.tokens, true);
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
