import type { BindingVersionRow } from '../../db/store/bindings';
import { contentsByVersionId } from '../../db/store/contents';
import { pack, type FooterCosts } from '../budget/pack';
import { tierCost, type Tier } from '../budget/tier';
import type { ToolContext } from '../context';
import { fail } from '../errors';
import { line, type Piece } from '../tokens/doc';
import { paginate } from '../cursor';
import { bindingAt, type BindingView } from './views';
import { freshCounts } from '../services/counts';

export interface PackedItem {
  id: string;
  tier: Tier;
  tokens: number;
}
export interface OmittedItem {
  id: string;
  tokens: number;
  reason?: string;
}

/** The `_meta.context.budget` block (CONTRACT §6). */
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
  strategy?: 'ordered' | 'fill';
  fallback?: boolean;
  /** Framing after the items (skipped ids, paging hints); counted into the budget. */
  trailer?: Piece[];
  /** Per row (aligned with `rows`): lines shown right under the item and fields added to its view; their tokens count as the item's. */
  extras?: (RowExtra | undefined)[];
}

/** What a listing shows under one item besides its tier block (a search hit's match line). */
export interface RowExtra {
  piece: Piece & { tokens: number };
  fields: Record<string, unknown>;
}

/** The smallest budget any tool accepts: below it not even a heading and an omitted list fit. */
export const MIN_BUDGET_TOKENS = 50;
export const FOOTER_HEAD = 'Omitted (over budget; fetch them by id later):\n';
export const MAX_FOOTER_LINES = 10;
/** Without a budget the page fills the response cap less this, kept for the paging line after it. */
const UNBUDGETED_RESERVE = 300;

/** The footer line naming one omitted item and its cost at the requested tier. */
export function omitLine(id: string, tokens: number, tier: Tier): string {
  return `- ${id} · ${tokens} tokens at tier ${tier}\n`;
}

/** The footer's last line when more items were omitted than it names. */
export function moreLine(m: number): string {
  return `- …and ${m} more (all in _meta.context.budget.omitted)\n`;
}

/** Rejects a budget outside what a response may be (0, negative and fractions fail the schema). */
export function checkBudget(maxTokens: number | undefined, ctx: ToolContext): void {
  if (maxTokens === undefined) return;
  if (maxTokens < MIN_BUDGET_TOKENS) {
    throw fail.invalid('maxTokens', `is ${maxTokens} but must be at least ${MIN_BUDGET_TOKENS} tokens (the smallest answer that can name what it left out)`);
  }
  if (maxTokens > ctx.config.maxResponseTokens) {
    throw fail.invalid('maxTokens', `is ${maxTokens} but must be at most ${ctx.config.maxResponseTokens} (the response cap, BINDERY_MAX_RESPONSE_TOKENS)`);
  }
}

function counted(pieces: readonly Piece[], ctx: ToolContext): Piece[] {
  return pieces.map((p) => ({ ...p, tokens: p.tokens ?? ctx.tokens.count(p.text) }));
}

/**
 * Lays out bindings under a budget with stored counts: header framing, each item at its chosen tier,
 * the trailer, and (with a budget) a footer naming each omitted item with its cost. The text is at
 * most the budget, counted exactly; only framing lines are tokenized, never stored content.
 */
