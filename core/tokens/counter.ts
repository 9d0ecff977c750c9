import { bpeCount } from './bpe.ts';
import { loadRanks } from './rank-file.ts';
import type { RankTable } from './rank-table.ts';

/** Counts tokens exactly for one encoding. `load()` must resolve before the first `count()`. */
export interface TokenCounter {
  readonly encoding: TokenizerName;
  /** Loads the encoder once; later calls return the same promise. */
  load(): Promise<void>;
  /** Exact token count of `text` (special-token text counts as ordinary text). */
  count(text: string): number;
  /** How many times text was actually run through the BPE encoder (for benchmarks and tests). */
  readonly stats: { calls: number; chars: number };
}

export type TokenizerName = 'o200k_base' | 'cl100k_base';

export const TOKENIZERS: readonly TokenizerName[] = ['o200k_base', 'cl100k_base'];

const CHUNK_CACHE_LIMIT = 50_000;
/** Chunks longer than this are not memoised (they rarely repeat and would pin memory). */
const CACHED_CHUNK_CHARS = 64;

/** An encoding's tables: token ranks by byte string, and the pre-tokenizer pattern's source. */
export interface TiktokenTables {
  ranks: RankTable;
  pattern: string;
}

/** Reads and checks an encoding's rank table (js-tiktoken's rank files): the slow part of a first count. */
export async function loadTiktokenTables(encoding: TokenizerName): Promise<TiktokenTables> {
  const data =
    encoding === 'cl100k_base'
      ? (await import('js-tiktoken/ranks/cl100k_base')).default
      : (await import('js-tiktoken/ranks/o200k_base')).default;
  return { ranks: loadRanks(data.bpe_ranks), pattern: data.pat_str };
}

/**
 * A counter on js-tiktoken's encodings (its rank files and pre-tokenizer pattern) that splits text
 * with the encoding's own pattern and runs an exact byte-pair merge per chunk (see ./bpe): counts are
 * identical to js-tiktoken's `encode(text, [], []).length` (BPE never crosses a chunk), repeated
 * chunks are memoised, and a pathological chunk (a megabyte without a space) costs O(n log n)
 * instead of js-tiktoken's O(n²). `tables` supplies the tables another way: already built (the counter
 * is ready at once) or a loader (by default they are read on the first `load()`).
 */
export function createTiktokenCounter(
  encoding: TokenizerName = 'o200k_base',
  tables: TiktokenTables | (() => Promise<TiktokenTables>) = () => loadTiktokenTables(encoding),
): TokenCounter {
  let ranks: RankTable | undefined;
  let pattern: RegExp | undefined;
  let loading: Promise<void> | undefined;
  if (typeof tables !== 'function') {
    ranks = tables.ranks;
    pattern = new RegExp(tables.pattern, 'gu');
    loading = Promise.resolve();
  }
  const cache = new Map<string, number>();
  const stats = { calls: 0, chars: 0 };

  const load = (): Promise<void> => {
    loading ??= (async () => {
      const loaded = await (tables as () => Promise<TiktokenTables>)();
      ranks = loaded.ranks;
      pattern = new RegExp(loaded.pattern, 'gu');
    })();
    return loading;
  };

  const count = (text: string): number => {
    if (!ranks || !pattern) throw new Error(`tokenizer ${encoding} used before load()`);
    stats.calls++;
    stats.chars += text.length;
    let total = 0;
    for (const match of text.matchAll(pattern)) {
      const chunk = match[0];
      if (chunk.length > CACHED_CHUNK_CHARS) {
        total += bpeCount(chunk, ranks);
        continue;
      }
      let n = cache.get(chunk);
      if (n === undefined) {
        n = bpeCount(chunk, ranks);
        if (cache.size >= CHUNK_CACHE_LIMIT) cache.clear();
        cache.set(chunk, n);
      }
      total += n;
    }
    return total;
  };

  return { encoding, load, count, stats };
}
