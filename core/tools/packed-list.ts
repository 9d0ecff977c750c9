import type { BindingVersionRow } from '../../db/store/bindings';
import { pack, type FooterCosts } from '../budget/pack';
import { tierCost, type Tier } from '../budget/tier';
import type { ToolContext } from '../context';
import { fail } from '../errors';
import { line, type Piece } from '../tokens/doc';
import { paginate } from '../cursor';
import { bindingAt, type BindingView } from './views';

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

export interface PackedListing {
  pieces: Piece[];
  views: BindingView[];
  included: PackedItem[];
  omitted: OmittedItem[];
  /** Present when the caller gave a budget: the `_meta.context.budget` block. */
  budget?: { maxTokens: number; usedTokens: number; remainingTokens: number; exhausted: boolean; included: PackedItem[]; omitted: OmittedItem[] };
}

export interface ListingRequest {
  header: Piece[];
  rows: BindingVersionRow[];
  tier: Tier;
  /** With a budget: pack to it and name what was left out. Without: fill the response cap and page the rest. */
  maxTokens?: number;
  strategy?: 'ordered' | 'fill';
  fallback?: boolean;
  /** Items already known to be unavailable (deleted, unreadable), named in the footer text. */
  trailer?: Piece[];
}

const FOOTER_HEAD = 'Omitted (over budget; fetch them by id later):\n';
const MAX_FOOTER_LINES = 10;
/** Without a budget the page fills the response cap less this, kept for the paging line after it. */
const UNBUDGETED_RESERVE = 300;

/** Rejects a budget outside what a response may be. */
export function checkBudget(maxTokens: number | undefined, ctx: ToolContext): void {
  if (maxTokens !== undefined && maxTokens > ctx.config.maxResponseTokens) {
    throw fail.invalid('maxTokens', `must be at most ${ctx.config.maxResponseTokens} (the response cap, BINDERY_MAX_RESPONSE_TOKENS)`);
  }
}

/**
 * Lays out bindings under a budget with stored counts: header framing, each item at its chosen tier,
 * and (with a budget) a footer that names each omitted item with its cost. The text is at most the
 * budget, counted exactly.
 */
export function packListing(req: ListingRequest, ctx: ToolContext): PackedListing {
  const counted = (pieces: Piece[]) => pieces.reduce((n, p) => n + (p.tokens ?? ctx.tokens.count(p.text)), 0);
  const header = req.header.map((p) => ({ ...p, tokens: p.tokens ?? ctx.tokens.count(p.text) }));
  const trailer = (req.trailer ?? []).map((p) => ({ ...p, tokens: p.tokens ?? ctx.tokens.count(p.text) }));
  const budgeted = req.maxTokens !== undefined;
  const budget = req.maxTokens ?? ctx.config.maxResponseTokens - UNBUDGETED_RESERVE;
  const omitLine = (id: string, cost: number) => `- ${id} · ${cost} tokens at tier ${req.tier}\n`;
  const footer: FooterCosts = budgeted
    ? { baseTokens: ctx.tokens.count(FOOTER_HEAD), maxLines: MAX_FOOTER_LINES, moreTokens: (m) => ctx.tokens.count(moreLine(m)) }
    : { baseTokens: 0, maxLines: 0, moreTokens: () => 0 };
  const candidates = req.rows.map((r) => ({
    costs: { '1': tierCost(r, '1'), '1.5': tierCost(r, '1.5'), '2': tierCost(r, '2') },
    omitLineTokens: budgeted ? ctx.tokens.count(omitLine(r.bindingId, tierCost(r, req.tier))) : 0,
  }));
  const headerTokens = counted(header) + counted(trailer);
  const result = pack({
    budget,
    headerTokens,
    footer,
    items: candidates,
    tier: req.tier,
    strategy: req.strategy ?? (budgeted ? 'fill' : 'ordered'),
    fallback: req.fallback ?? budgeted,
  });
  if (!result.fits) {
    throw fail.invalid('maxTokens', `is ${budget} but even an empty answer needs ${result.totalTokens} tokens; raise it`);
  }
  const pieces: Piece[] = [...header];
  const views: BindingView[] = [];
  const included: PackedItem[] = [];
  const omitted: (OmittedItem & { lineTokens: number })[] = [];
  req.rows.forEach((row, i) => {
    const tier = result.chosen[i];
    if (!tier) {
      omitted.push({ id: row.bindingId, tokens: candidates[i]!.costs[req.tier], lineTokens: candidates[i]!.omitLineTokens });
      return;
    }
    const at = bindingAt(row, tier, ctx);
    pieces.push(...at.pieces);
    views.push(at.view);
    included.push({ id: row.bindingId, tier, tokens: candidates[i]!.costs[tier] });
  });
  pieces.push(...trailer);
  if (budgeted && omitted.length) {
    pieces.push({ text: FOOTER_HEAD, tokens: footer.baseTokens });
    omitted.slice(0, MAX_FOOTER_LINES).forEach((o) => pieces.push({ text: omitLine(o.id, o.tokens), tokens: o.lineTokens }));
    if (omitted.length > MAX_FOOTER_LINES) pieces.push(line(moreLine(omitted.length - MAX_FOOTER_LINES)));
  }
  const used = result.totalTokens;
  return {
    pieces,
    views,
    included,
    omitted: omitted.map(({ id, tokens }) => ({ id, tokens })),
    budget: budgeted
      ? { maxTokens: budget, usedTokens: used, remainingTokens: budget - used, exhausted: omitted.length > 0, included, omitted: omitted.map(({ id, tokens }) => ({ id, tokens })) }
      : undefined,
  };
}

function moreLine(m: number): string {
  return `- …and ${m} more (all in _meta.context.budget.omitted)\n`;
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
  const listing = packListing({ ...req, trailer }, ctx);
  const pieces = [...listing.pieces];
  if (req.maxTokens === undefined) {
    pagination = await paginate(ctx.db, req.scope, req.offset, listing.included.length, req.total);
    if (pagination.hasMore) pieces.push(more(pagination.nextCursor));
  }
  return { listing, pagination, pieces };
}
