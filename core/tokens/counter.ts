import type { Tiktoken } from 'js-tiktoken/lite';

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

/**
 * A js-tiktoken counter that splits text with the encoding's own pre-tokenizer pattern and memoises
 * the BPE count of each chunk: counts are identical to `encode(text).length` (BPE never crosses a
 * chunk) while repeated words skip the merge loop.
 */
export function createTiktokenCounter(encoding: TokenizerName = 'o200k_base'): TokenCounter {
  let encoder: Tiktoken | undefined;
  let pattern: RegExp | undefined;
  let loading: Promise<void> | undefined;
  const cache = new Map<string, number>();
  const stats = { calls: 0, chars: 0 };

  const load = (): Promise<void> => {
    loading ??= (async () => {
      const { Tiktoken } = await import('js-tiktoken/lite');
      const ranks =
        encoding === 'cl100k_base'
          ? (await import('js-tiktoken/ranks/cl100k_base')).default
          : (await import('js-tiktoken/ranks/o200k_base')).default;
      encoder = new Tiktoken(ranks);
      pattern = new RegExp(ranks.pat_str, 'gu');
    })();
    return loading;
  };

  const count = (text: string): number => {
    if (!encoder || !pattern) throw new Error(`tokenizer ${encoding} used before load()`);
    stats.calls++;
    stats.chars += text.length;
    let total = 0;
    for (const match of text.matchAll(pattern)) {
      const chunk = match[0];
      let n = cache.get(chunk);
      if (n === undefined) {
        n = encoder.encode(chunk, [], []).length;
        if (cache.size >= CHUNK_CACHE_LIMIT) cache.clear();
        cache.set(chunk, n);
      }
      total += n;
    }
    return total;
  };

  return { encoding, load, count, stats };
}
