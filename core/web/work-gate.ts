// A gate for CPU-heavy work a signed-in person can ask for (the diff pages): at most `running` at a
// time, at most `waiting` queued behind them; past that the request is turned away at once. With the
// diff itself paced (line-diff.ts), this bounds the share of the thread such work can take, so a
// flood of diff requests slows only the diff requests. One gate per process, on purpose: the thread
// it protects is the process's.

export interface WorkGate {
  /** Runs `work` when a slot is free; undefined (without running it) when the queue is full. */
  run<T>(work: () => Promise<T>): Promise<T | undefined>;
  readonly running: number;
  readonly waiting: number;
}

/** A gate with `running` slots and a queue of `waiting`. */
export function createWorkGate(running: number, waiting: number): WorkGate {
  let active = 0;
  const queue: (() => void)[] = [];
  return {
    get running() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    async run(work) {
      if (active >= running) {
        if (queue.length >= waiting) return undefined;
        await new Promise<void>((resolve) => queue.push(resolve));
      } else active++;
      try {
        return await work();
      } finally {
        const next = queue.shift();
        if (next) next();
        else active--;
      }
    },
  };
}
