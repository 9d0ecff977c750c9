import { FALLBACK_ORDER, type Tier } from './tier.ts';
import { footerFloor, planFooter, type FooterCosts, type FooterPlan } from './footer.ts';

export { footerTokens, planFooter, type FooterCosts, type FooterPlan } from './footer.ts';

/** One packable item: its stored cost at each tier. */
export interface PackCandidate {
  costs: Record<Tier, number>;
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
  /** False when even the header and the one-line count of every item pass the budget (nothing is chosen then). */
  fits: boolean;
  /** The footer written after the items: as many omitted items named as the room left allows. */
  footer: FooterPlan;
}

/**
 * Packs items under a token budget. Pure: it reads stored costs only. The total (header, items,
 * footer about what was left out) never exceeds `budget`; items are never cut. Items come first:
 * an item fits when the header, the items and the smallest footer (one count line) fit, and the
 * footer then names as many omitted items as the rest of the budget holds (see planFooter).
 * - `ordered`: items in order, each at the best allowed tier that fits; the first item that fits at no
 *   allowed tier ends it, so the result is the longest prefix that fits.
 * - `fill`: skips what does not fit and keeps going; at the end no omitted item could be added at any
 *   allowed tier without passing the budget.
 * With `fallback`, an item is tried at the requested tier and then at each lower one.
 */
export function pack(input: PackInput): PackResult {
  const { items, budget, footer } = input;
  const n = items.length;
  const tiers = input.fallback ? FALLBACK_ORDER[input.tier] : [input.tier];
  const chosen: (Tier | null)[] = new Array(n).fill(null);
  const empty = input.headerTokens + footerFloor(footer, n);
  if (empty > budget) return { chosen, totalTokens: empty, fits: false, footer: { named: 0, tokens: footerFloor(footer, n) } };

  let used = input.headerTokens;
  let omitted = n;
  const tryAdd = (i: number): boolean => {
    const floor = footerFloor(footer, omitted - 1);
    const t = tiers.find((tier) => used + items[i]!.costs[tier] + floor <= budget);
    if (!t) return false;
    chosen[i] = t;
    used += items[i]!.costs[t];
    omitted--;
    return true;
  };
  if (input.strategy === 'ordered') {
    for (let i = 0; i < n && tryAdd(i); i++);
  } else {
    // Greedy in order, then again while something got in: one fewer omitted item can shorten the
    // count line (fewer digits, "1 item"), which may make room for an item skipped before.
    for (let changed = true; changed; ) {
      changed = false;
      for (let i = 0; i < n; i++) if (chosen[i] === null && tryAdd(i)) changed = true;
    }
  }
  const left: number[] = [];
  chosen.forEach((t, i) => t === null && left.push(i));
  const plan = planFooter(footer, left, budget - used);
  return { chosen, totalTokens: used + plan.tokens, fits: true, footer: plan };
}
