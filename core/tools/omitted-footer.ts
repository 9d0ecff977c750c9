import type { FooterCosts, FooterPlan } from '../budget/footer.ts';
import type { Tier } from '../budget/tier.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import type { Piece } from '../tokens/doc.ts';

// The text of the one omitted footer every budgeted answer ends with (core/budget/footer.ts chooses its
// form from costs alone): a budgeted listing's items left out over budget (packed-list.ts), and a query
// read's items of which no section is shown (query-listing.ts). The heading and the count line say why,
// the one thing the two differ in; the item lines are each caller's own; the rest is the same words.

/** Why items were left out: a listing's did not fit; a query read's did not fit or matched nothing. */
export type OmittedReason = 'over budget' | 'unmatched or over budget';
/** A budgeted listing's reason. */
export const OVER_BUDGET: OmittedReason = 'over budget';
/** A query read's reason. */
export const OVER_BUDGET_OR_NO_MATCH: OmittedReason = 'unmatched or over budget';

/** The most omitted items the footer names one per line; the rest are counted. */
export const MAX_FOOTER_LINES = 10;

/** The heading over the named items. */
export function footerHead(reason: OmittedReason): string {
  return `Omitted (${reason}; fetch them by id later):\n`;
}

/** The footer's last line when more items were omitted than it names. */
export function moreLine(m: number): string {
  return `- …and ${m} more (ids in _meta.context.budget.omitted)\n`;
}

/** The whole footer when not even one named line fits: a count, why, and where the ids are. */
export function countLine(m: number, reason: OmittedReason): string {
  return `Omitted: ${m} item${m === 1 ? '' : 's'} ${reason}; ids in _meta.context.budget.omitted.\n`;
}

/** A listing's line naming one omitted item and its cost at the requested tier. */
export function omitLine(id: string, tokens: number, tier: Tier): string {
  return `- ${id} · ${tokens} tokens at tier ${tier}\n`;
}

/** What one footer says: why its items were left out, and the line naming item `i` (an index into the caller's rows). */
export interface FooterText {
  reason: OmittedReason;
  line(i: number): string;
}

/** A listing's footer text: over budget, each item named with its cost at `tier`. */
export function listingText(rows: readonly FooterRow[], tier: Tier): FooterText {
  return { reason: OVER_BUDGET, line: (i) => omitLine(rows[i]!.id, rows[i]!.tokens, tier) };
}

/** A row as a listing's footer would name it: its id and its cost at the requested tier. */
export interface FooterRow {
  id: string;
  tokens: number;
}

/** The footer's costs, plus the exact check of the lines whose counts were shared. */
export interface CountedFooter extends FooterCosts {
  /** True when the counted line the plan writes for `omitted` items costs what was assumed. */
  exact(plan: FooterPlan, omitted: number): boolean;
}

/**
 * The one way footer costs are counted, each line only when the packer asks about it, once. With
 * `perCount` false, the count and "…and N more" lines are counted once per form of N (digits, and 1
 * for the singular): o200k and cl100k give every number of 1–3 digits one token, so packing a set of
 * any size tokenizes a handful of short lines; `exact` checks the lines finally written, and should a
 * tokenizer disagree the caller packs again with `perCount` true (a count for each N).
 */
export function footerCosts(text: FooterText, tokens: TokenCounter, perCount: boolean): CountedFooter {
  const lineMemo = new Map<number, number>();
  const lineTokens = (i: number) => {
    let n = lineMemo.get(i);
    if (n === undefined) lineMemo.set(i, (n = tokens.count(text.line(i))));
    return n;
  };
  const form = (m: number) => (perCount ? String(m) : m === 1 ? 'one' : `${String(m).length} digits`);
  const shared = (text: (m: number) => string) => {
    const seen = new Map<string, number>();
    return (m: number) => {
      let n = seen.get(form(m));
      if (n === undefined) seen.set(form(m), (n = tokens.count(text(m))));
      return n;
    };
  };
  const count = (m: number) => countLine(m, text.reason);
  const moreTokens = shared(moreLine);
  const countTokens = shared(count);
  return {
    baseTokens: tokens.count(footerHead(text.reason)),
    maxLines: MAX_FOOTER_LINES,
    lineTokens,
    moreTokens,
    countTokens,
    exact(plan, omitted) {
      if (perCount || omitted === 0 || plan.named === omitted) return true;
      return plan.named === 0
        ? tokens.count(count(omitted)) === countTokens(omitted)
        : tokens.count(moreLine(omitted - plan.named)) === moreTokens(omitted - plan.named);
    },
  };
}

/** The footer's pieces for the omitted items (indices, in the order named) as `plan` chose it, with their counts. */
export function footerPieces(text: FooterText, omitted: readonly number[], plan: FooterPlan, footer: FooterCosts): Piece[] {
  const m = omitted.length;
  if (m === 0) return [];
  if (plan.named === 0) return [{ text: countLine(m, text.reason), tokens: footer.countTokens(m) }];
  const pieces: Piece[] = [{ text: footerHead(text.reason), tokens: footer.baseTokens }];
  for (const i of omitted.slice(0, plan.named)) pieces.push({ text: text.line(i), tokens: footer.lineTokens(i) });
  if (plan.named < m) pieces.push({ text: moreLine(m - plan.named), tokens: footer.moreTokens(m - plan.named) });
  return pieces;
}
