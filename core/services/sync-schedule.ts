// When `bindery sync --watch` runs a pass: never two at once, a burst of changes folded into one pass
// (debounced), and only over the files the changes named while nothing else happened. Runtime-neutral
// (timers only); the adapter feeds it the watcher's events, the database's polls and the rescans.

export interface PassScheduler {
  /**
   * A change, passed on after `ms`: a Markdown file's path ("notes/a.md": only it needs a look), `null`
   * (something else in the folder: the whole folder), or nothing (the database changed).
   */
  changed(ms: number, path?: string | null): void;
  /** No more passes; resolves once the one running has finished. */
  stop(): Promise<void>;
}

/**
 * A scheduler of `pass` (over the whole folder, or only over `only`: the paths the changes named, empty
 * when only the database changed); `passed` runs after each pass that succeeded, `failed` is told a
 * pass's error (the next change or rescan tries again).
 */
export function passScheduler(opts: {
  pass: (only?: ReadonlySet<string>) => Promise<unknown>;
  passed: () => Promise<void> | void;
  failed: (e: unknown) => void;
}): PassScheduler {
  let running: Promise<void> | undefined;
  // What the next pass covers: the paths events named, or the whole folder once anything else happened.
  let dirty = new Set<string>();
  let whole = false;
  let again = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        const only = whole ? undefined : dirty;
        dirty = new Set();
        whole = false;
        try {
          await opts.pass(only);
          await opts.passed();
        } catch (e) {
          opts.failed(e);
        }
      } while (again && !stopped);
    })().finally(() => (running = undefined));
  };

  return {
    changed(ms, path) {
      if (path && path.endsWith('.md')) dirty.add(path);
      else if (path !== undefined) whole = true;
      clearTimeout(timer);
      timer = setTimeout(run, ms);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