export async function packListing(req: ListingRequest, ctx: ToolContext): Promise<PackedListing> {
  await freshCounts(ctx, req.rows);
  const header = counted(req.header, ctx);
  const trailer = counted(req.trailer ?? [], ctx);
  const budgeted = req.maxTokens !== undefined;
  const budget = req.maxTokens ?? ctx.config.maxResponseTokens - UNBUDGETED_RESERVE;
  const costs = req.rows.map((r, i) => {
    const extra = req.extras?.[i]?.piece.tokens ?? 0;
    return { '1': tierCost(r, '1') + extra, '1.5': tierCost(r, '1.5') + extra, '2': tierCost(r, '2') + extra };
  });
  const lineMemo = new Map<number, number>();
  const lineTokens = (i: number) => {
    let n = lineMemo.get(i);
    if (n === undefined) lineMemo.set(i, (n = ctx.tokens.count(omitLine(req.rows[i]!.bindingId, costs[i]![req.tier], req.tier))));
    return n;
  };
  // The "…and N more" line is counted once per number of digits (o200k and cl100k give every number
  // of 1–3 digits one token); the line actually written is checked below and, should a tokenizer
  // disagree, packing is redone with a count per N.
  const moreMemo = new Map<number, number>();
  let moreKey = (m: number) => String(m).length;
  const moreTokens = (m: number) => {
    let n = moreMemo.get(moreKey(m));
    if (n === undefined) moreMemo.set(moreKey(m), (n = ctx.tokens.count(moreLine(m))));
    return n;
  };
  const footer: FooterCosts = budgeted
    ? { baseTokens: ctx.tokens.count(FOOTER_HEAD), maxLines: MAX_FOOTER_LINES, lineTokens, moreTokens }
    : { baseTokens: 0, maxLines: 0, lineTokens: () => 0, moreTokens: () => 0 };
  const headerTokens = [...header, ...trailer].reduce((n, p) => n + p.tokens!, 0);
  const input = {
    budget,
    headerTokens,
    footer,
    items: costs.map((c) => ({ costs: c })),
    tier: req.tier,
    strategy: req.strategy ?? (budgeted ? 'fill' : 'ordered'),
    fallback: req.fallback ?? budgeted,
  } as const;
  let result = pack(input);
  const finalRest = result.chosen.filter((t) => t === null).length - MAX_FOOTER_LINES;
  if (budgeted && finalRest > 0 && ctx.tokens.count(moreLine(finalRest)) !== moreTokens(finalRest)) {
    moreMemo.clear();
    moreKey = (m) => m;
    result = pack(input);
  }
  const notes: Piece[] = [];
  if (!budgeted && req.rows.length > 0 && result.chosen[0] === null) {
    // Without a budget the page is cut at the cap; a first item too large for it alone would stall
    // paging, so it is shown at the best lower tier instead, and said so.
    const first = pack({ ...input, items: input.items.slice(0, 1), fallback: true });
    if (first.chosen[0]) {
      result = { chosen: [first.chosen[0], ...req.rows.slice(1).map(() => null)], totalTokens: first.totalTokens, fits: true };
      notes.push(...counted([line(`${req.rows[0]!.bindingId} is too long for tier ${req.tier} in a list; shown at tier ${first.chosen[0]}. get_binding reads it in pages.`)], ctx));
    }
  }
  if (!result.fits) {
    throw fail.invalid('maxTokens', `is ${budget} but even an answer that leaves every item out needs ${result.totalTokens} tokens here; raise it to at least ${result.totalTokens}`);
  }

  const missing = req.rows.filter((r, i) => result.chosen[i] === '2' && r.content === undefined).map((r) => r.versionId);
  const contents = await contentsByVersionId(ctx.db, missing);
  const pieces: Piece[] = [...header];
  const views: BindingView[] = [];
  const included: PackedItem[] = [];
  const omitted: (OmittedItem & { index: number })[] = [];
  req.rows.forEach((row, i) => {
    const tier = result.chosen[i];
    if (!tier) {
      omitted.push({ id: row.bindingId, tokens: costs[i]![req.tier], index: i });
      return;
    }
    const full = tier === '2' && row.content === undefined ? { ...row, content: contents.get(row.versionId) ?? '' } : row;
    const at = bindingAt(full, tier, ctx);
    const extra = req.extras?.[i];
    pieces.push(...at.pieces, ...(extra ? [extra.piece] : []));
    views.push(extra ? { ...at.view, ...extra.fields } : at.view);
    included.push({ id: row.bindingId, tier, tokens: costs[i]![tier] });
  });
  pieces.push(...trailer, ...notes);
  if (budgeted && omitted.length) {
    pieces.push({ text: FOOTER_HEAD, tokens: footer.baseTokens });
    for (const o of omitted.slice(0, MAX_FOOTER_LINES)) pieces.push({ text: omitLine(o.id, o.tokens, req.tier), tokens: lineTokens(o.index) });
    const rest = omitted.length - MAX_FOOTER_LINES;
    if (rest > 0) pieces.push({ text: moreLine(rest), tokens: moreTokens(rest) });
  }
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
      ? { maxTokens: budget, usedTokens: used, remainingTokens: budget - used, exhausted: omitted.length > 0, included, omitted: omittedOut }
      : undefined,
  };
}

/**
 * A page of a list or search: with a budget the whole page is packed and the cursor moves past it;
 * without one the page is cut to the response cap and the cursor continues from the first item left.
 */
export async function pagedListing(
  req: ListingRequest & { scope: string; offset: number; total: number; empty: string },
  ctx: ToolContext,
) {
  const trailer: Piece[] = [];
  const more = (cursor: string | null) => line(`More: call again with cursor "${cursor}".`);
  let pagination = await paginate(ctx.db, req.scope, req.offset, req.rows.length, req.total);
  if (req.maxTokens !== undefined && pagination.hasMore) trailer.push(more(pagination.nextCursor));
  if (req.total === 0) trailer.push(line(req.empty));
  const listing = await packListing({ ...req, trailer }, ctx);
  const pieces = [...listing.pieces];
  if (req.maxTokens === undefined) {
    const first = req.rows[0];
    if (first && listing.included.length === 0) {
      // Only a cap smaller than one card gets here; an empty page with the same cursor would loop.
      throw fail.tooLarge('response', `binding ${first.bindingId} alone is ${tierCost(first, req.tier)} tokens at tier ${req.tier}, over the ${ctx.config.maxResponseTokens}-token response cap (BINDERY_MAX_RESPONSE_TOKENS); ask for tier "1" or raise the cap`);
    }
    pagination = await paginate(ctx.db, req.scope, req.offset, listing.included.length, req.total);
    if (pagination.hasMore) pieces.push(more(pagination.nextCursor));
  }
  return { listing, pagination, pieces };
}
