// A tiktoken rank table as typed arrays instead of a Map of 200,000 strings: every token's bytes in one
// pool (in rank order), where each token starts, and an open-addressing hash table from bytes to rank.
// It builds in milliseconds where the Map took over a hundred, and a lookup reads a span of a binary
// string (one char per byte) in place, so the merge makes no substring per probe.

/** FNV-1a, 32 bits: the hash of a token's bytes (./rank-file.ts computes it while decoding). */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;

/** Heap keys in the merge pack rank and start into one number: rank × KEY_SPAN + start (exact below 2^53). */
export const KEY_SPAN = 2 ** 28;
/** Ranks must stay below this for rank × KEY_SPAN + start to be exact. */
export const MAX_RANK = Math.floor(Number.MAX_SAFE_INTEGER / KEY_SPAN);

const EMPTY = -1;

/** FNV-1a over the chars start..end of a binary string (each char one byte). */
function hashBinary(bytes: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes.charCodeAt(i), FNV_PRIME);
  return h;
}

/** FNV-1a's low bits (the slot) mix poorly on their own; fold the high bits in. */
function spread(h: number): number {
  return h ^ (h >>> 15);
}

/** What a RankTable is made of: token bytes, where each token starts, the hash slots. */
export interface RankTableParts {
  pool: Uint8Array;
  starts: Uint32Array;
  slots: Int32Array;
}

/** Token bytes → rank, for ranks 0..size-1 whose bytes lie in `pool` from `starts[rank]` to `starts[rank + 1]`. */
export class RankTable {
  /** How many tokens the table holds. */
  readonly size: number;
  /** The first rank whose bytes equal a lower rank's (-1 when every token is distinct). */
  readonly duplicate: number;
  private readonly pool: Uint8Array;
  private readonly starts: Uint32Array;
  /** Slot → rank (EMPTY when free); a power of two at least twice the size, so probes stay short. */
  private readonly slots: Int32Array;
  private readonly mask: number;

  /**
   * Builds the table over `pool` and `starts` (size + 1 entries, the last where the pool ends);
   * `hashes[rank]`, when given, is the FNV-1a hash of each token's bytes (saves hashing them again).
   */
  static build(pool: Uint8Array, starts: Uint32Array, hashes?: Int32Array): RankTable {
    let capacity = 16;
    while (capacity < (starts.length - 1) * 2) capacity *= 2;
    const slots = new Int32Array(capacity).fill(EMPTY);
    const duplicate = fill(slots, pool, starts, hashes);
    return new RankTable({ pool, starts, slots }, duplicate);
  }

  /** A table from the parts of one already built (`parts()`, e.g. handed over by another thread). */
  constructor(parts: RankTableParts, duplicate = -1) {
    this.pool = parts.pool;
    this.starts = parts.starts;
    this.slots = parts.slots;
    this.size = parts.starts.length - 1;
    this.mask = parts.slots.length - 1;
    this.duplicate = duplicate;
  }

  /** The typed arrays the table is made of, to hand it to another thread (transferable). */
  parts(): RankTableParts {
    return { pool: this.pool, starts: this.starts, slots: this.slots };
  }

  /** The rank of the bytes `bytes[start..end)` (a binary string), or -1 when they are no token. */
  rank(bytes: string, start = 0, end = bytes.length): number {
    const length = end - start;
    const { pool, starts, slots, mask } = this;
    let at = spread(hashBinary(bytes, start, end)) & mask;
    for (;;) {
      const held = slots[at]!;
      if (held === EMPTY) return -1;
      const from = starts[held]!;
      if (starts[held + 1]! - from === length) {
        let i = 0;
        while (i < length && pool[from + i] === bytes.charCodeAt(start + i)) i++;
        if (i === length) return held;
      }
      at = (at + 1) & mask;
    }
  }
}

/** Puts every rank into its slot; returns the first rank whose bytes equal a lower rank's (-1: none). */
function fill(slots: Int32Array, pool: Uint8Array, starts: Uint32Array, hashes: Int32Array | undefined): number {
  const mask = slots.length - 1;
  const size = starts.length - 1;
  let duplicate = -1;
  for (let rank = 0; rank < size; rank++) {
    const start = starts[rank]!;
    const length = starts[rank + 1]! - start;
    let h = FNV_OFFSET;
    if (hashes) h = hashes[rank]!;
    else for (let i = 0; i < length; i++) h = Math.imul(h ^ pool[start + i]!, FNV_PRIME);
    let at = spread(h) & mask;
    for (;;) {
      const held = slots[at]!;
      if (held === EMPTY) {
        slots[at] = rank;
        break;
      }
      const from = starts[held]!;
      if (starts[held + 1]! - from === length) {
        let i = 0;
        while (i < length && pool[from + i] === pool[start + i]) i++;
        if (i === length) {
          if (duplicate < 0) duplicate = rank;
          break;
        }
      }
      at = (at + 1) & mask;
    }
  }
  return duplicate;
}
