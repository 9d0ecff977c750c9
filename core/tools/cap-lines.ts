import type { ToolContext } from '../context.ts';
import type { Piece } from '../tokens/doc.ts';

/** Room kept under the response cap for the paging line and the short lines after the items. */
export const CAP_RESERVE = 300;

/**
 * The longest prefix of a page's items (each one or more pieces) that keeps the answer within the
 * response cap (less CAP_RESERVE), with `framing` (the page's other lines) counted in. A page of
 * `limit` long items can pass the cap; it then ends early and its cursor continues from the first
 * item left out. The first item is always kept, so paging always moves. Kept pieces carry their
 * counts; stored counts are used as they are.
 */
export function groupsUnderCap(
  framing: readonly Piece[],
  groups: readonly (readonly Piece[])[],
  ctx: Pick<ToolContext, 'config' | 'tokens'>,
): Piece[][] {
  const room = ctx.config.maxResponseTokens - CAP_RESERVE;
  const counted = (p: Piece): Piece => (p.tokens === undefined ? { ...p, tokens: ctx.tokens.count(p.text) } : p);
  let used = framing.reduce((n, p) => n + counted(p).tokens!, 0);
  const kept: Piece[][] = [];
  for (const group of groups) {
    const pieces = group.map(counted);
    const tokens = pieces.reduce((n, p) => n + p.tokens!, 0);
    if (kept.length > 0 && used + tokens > room) break;
    used += tokens;
    kept.push(pieces);
  }
  return kept;
}

/** `groupsUnderCap` for items of one line each. */
export function itemsUnderCap(framing: readonly Piece[], items: readonly Piece[], ctx: Pick<ToolContext, 'config' | 'tokens'>): Piece[] {
  return groupsUnderCap(
    framing,
    items.map((i) => [i]),
    ctx,
  ).map((g) => g[0]!);
}
