import { FALLBACK_ORDER, type Tier } from './tier';

/** One packable item: its stored cost at each tier and the cost of its line in the omitted list. */
export interface PackCandidate {
  costs: Record<Tier, number>;
  omitLineTokens: number;
}

/** The omitted-items footer: a heading, one line per item up to `maxLines`, then "…and N more". */
export interface FooterCosts {
  baseTokens: number;
  maxLines: number;
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
  fits: boolean;
}

/** Exact cost of the footer for the omitted items (ascending indices). */
export function footerTokens(footer: FooterCosts, items: readonly PackCandidate[], omitted: readonly number[]): number {
  if (omitted.length === 0) return 0;
  let n = footer.baseTokens;
  for (let i = 0; i < Math.min(omitted.length, footer.maxLines); i++) n += items[omitted[i]!]!.omitLineTokens;
  if (omitted.length > footer.maxLines) n += footer.moreTokens(omitted.length - footer.maxLines);
  return n;
}

function total(input: PackInput, chosen: (Tier | null)[]): number {
  let n = input.headerTokens;
  const omitted: number[] = [];
  chosen.forEach((t, i) => (t ? (n += input.items[i]!.costs[t]) : omitted.push(i)));
  return n + footerTokens(input.footer, input.items, omitted);
}

/**
 * Packs items under a token budget. Pure: it reads stored costs only. The total (header, items,
 * footer naming what was left out) never exceeds `budget`; items are never cut.
 * - `ordered`: the longest prefix that fits; the first item that fits at no allowed tier ends it.
 * - `fill`: skips what does not fit and keeps going; at the end no omitted item could be added at any
 *   allowed tier without passing the budget.
 * With `fallback`, an item is tried at the requested tier and then at each lower one.
 */
export function pack(input: PackInput): PackResult {
  const { items, budget } = input;
  const tiers = input.fallback ? FALLBACK_ORDER[input.tier] : [input.tier];
  const chosen: (Tier | null)[] = items.map(() => null);
  const empty = total(input, chosen);
  if (empty > budget) return { chosen, totalTokens: empty, fits: false };

  if (input.strategy === 'ordered') {
    // With items 0..i-1 in, the omitted set is exactly the suffix, so each check is exact.
    let used = input.headerTokens;
    const suffixFooter = suffixFooters(input);
    for (let i = 0; i < items.length; i++) {
      const t = tiers.find((tier) => used + items[i]!.costs[tier] + suffixFooter[i + 1]! <= budget);
      if (!t) break;
      chosen[i] = t;
      used += items[i]!.costs[t];
    }
    return { chosen, totalTokens: total(input, chosen), fits: true };
  }

  // fill: greedy in order, then repair (the footer is not monotone in which items it names), then
  // top up until no omitted item fits.
  for (let i = 0; i < items.length; i++) {
    for (const t of tiers) {
      chosen[i] = t;
      if (total(input, chosen) <= budget) break;
      chosen[i] = null;
    }
  }
  for (let i = items.length - 1; i >= 0 && total(input, chosen) > budget; i--) chosen[i] = null;
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < items.length; i++) {
      if (chosen[i]) continue;
      for (const t of tiers) {
        chosen[i] = t;
        if (total(input, chosen) <= budget) {
          changed = true;
          break;
        }
        chosen[i] = null;
      }
    }
  }
  return { chosen, totalTokens: total(input, chosen), fits: true };
}

/** Footer cost when items i..n-1 are omitted, for every i (index n: nothing omitted). */
function suffixFooters(input: PackInput): number[] {
  const n = input.items.length;
  const out = new Array<number>(n + 1);
  for (let i = 0; i <= n; i++) {
    const omitted: number[] = [];
    for (let j = i; j < Math.min(n, i + input.footer.maxLines); j++) omitted.push(j);
    const m = n - i;
    let f = 0;
    if (m > 0) {
      f = input.footer.baseTokens;
      for (const j of omitted) f += input.items[j]!.omitLineTokens;
      if (m > input.footer.maxLines) f += input.footer.moreTokens(m - input.footer.maxLines);
    }
    out[i] = f;
  }
  return out;
}
