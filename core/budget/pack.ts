import { FALLBACK_ORDER, type Tier } from './tier';

/** One packable item: its stored cost at each tier. */
export interface PackCandidate {
  costs: Record<Tier, number>;
}

/**
 * The omitted-items footer: a heading, one line per omitted item (in item order) up to `maxLines`,
 * then one "…and N more" line. Line costs are asked for lazily, only for items the footer may name.
 */
export interface FooterCosts {
  baseTokens: number;
  maxLines: number;
  /** Tokens of the footer line naming item `index`. */
  lineTokens(index: number): number;
  /** Tokens of the "…and `rest` more" line. */
  moreTokens(rest: number): number;
}

export interface PackInput {
  budget: number;
  headerTokens: number;
  footer: FooterCosts;
  items: readonly PackCandidate[];
  tier: Tier;
  strategy: 'ordered' | 'fill';
  fallback: boolean;
}

export interface PackResult {
  /** Chosen tier per item index, or null when omitted. */
  chosen: (Tier | null)[];
  totalTokens: number;
  /** False when even the answer with every item omitted passes the budget (nothing is chosen then). */
  fits: boolean;
}

/** Exact cost of the footer for the omitted items (ascending indices). */
export function footerTokens(footer: FooterCosts, omitted: readonly number[]): number {
  if (omitted.length === 0) return 0;
  let n = footer.baseTokens;
  for (let i = 0; i < Math.min(omitted.length, footer.maxLines); i++) n += footer.lineTokens(omitted[i]!);
  if (omitted.length > footer.maxLines) n += footer.moreTokens(omitted.length - footer.maxLines);
  return n;
}

/**
 * Packs items under a token budget. Pure: it reads stored costs only. The total (header, items,
 * footer naming what was left out) never exceeds `budget`; items are never cut.
 * - `ordered`: items in order, each at the best allowed tier that fits; the first item that fits at no
 *   allowed tier ends it, so the result is the longest prefix that fits.
 * - `fill`: skips what does not fit and keeps going; at the end no omitted item could be added at any
 *   allowed tier without passing the budget (the footer it would leave is part of that check).
 * With `fallback`, an item is tried at the requested tier and then at each lower one.
 */
export function pack(input: PackInput): PackResult {
  const { items, budget, footer } = input;
  const n = items.length;
  const tiers = input.fallback ? FALLBACK_ORDER[input.tier] : [input.tier];
  const chosen: (Tier | null)[] = new Array(n).fill(null);
  const empty = input.headerTokens + suffixFooter(footer, 0, n);
  if (empty > budget) return { chosen, totalTokens: empty, fits: false };

  if (input.strategy === 'ordered') {
    // With items 0..i-1 in, the omitted set is exactly the suffix i.., so each check is exact.
    let used = input.headerTokens;
    let i = 0;
    for (; i < n; i++) {
      const rest = suffixFooter(footer, i + 1, n);
      const t = tiers.find((tier) => used + items[i]!.costs[tier] + rest <= budget);
      if (!t) break;
      chosen[i] = t;
      used += items[i]!.costs[t];
    }
    return { chosen, totalTokens: used + suffixFooter(footer, i, n), fits: true };
  }

  // fill: greedy in order, then top up until no omitted item fits (including one item can change
  // which others the footer names, so a later pass may find room an earlier one did not).
  let itemsSum = 0;
  let omittedCount = n;
  /** Footer cost when `skip` (an omitted index, or -1) is taken out of the omitted set. */
  const footerWithout = (skip: number): number => {
    const count = omittedCount - (skip >= 0 ? 1 : 0);
    if (count === 0) return 0;
    let f = footer.baseTokens;
    let named = 0;
    for (let i = 0; i < n && named < footer.maxLines; i++) {
      if (chosen[i] !== null || i === skip) continue;
      f += footer.lineTokens(i);
      named++;
    }
    if (count > footer.maxLines) f += footer.moreTokens(count - footer.maxLines);
    return f;
  };
  const tryAdd = (i: number): boolean => {
    const rest = footerWithout(i);
    const t = tiers.find((tier) => input.headerTokens + itemsSum + items[i]!.costs[tier] + rest <= budget);
    if (!t) return false;
    chosen[i] = t;
    itemsSum += items[i]!.costs[t];
    omittedCount--;
    return true;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < n; i++) if (chosen[i] === null && tryAdd(i)) changed = true;
  }
  return { chosen, totalTokens: input.headerTokens + itemsSum + footerWithout(-1), fits: true };
}

/** Footer cost when exactly the items from..n-1 are omitted. */
function suffixFooter(footer: FooterCosts, from: number, n: number): number {
  const count = n - from;
  if (count <= 0) return 0;
  let f = footer.baseTokens;
  for (let j = from; j < Math.min(n, from + footer.maxLines); j++) f += footer.lineTokens(j);
  if (count > footer.maxLines) f += footer.moreTokens(count - footer.maxLines);
  return f;
}
