import type { FooterCosts, FooterPlan } from '../budget/footer.ts';
import type { Tier } from '../budget/tier.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import type { Piece } from '../tokens/doc.ts';

// The text of the omitted footer (core/budget/footer.ts chooses its form from costs alone).
export const FOOTER_HEAD = 'Omitted (over budget; fetch them by id later):\n';
/** The most omitted items the footer names one per line; the rest are counted. */
export const MAX_FOOTER_LINES = 10;

/** The footer line naming one omitted item and its cost at the requested tier. */
export function omitLine(id: string, tokens: number, tier: Tier): string {
  return `- ${id} · ${tokens} tokens at tier ${tier}\n`;
}

/** The footer's last line when more items were omitted than it names. */
export function moreLine(m: number): string {
  return `- …and ${m} more (ids in _meta.context.budget.omitted)\n`;
}

/** The whole footer when not even one named line fits: a count and where the ids are. */
export function countLine(m: number): string {
  return `Omitted: ${m} item${m === 1 ? '' : 's'} over budget; ids in _meta.context.budget.omitted.\n`;
}

/** A row as the footer would name it: its id and its cost at the requested tier. */
export interface FooterRow {
  id: string;
  tokens: number;
}

/** The footer's costs, plus the exact check of the lines whose counts were shared. */
export interface ListingFooter extends FooterCosts {
  /** True when the counted line the plan writes for `omitted` items costs what was assumed. */
  exact(plan: FooterPlan, omitted: number): boolean;
}

/**
 * Footer costs for a budgeted listing, counting only the lines the packer asks about. With `perCount`
 * false, the count and "…and N more" lines are counted once per form of N (digits, and 1 for the
 * singular): o200k and cl100k give every number of 1–3 digits one token, so packing a set of any size
 * tokenizes a handful of short lines; `exact` checks the lines finally written, and should a
 * tokenizer disagree the caller packs again with `perCount` true (a count for each N).
 */
export function listingFooter(rows: readonly FooterRow[], tier: Tier, tokens: TokenCounter, perCount: boolean): ListingFooter {
  const lineMemo = new Map<number, number>();
  const lineTokens = (i: number) => {
    let n = lineMemo.get(i);
    if (n === undefined) lineMemo.set(i, (n = tokens.count(omitLine(rows[i]!.id, rows[i]!.tokens, tier))));
    return n;
  };
  const form = (m: number) => (perCount ? String(m) : m === 1 ? 'one' : `${String(m).length} digits`);
  const moreMemo = new Map<string, number>();
  const countMemo = new Map<string, number>();
  const shared = (seen: Map<string, number>, text: (m: number) => string) => (m: number) => {
    let n = seen.get(form(m));
    if (n === undefined) seen.set(form(m), (n = tokens.count(text(m))));
    return n;
  };
  const moreTokens = shared(moreMemo, moreLine);
  const countTokens = shared(countMemo, countLine);
  return {
    baseTokens: tokens.count(FOOTER_HEAD),
    maxLines: MAX_FOOTER_LINES,
    lineTokens,
    moreTokens,
    countTokens,
    exact(plan, omitted) {
      if (perCount || omitted === 0 || plan.named === omitted) return true;
      return plan.named === 0
        ? tokens.count(countLine(omitted)) === countTokens(omitted)
        : tokens.count(moreLine(omitted - plan.named)) === moreTokens(omitted - plan.named);
    },
  };
}

/** The footer's pieces for the omitted rows (indices into `rows`, ascending) as `plan` chose it, with their counts. */
export function footerPieces(
  rows: readonly FooterRow[],
  omitted: readonly number[],
  plan: FooterPlan,
  tier: Tier,
  footer: FooterCosts,
): Piece[] {
  const m = omitted.length;
  if (m === 0) return [];
  if (plan.named === 0) return [{ text: countLine(m), tokens: footer.countTokens(m) }];
  const pieces: Piece[] = [{ text: FOOTER_HEAD, tokens: footer.baseTokens }];
  for (const i of omitted.slice(0, plan.named))
    pieces.push({ text: omitLine(rows[i]!.id, rows[i]!.tokens, tier), tokens: footer.lineTokens(i) });
  if (plan.named < m) pieces.push({ text: moreLine(m - plan.named), tokens: footer.moreTokens(m - plan.named) });
  return pieces;
}
