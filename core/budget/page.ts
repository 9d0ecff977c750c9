import type { TokenCounter } from '../tokens/counter';
import { renderContent } from './tier';

/**
 * Splits content that is too large for one response into pages of whole lines whose rendered block
 * is at most `pageTokens` (a single over-long line is split by characters). Only huge documents take
 * this path, and only they are counted at read time.
 */
export function splitPages(content: string, pageTokens: number, tokens: TokenCounter): string[] {
  const frame = tokens.count(renderContent('', { index: 999, count: 999 })) + 2;
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
