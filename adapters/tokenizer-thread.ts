// The tokenizer's tables (o200k_base: 200,000 tokens, ~45 ms to import and build) are built here on a
// worker thread while the main thread is still loading the server's modules; the finished table's
// typed arrays are transferred (not copied) to the main thread, which counts on them as if it had
// built them itself. Nothing is answered across threads and no call after the first pays for it.
// If the worker cannot start or fails, the main thread loads the tables itself (and names any fault).
import { createTiktokenCounter, loadTiktokenTables, TOKENIZERS, type TokenCounter, type TokenizerName } from '../core/tokens/counter.ts';
import { RankTable, type RankTableParts } from '../core/tokens/rank-table.ts';
import { availableParallelism, loadavg } from 'node:os';

/** What the worker posts back: the built table's parts and the pre-tokenizer pattern, or why not. */
export type WorkerReply = (RankTableParts & { pattern: string }) | { error: string };

/** A counter whose tables are built on a worker thread (running `script`) that starts now. */
export function createThreadedCounter(
  encoding: TokenizerName,
  script = new URL('./tokenizer-worker.ts', import.meta.url).href,
): TokenCounter {
  const built = new Promise<WorkerReply | undefined>((resolve) => {
    try {
      const worker = new Worker(script);
      worker.onmessage = (e: MessageEvent<WorkerReply>) => {
        resolve(e.data);
        worker.terminate();
      };
      worker.onerror = () => {
        resolve(undefined);
        worker.terminate();
      };
      worker.postMessage({ encoding });
    } catch {
      resolve(undefined);
    }
  });
  return createTiktokenCounter(encoding, async () => {
    const reply = await built;
    if (!reply || 'error' in reply) return loadTiktokenTables(encoding);
    return { ranks: new RankTable(reply), pattern: reply.pattern };
  });
}

let early: TokenCounter | undefined;

/**
 * Whether a second thread would run beside this one: more than one core, and fewer runnable processes
 * than cores over the last minute. On a saturated machine the worker only takes time from the main
 * thread, so the tables load on the main thread.
 */
export function spareCore(cores = availableParallelism(), load = loadavg()[0] ?? 0): boolean {
  return cores > 1 && load < cores - 0.5;
}

/**
 * Starts the threaded counter for BINDERY_TOKENIZER now, before the server's modules load
 * (BINDERY_TOKENIZER_THREAD: unset or `1` always, `auto` when a core is free, `0` never). On by
 * default: the table is built once either way, so the worker costs only its own start (a few ms of
 * CPU), and even on a loaded 2-core machine the first answer came sooner with it.
 */
export function startTokenizerEarly(env: Record<string, string | undefined>): void {
  const name = (env.BINDERY_TOKENIZER ?? 'o200k_base') as TokenizerName;
  const setting = env.BINDERY_TOKENIZER_THREAD ?? '1';
  const wanted = setting !== '0' && (setting !== 'auto' || spareCore());
  if (!early && wanted && TOKENIZERS.includes(name)) early = createThreadedCounter(name);
}

/** The counter started early, if it is for this encoding. */
export function takeEarlyTokenizer(encoding: TokenizerName): TokenCounter | undefined {
  const got = early?.encoding === encoding ? early : undefined;
  early = undefined;
  return got;
}
