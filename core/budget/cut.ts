import type { TokenCounter } from '../tokens/counter.ts';
import { termHits } from '../search/score.ts';

// A section cut to a budget, so that a read under a budget smaller than the section still answers:
// the best part of it, cut at line or sentence boundaries (word boundaries inside one over-long
// sentence), counted exactly. Pure: no I/O. The text counted here is at most the room given (plus one
// unit while searching), so the work is bounded by the budget, not by the stored text.

/** A part of a text and its exact token count. */
export interface Cut {
  text: string;
  tokens: number;
}

/** Lines, and sentences inside long lines, each keeping its own trailing white space (they join back exactly). */
function units(text: string): string[] {
  return text.split(/(?<=\n)/).flatMap((l) => (l.length > 200 ? l.split(/(?<=[.!?。！？][ \t]+)/) : [l]));
}

/**
 * The best part of `text` within `room` tokens: from the unit holding most of `terms` (the start when
 * none are given), grown over its neighbours, following ones first. Empty when not even a few words fit.
 */
export function cutToFit(text: string, room: number, tokens: TokenCounter, terms: readonly string[] = []): Cut {
  if (room <= 0) return { text: '', tokens: 0 };
  const us = units(text);
  let at = 0;
  if (terms.length) {
    let best = 0;
    us.forEach((u, i) => {
      const h = termHits(u, terms);
      const score = h.distinct * 10 + h.total;
      if (score > best) [at, best] = [i, score];
    });
  }
  // Unit counts add up to about the count of their join; the join is counted exactly at the end and trimmed while over.
  const cost = us.map((u) => (u.length > room * 8 ? Infinity : tokens.count(u)));
  if (cost[at]! > room) return words(us[at]!.trim(), room, tokens);
  let [lo, hi, sum] = [at, at, cost[at]!];
  for (let grew = true; grew; ) {
    grew = false;
    for (const i of [hi + 1, lo - 1]) {
      if (i < 0 || i >= us.length || sum + cost[i]! > room) continue;
      sum += cost[i]!;
      [lo, hi] = [Math.min(lo, i), Math.max(hi, i)];
      grew = true;
    }
  }
  for (;;) {
    const part = us
      .slice(lo, hi + 1)
      .join('')
      .trimEnd();
    const n = tokens.count(part);
    if (n <= room) return { text: part, tokens: n };
    if (hi > at) hi--;
    else if (lo < at) lo++;
    else return words(us[at]!.trim(), room, tokens);
  }
}

/** The longest run of whole words from the start of `unit` within `room` tokens, with "…" where it stops. */
function words(unit: string, room: number, tokens: TokenCounter): Cut {
  // Scripts written without spaces are cut by characters.
  const [parts, joiner] = unit.includes(' ') ? [unit.split(' '), ' '] : [Array.from(unit), ''];
  const render = (n: number) => `${parts.slice(0, n).join(joiner)}${n < parts.length ? '…' : ''}`;
  let [lo, hi] = [0, Math.min(parts.length, joiner ? room : room * 4)];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (tokens.count(render(mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  const text = lo > 0 ? render(lo) : '';
  return { text, tokens: text ? tokens.count(text) : 0 };
}
