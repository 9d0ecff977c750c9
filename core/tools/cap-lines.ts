import type { ToolContext } from '../context';
import type { Piece } from '../tokens/doc';

/** Room kept under the response cap for the paging line and the short lines after the items. */
export const CAP_RESERVE = 300;

/**
 * The longest prefix of a page's item lines that keeps the answer within the response cap (less
 * CAP_RESERVE), with `framing` (the page's other lines) counted in. A page of `limit` long names can
 * pass the cap; it then ends early and its cursor continues from the first line left out. The first
 * item is always kept, so paging always moves. The kept lines come back with their counts.
 */
export function itemsUnderCap(framing: readonly Piece[], items: readonly Piece[], ctx: Pick<ToolContext, 'config' | 'tokens'>): Piece[] {
  const room = ctx.config.maxResponseTokens - CAP_RESERVE;
  let used = framing.reduce((n, p) => n + (p.tokens ?? ctx.tokens.count(p.text)), 0);
  const kept: Piece[] = [];
  for (const item of items) {
    const tokens = item.tokens ?? ctx.tokens.count(item.text);
    if (kept.length > 0 && used + tokens > room) break;
    used += tokens;
    kept.push({ ...item, tokens });
  }
  return kept;
}
