/**
 * The omitted-items footer of a budgeted answer, as costs only (pure). It takes the richest form
 * that fits what the items left of the budget: a heading and one line per omitted item (in item
 * order, at most `maxLines`), the last of them giving way to one "…and N more" line as room runs
 * out, down to a single count line. The count line is the floor the packer reserves, so a budget
 * that holds the heading and that line answers whatever the number of items.
 */
export interface FooterCosts {
  /** Tokens of the heading over named items. */
  baseTokens: number;
  /** The most items the footer names one per line. */
  maxLines: number;
  /** Tokens of the line naming item `index`. */
  lineTokens(index: number): number;
  /** Tokens of the "…and `rest` more" line after the named ones. */
  moreTokens(rest: number): number;
  /** Tokens of the single line that only counts `omitted` items: the smallest footer. */
  countTokens(omitted: number): number;
}

/** The footer chosen: how many items it names (0: the count line alone) and its exact tokens. */
export interface FooterPlan {
  named: number;
  tokens: number;
}

/** Footer costs for an answer that writes no footer (no budget was given). */
export const NO_FOOTER: FooterCosts = { baseTokens: 0, maxLines: 0, lineTokens: () => 0, moreTokens: () => 0, countTokens: () => 0 };

/** The least the footer can cost with `omitted` items left out (nothing when none are). */
export function footerFloor(footer: FooterCosts, omitted: number): number {
  return omitted === 0 ? 0 : footer.countTokens(omitted);
}

/**
 * The richest footer for the omitted item indices (ascending) within `room` tokens: the most named
 * lines that fit, else the count line (which the packer has already made room for).
 */
export function planFooter(footer: FooterCosts, omitted: readonly number[], room: number): FooterPlan {
  const m = omitted.length;
  if (m === 0) return { named: 0, tokens: 0 };
  const top = Math.min(m, footer.maxLines);
  const prefix = [footer.baseTokens];
  for (let k = 1; k <= top; k++) prefix.push(prefix[k - 1]! + footer.lineTokens(omitted[k - 1]!));
  for (let k = top; k >= 1; k--) {
    const tokens = prefix[k]! + (k < m ? footer.moreTokens(m - k) : 0);
    if (tokens <= room) return { named: k, tokens };
  }
  return { named: 0, tokens: footer.countTokens(m) };
}

/** Exact cost of the footer for the omitted indices (ascending) within `room` (unlimited: the fullest form). */
export function footerTokens(footer: FooterCosts, omitted: readonly number[], room = Infinity): number {
  return planFooter(footer, omitted, room).tokens;
}
