// The tokenizer's tables (o200k_base: 200,000 byte strings) take a fresh process about as long to read
// as the rest of the server takes to start, and the first tool answer waited for them. Here a worker
// thread reads them while the main thread is still loading modules, and answers the first counts
// through shared memory (the main thread waits on Atomics for a few microseconds); meanwhile the main
// thread builds its own table from the worker's byte pool on a free turn of the event loop (a few
// milliseconds), then counts on its own and ends the worker. Counts are the
// core counter's, on either thread. Without workers it falls back to loading on the main thread.
import { createTiktokenCounter, TOKENIZERS, type TokenCounter, type TokenizerName } from '../core/tokens/counter.ts';
import { RankTable } from '../core/tokens/rank-table.ts';
import { availableParallelism, loadavg } from 'node:os';

/** What the main thread hands the worker. */
export interface WorkerStart {
  encoding: TokenizerName;
  /** [state, text length, count] */
  control: Int32Array;
  text: Uint16Array;
}

export const IDLE = 0;
export const ASKED = 1;
export const ANSWERED = 2;
export const QUIT = 3;
export const FAILED = -1;

/** UTF-16 units one request to the worker may carry; a longer text makes the main thread finish its table. */
const TEXT_CAPACITY = 1 << 20;
/** How long a count waits for the worker before counting here. */
const WAIT_MS = 10_000;
/** Unused, the worker is let go this long after its table arrived. */
const IDLE_BUILD_MS = 2_000;

interface Flat {
  pool: Uint8Array;
  starts: Uint32Array;
  pattern: string;
}

/** A TokenCounter whose tables are read on a worker thread; `where()` says who counts now (for tests). */
export interface ThreadedCounter extends TokenCounter {
  where(): 'loading' | 'worker' | 'main';
}

/** A TokenCounter whose tables are read on a worker thread that starts now. */
export function createThreadedCounter(encoding: TokenizerName): ThreadedCounter {
  const control = new Int32Array(new SharedArrayBuffer(3 * 4));
  const text = new Uint16Array(new SharedArrayBuffer(TEXT_CAPACITY * 2));
  const stats = { calls: 0, chars: 0 };
  let worker: Worker | undefined;
  let flat: Flat | undefined;
  let own: TokenCounter | undefined;
  let loading: Promise<void> | undefined;
  let building = false;

  const arrived = new Promise<Flat | undefined>((resolve) => {
    try {
      worker = new Worker(new URL('./tokenizer-worker.ts', import.meta.url).href);
      // Held until its table arrives (a load() awaiting it must keep the process alive), then let go
      // of, so a worker that is still counting never keeps a finished process running.
      const w = worker as Worker & { unref?: () => void };
      worker.onmessage = (e: MessageEvent<Flat | { error: string }>) => {
        w.unref?.();
        resolve('error' in e.data ? undefined : e.data);
      };
      worker.onerror = () => resolve(undefined);
      worker.postMessage({ encoding, control, text } satisfies WorkerStart);
    } catch {
      resolve(undefined);
    }
  });

  const stop = () => {
    if (!worker) return;
    Atomics.store(control, 0, QUIT);
    Atomics.notify(control, 0);
    worker.terminate();
    worker = undefined;
  };

  /** Builds the main thread's own table (milliseconds) and lets the worker go. */
  const extend = (): void => {
    if (own) return;
    const f = flat!;
    own = createTiktokenCounter(encoding, { ranks: new RankTable(f.pool, f.starts), pattern: f.pattern });
    flat = undefined;
    stop();
  };

  const build = () => {
    if (building) return;
    building = true;
    setImmediate(extend);
  };

  const load = (): Promise<void> =>
    (loading ??= (async () => {
      const got = await arrived;
      if (!got) {
        stop();
        const fallback = createTiktokenCounter(encoding);
        await fallback.load();
        own = fallback;
        return;
      }
      flat ??= got;
      build();
    })());

  // Tables nobody asked for still leave the worker soon, so it never holds a second copy for long.
  void arrived.then((got) => {
    if (!got || own) return;
    flat ??= got;
    setTimeout(build, IDLE_BUILD_MS).unref?.();
  });

  const count = (t: string): number => {
    if (!own && !flat) throw new Error(`tokenizer ${encoding} used before load()`);
    stats.calls++;
    stats.chars += t.length;
    if (own) return own.count(t);
    if (worker && t.length <= TEXT_CAPACITY) {
      for (let i = 0; i < t.length; i++) text[i] = t.charCodeAt(i);
      control[1] = t.length;
      Atomics.store(control, 0, ASKED);
      Atomics.notify(control, 0);
      Atomics.wait(control, 0, ASKED, WAIT_MS);
      if (Atomics.load(control, 0) === ANSWERED) {
        const n = control[2]!;
        Atomics.store(control, 0, IDLE);
        if (n >= 0) return n;
      }
    }
    // No worker to ask (or a text too long for the shared buffer): finish the table here, now.
    extend();
    return own!.count(t);
  };

  const where = () => (own ? 'main' : flat && worker ? 'worker' : 'loading') as ReturnType<ThreadedCounter['where']>;
  return { encoding, load, count, stats, where };
}

let early: TokenCounter | undefined;

/**
 * Whether a second thread would run beside this one: more than one core, and fewer runnable processes
 * than cores over the last minute. On a saturated machine the worker only takes time from the main
 * thread (start-up then gets slower, not faster), so the tables load on the main thread as before.
 */
export function spareCore(cores = availableParallelism(), load = loadavg()[0] ?? 0): boolean {
  return cores > 1 && load < cores - 0.5;
}

/**
 * Starts the threaded counter for BINDERY_TOKENIZER now, before the server's modules load, when asked
 * (BINDERY_TOKENIZER_THREAD: `1` always, `auto` when a core is free). Off by default: on the project's
 * loaded 2-core machine it did not bring the first answer under the memory server's, and calls after it
 * were slower (11-14 ms against 6-8), so it stays opt-in until measured on a quiet machine.
 */
export function startTokenizerEarly(env: Record<string, string | undefined>): void {
  const name = (env.BINDERY_TOKENIZER ?? 'o200k_base') as TokenizerName;
  const wanted = env.BINDERY_TOKENIZER_THREAD === '1' || (env.BINDERY_TOKENIZER_THREAD === 'auto' && spareCore());
  if (!early && wanted && TOKENIZERS.includes(name)) early = createThreadedCounter(name);
}

/** The counter started early, if it is for this encoding. */
export function takeEarlyTokenizer(encoding: TokenizerName): TokenCounter | undefined {
  const got = early?.encoding === encoding ? early : undefined;
  early = undefined;
  return got;
}
