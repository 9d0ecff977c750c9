// Exact byte-pair merge counting over tiktoken rank tables. Byte strings are "binary strings" (one
// char per byte, 0–255), so a lookup is a substring and a Map hit: no arrays joined into keys.

/** Token ranks keyed by the token's bytes as a binary string. */
export type Ranks = Map<string, number>;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Parses js-tiktoken's compressed rank table ("! <offset> <base64 token> …" per line, token i of a
 * row ranked offset + i). Anything else throws, naming the row and token: a table read wrongly would
 * not crash later, it would make every count silently wrong (a missing single byte, for one, leaves
 * the merge with parts that are no token).
 */
export function loadRanks(bpeRanks: string): Ranks {
  const ranks: Ranks = new Map();
  const spans: [start: number, end: number, row: number][] = [];
  const fail = (why: string): never => {
    throw new Error(`unexpected tokenizer rank table: ${why}`);
  };
  const rows = bpeRanks.split('\n');
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    if (!row) continue;
    const fields = row.split(' ');
    const where = `row ${r + 1}`;
    if (fields[0] !== '!') fail(`${where} does not start with "!"`);
    if (!/^\d+$/.test(fields[1] ?? '') || fields.length < 3) fail(`${where} has no whole-number offset followed by tokens`);
    const offset = Number.parseInt(fields[1]!, 10);
    for (let i = 2; i < fields.length; i++) {
      const token = fields[i]!;
      if (token.length === 0 || token.length % 4 !== 0 || !BASE64.test(token))
        fail(`${where}, token ${i - 1} is not base64: ${JSON.stringify(token.slice(0, 40))}`);
      const bytes = atob(token);
      if (ranks.has(bytes)) fail(`${where}, token ${i - 1} is given twice`);
      ranks.set(bytes, offset + i - 2);
    }
    spans.push([offset, offset + fields.length - 2, r + 1]);
  }
  // A row's ranks are consecutive, so ranks given twice are rows whose spans overlap.
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]![0] < spans[i - 1]![1]) fail(`row ${Math.max(spans[i]![2], spans[i - 1]![2])}, rank ${spans[i]![0]} is given twice`);
  }
  if (ranks.size === 0) fail('it is empty');
  if (spans[spans.length - 1]![1] > MAX_RANK)
    fail(`rank ${spans[spans.length - 1]![1] - 1} is beyond ${MAX_RANK - 1} (the heap merge packs ranks into keys)`);
  for (let b = 0; b < 256; b++) {
    if (!ranks.has(String.fromCharCode(b))) fail(`the single byte 0x${b.toString(16).padStart(2, '0')} has no rank`);
  }
  return ranks;
}

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
export function bpeCount(chunk: string, ranks: Ranks): number {
  const bytes = utf8Binary(chunk);
  if (bytes.length <= 1 || ranks.has(bytes)) return bytes.length === 0 ? 0 : 1;
  return bytes.length <= SMALL ? mergeSmall(bytes, ranks) : mergeLarge(bytes, ranks);
}

const NONE = Number.MAX_SAFE_INTEGER;

function mergeSmall(bytes: string, ranks: Ranks): number {
  // bounds[i] is where part i starts; pair[i] is the rank of parts i and i+1 merged (NONE if none).
  const bounds: number[] = [];
  for (let i = 0; i <= bytes.length; i++) bounds.push(i);
  const pairRank = (i: number) => (i + 2 < bounds.length ? (ranks.get(bytes.slice(bounds[i]!, bounds[i + 2]!)) ?? NONE) : NONE);
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
function mergeLarge(bytes: string, ranks: Ranks): number {
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
    const end = next[mid]!;
    return ranks.get(bytes.slice(start, end)) ?? NONE;
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

/** Heap keys pack rank and start into one number: rank × KEY_SPAN + start (exact below 2^53). */
const KEY_SPAN = 2 ** 28;
/** Ranks must stay below this for rank × KEY_SPAN + start to be exact. */
const MAX_RANK = Math.floor(Number.MAX_SAFE_INTEGER / KEY_SPAN);

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
