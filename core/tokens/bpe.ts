// Exact byte-pair merge counting over tiktoken rank tables. Byte strings are "binary strings" (one
// char per byte, 0–255); the rank table (./rank-table.ts) looks up a span of one in place.
import { KEY_SPAN, type RankTable } from './rank-table.ts';

const encoder = new TextEncoder();

/** The UTF-8 bytes of `text` as a binary string (ASCII text is its own binary string). */
export function utf8Binary(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text;
  const bytes = encoder.encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 4096) out += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return out;
}

/** Chunks up to this many bytes use the simple quadratic merge; longer ones the heap merge. */
const SMALL = 96;

/**
 * Number of tokens in one pre-tokenized chunk: the count of parts left when pairs are merged lowest
 * rank first, leftmost first among equal ranks, exactly as tiktoken's `bytePairMerge` does.
 */
export function bpeCount(chunk: string, ranks: RankTable): number {
  const bytes = utf8Binary(chunk);
  if (bytes.length <= 1 || ranks.rank(bytes, 0, bytes.length) >= 0) return bytes.length === 0 ? 0 : 1;
  return bytes.length <= SMALL ? mergeSmall(bytes, ranks) : mergeLarge(bytes, ranks);
}

const NONE = Number.MAX_SAFE_INTEGER;

function mergeSmall(bytes: string, ranks: RankTable): number {
  // bounds[i] is where part i starts; pair[i] is the rank of parts i and i+1 merged (NONE if none).
  const bounds: number[] = [];
  for (let i = 0; i <= bytes.length; i++) bounds.push(i);
  const pairRank = (i: number): number => {
    if (i + 2 >= bounds.length) return NONE;
    const r = ranks.rank(bytes, bounds[i]!, bounds[i + 2]!);
    return r < 0 ? NONE : r;
  };
  const pair: number[] = [];
  for (let i = 0; i + 1 < bytes.length; i++) pair.push(pairRank(i));
  while (pair.length > 0) {
    let best = NONE;
    let at = -1;
    for (let i = 0; i < pair.length; i++) {
      if (pair[i]! < best) {
        best = pair[i]!;
        at = i;
      }
    }
    if (at < 0) break;
    bounds.splice(at + 1, 1);
    pair.splice(at, 1);
    if (at < pair.length) pair[at] = pairRank(at);
    if (at > 0) pair[at - 1] = pairRank(at - 1);
  }
  return bounds.length - 1;
}

/**
 * The same merge in O(n log n) for long chunks: parts in a linked list, candidate pairs in a min-heap
 * keyed by (rank, start). Entries made stale by a neighbour's merge are recognised and dropped: a
 * part's pair with a different span has different bytes, hence a different rank.
 */
function mergeLarge(bytes: string, ranks: RankTable): number {
  const n = bytes.length;
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const alive = new Uint8Array(n).fill(1);
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  const heap = new MinHeap();
  const spanRank = (start: number): number => {
    const mid = next[start]!;
    if (mid >= n) return NONE;
    const r = ranks.rank(bytes, start, next[mid]!);
    return r < 0 ? NONE : r;
  };
  const push = (start: number) => {
    const r = spanRank(start);
    if (r !== NONE) heap.push(r * KEY_SPAN + start);
  };
  for (let i = 0; i + 1 < n; i++) push(i);
  let parts = n;
  while (heap.size > 0) {
    const key = heap.pop();
    const start = key % KEY_SPAN;
    const rank = (key - start) / KEY_SPAN;
    if (!alive[start] || spanRank(start) !== rank) continue;
    const gone = next[start]!;
    alive[gone] = 0;
    next[start] = next[gone]!;
    if (next[gone]! < n) prev[next[gone]!] = start;
    parts--;
    push(start);
    if (prev[start]! >= 0) push(prev[start]!);
  }
  return parts;
}

class MinHeap {
  private items: number[] = [];
  get size(): number {
    return this.items.length;
  }
  push(v: number): void {
    const a = this.items;
    let i = a.length;
    a.push(v);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p]! <= v) break;
      a[i] = a[p]!;
      i = p;
    }
    a[i] = v;
  }
  pop(): number {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= a.length) break;
        const c = l + 1 < a.length && a[l + 1]! < a[l]! ? l + 1 : l;
        if (a[c]! >= last) break;
        a[i] = a[c]!;
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}
