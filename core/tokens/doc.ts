import type { TokenCounter } from './counter.ts';

/**
 * A piece of a response text, with its token count when already known (stored at write time).
 * Pieces are joined at guaranteed tokenizer boundaries: each ends with "\n" and the next starts with
 * a character that is not white space, and is not "/" unless the newlines follow a letter or digit.
 * The o200k and cl100k pre-tokenizers can then never merge across the seam, so the count of the
 * whole text is exactly the sum of the pieces.
 */
export interface Piece {
  text: string;
  tokens?: number;
}

/** True when `next` may follow `prev` with additive token counts. */
export function isSafeSeam(prev: string, next: string): boolean {
  if (!prev.endsWith('\n') || next.length === 0) return false;
  const c = next[0]!;
  if (/\s/.test(c)) return false;
  return c !== '/' || endsWithWordThenNewlines(prev);
}

/**
 * True when the trailing newlines of `text` follow a letter or a digit. o200k's punctuation chunk
 * (` ?[^\s\p{L}\p{N}]+[\r\n/]*`) carries newlines and slashes after punctuation, so a "/" after
 * "…)\n" would join it; after "…v3\n" the newlines are a chunk of their own and "/" starts a new one
 * (a comment body or a summary that begins with a path then keeps its stored count).
 */
function endsWithWordThenNewlines(text: string): boolean {
  let i = text.length;
  while (i > 0 && (text[i - 1] === '\n' || text[i - 1] === '\r')) i--;
  if (i === 0) return false;
  const start = i >= 2 && /[\udc00-\udfff]/.test(text[i - 1]!) && /[\ud800-\udbff]/.test(text[i - 2]!) ? i - 2 : i - 1;
  return /^[\p{L}\p{N}]$/u.test(text.slice(start, i));
}

/** Framing text the server writes now; counted on demand. Always ends with a newline. */
export function line(text: string): Piece {
  return { text: text.endsWith('\n') ? text : `${text}\n` };
}

/**
 * Joins pieces into the response text and its exact token count. Stored counts are trusted and
 * framing is counted; a seam that is not safe merges its neighbours and counts them together, so
 * the total stays exact even then (at the cost of re-counting those two pieces).
 */
export function joinPieces(pieces: readonly Piece[], tokens: TokenCounter): { text: string; tokens: number } {
  const merged: Piece[] = [];
  for (const p of pieces) {
    if (p.text.length === 0) continue;
    const prev = merged[merged.length - 1];
    if (prev && !isSafeSeam(prev.text, p.text)) {
      merged[merged.length - 1] = { text: prev.text + p.text };
    } else {
      merged.push(p);
    }
  }
  let total = 0;
  for (const p of merged) total += p.tokens ?? tokens.count(p.text);
  return { text: merged.map((p) => p.text).join(''), tokens: total };
}
