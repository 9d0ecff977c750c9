import type { TokenCounter } from '../tokens/counter.ts';
import { cardRestLines, fenced, previewTail, renderContent, type CardFacts } from './render.ts';

/**
 * Splits content that is too large for one response into pages of whole lines whose rendered block
 * (between its fence lines) is at most `pageTokens` (a single over-long line is split by characters).
 * Only huge documents take this path, and only they are counted at read time.
 */
export function splitPages(content: string, pageTokens: number, tokens: TokenCounter, fence: string): string[] {
  const frame = tokens.count(renderContent('', fence, { index: 999, count: 999 })) + 2;
  const budget = Math.max(64, pageTokens - frame);
  const lines = content.split(/(?<=\n)/);
  const pages: string[] = [];
  let current = '';
  let used = 0;
  const flush = () => {
    if (current) pages.push(current);
    current = '';
    used = 0;
  };
  for (const line of lines) {
    const n = tokens.count(line) + 1;
    if (n > budget) {
      flush();
      for (const piece of splitLongLine(line, budget, tokens)) pages.push(piece);
      continue;
    }
    if (used + n > budget) flush();
    current += line;
    used += n;
  }
  flush();
  return pages;
}

/**
 * The tier-1.5 block in pages of at most about `pageTokens`, for a card whose whole block would pass the
 * response cap (a tiny cap, dense scripts). Lines of the card's rest stay whole where they fit (longer
 * ones continue on the next line); the preview keeps its fence on every part. Read-time counting, as for
 * tier-2 pages, happens only on this path.
 */
export function splitPreviewPages(v: CardFacts, pageTokens: number, tokens: TokenCounter, outline = ''): string[] {
  const budget = Math.max(64, pageTokens);
  const units: string[] = [];
  for (const line of cardRestLines(v)) {
    if (tokens.count(line) + 1 <= budget) units.push(line);
    else for (const piece of splitLongLine(line, budget, tokens)) units.push(piece.endsWith('\n') ? piece : `${piece}\n`);
  }
  // Room for "Preview:" and the part attribute besides what splitPages keeps for the fence lines.
  const parts = splitPages(v.contentPreview, budget - 12, tokens, v.fence);
  parts.forEach((part, i) => {
    const attrs = parts.length > 1 ? ` part="${i + 1}/${parts.length}"` : '';
    units.push(`${i === 0 ? 'Preview:\n' : ''}${fenced(part, v.fence, attrs)}`);
  });
  const tail = previewTail(v);
  if (tail) units.push(tail);
  // The outline is one unit: its fence lines must stay on one page, and it is within OUTLINE_TOKEN_BOUND.
  if (outline) units.push(outline);
  const pages: string[] = [];
  let current = '';
  let used = 0;
  for (const unit of units) {
    const n = tokens.count(unit) + 1;
    if (current && used + n > budget) {
      pages.push(current);
      current = '';
      used = 0;
    }
    current += unit;
    used += n;
  }
  if (current) pages.push(current);
  return pages;
}

/** A line too long for one page, in pieces of at most `budget` tokens, never splitting a surrogate pair. */
function splitLongLine(line: string, budget: number, tokens: TokenCounter): string[] {
  const out: string[] = [];
  let rest = line;
  while (rest.length) {
    let size = Math.min(rest.length, budget * 2);
    while (size > 1 && tokens.count(rest.slice(0, size)) + 1 > budget) size = Math.floor(size * 0.8);
    const code = rest.charCodeAt(size - 1);
    if (size < rest.length && code >= 0xd800 && code <= 0xdbff) size -= 1;
    out.push(rest.slice(0, Math.max(1, size)));
    rest = rest.slice(Math.max(1, size));
  }
  return out;
}
