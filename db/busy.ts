/** How busy database calls are retried: for how long, and who hears about each retry. */
export interface BusyPolicy {
  retryForMs: number;
  onRetry?: () => void;
  /** Hears of a call that failed for good (not busy, or busy past `retryForMs`). */
  onFailure?: (err: unknown) => void;
}

/**
 * What a database client tells an observer (metrics): each busy retry, and each call that failed for
 * good with its SQLite code. Plain callbacks, so db/ depends on nothing above it.
 */
export interface DbEvents {
  busyRetry?(): void;
  error?(code: string | undefined): void;
}

/**
 * True for SQLite's "try again" answers: SQLITE_BUSY in all its forms (another connection holds the
 * lock; a WAL snapshot went stale; recovery runs) and SQLITE_LOCKED. Nothing was written by the call
 * that got one, so it is safe to run it again.
 */
export function isBusy(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const { code, rawCode } = e as { code?: unknown; rawCode?: unknown };
    if (typeof rawCode === 'number' && ((rawCode & 0xff) === 5 || (rawCode & 0xff) === 6)) return true;
    if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code)) return true;
    if (e === (e as { cause?: unknown }).cause) break;
  }
  return false;
}

/**
 * Runs `fn`, and again after a short, growing, jittered pause whenever SQLite answers busy, until
 * `retryForMs` has passed. The pauses are asynchronous: the server keeps answering meanwhile.
 */
export async function withBusyRetry<T>(policy: BusyPolicy, fn: () => T): Promise<T> {
  const deadline = Date.now() + policy.retryForMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return fn();
    } catch (err) {
      if (!isBusy(err) || Date.now() >= deadline) {
        policy.onFailure?.(err);
        throw err;
      }
      policy.onRetry?.();
      const pause = Math.min(100, 2 ** Math.min(attempt, 7)) * (0.5 + Math.random());
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

/** Blocks the thread for `ms` (only while opening a connection, before anything else can run). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
