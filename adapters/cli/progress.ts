// Progress for long CLI work (import, export; dump, restore and migrate backfill may use it too): on a
// terminal, one line on stderr redrawn in place (done/total, rate, time left); off a terminal nothing
// until the end. Either way it ends with a one-line summary on stdout (what scripts read).

/** Where progress is drawn: stderr by default; tests pass their own. */
export interface ProgressSink {
  isTTY?: boolean;
  write(text: string): unknown;
}

export interface Progress {
  /** Counts `n` more items done (and, optionally, grows the total). */
  tick(n?: number): void;
  /** Writes a line (a skipped file, a warning) above the progress line, which is then redrawn. */
  note(line: string): void;
  /** Sets or raises the total once it is known. */
  setTotal(total: number): void;
  /** Clears the progress line and writes `summary` as the one last line. */
  done(summary: string): void;
}

export interface ProgressOptions {
  /** What is being counted (`files`, `bindings`, `rows`). */
  unit: string;
  total?: number;
  sink?: ProgressSink;
  /** Where the summary goes: stdout by default. */
  summarySink?: ProgressSink;
  /** Redraw at most this often (ms). */
  everyMs?: number;
  now?: () => number;
}

/** "1m05s", "12s", "3h02m". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The progress line: `42/100 files (42%) · 120/s · 0s left`. */
export function progressLine(done: number, total: number | undefined, unit: string, seconds: number): string {
  const rate = seconds > 0 ? done / seconds : 0;
  const rateText = rate >= 10 ? Math.round(rate).toString() : rate.toFixed(1);
  if (!total) return `${done} ${unit} · ${rateText}/s`;
  const pct = Math.min(100, Math.floor((done / total) * 100));
  const left = rate > 0 ? formatDuration((total - done) / rate) : '?';
  return `${done}/${total} ${unit} (${pct}%) · ${rateText}/s · ${left} left`;
}

/** Starts showing progress; call `done` once at the end. */
export function createProgress(opts: ProgressOptions): Progress {
  const sink: ProgressSink = opts.sink ?? process.stderr;
  const now = opts.now ?? (() => performance.now());
  const tty = !!sink.isTTY;
  const every = opts.everyMs ?? 100;
  const started = now();
  let total = opts.total;
  let doneCount = 0;
  let lastDraw = -Infinity;
  let drawn = false;
  const draw = (force = false) => {
    if (!tty) return;
    const t = now();
    if (!force && t - lastDraw < every) return;
    lastDraw = t;
    // \r and erase-to-end-of-line: the line is redrawn in place, never scrolls.
    sink.write(`\r${progressLine(doneCount, total, opts.unit, (t - started) / 1000)}\x1b[K`);
    drawn = true;
  };
  draw(true);
  return {
    tick(n = 1) {
      doneCount += n;
      draw();
    },
    note(line) {
      sink.write(tty && drawn ? `\r\x1b[K${line}\n` : `${line}\n`);
      if (tty) draw(true);
    },
    setTotal(t) {
      total = t;
      // Drawn at once: an import quicker than one redraw interval would otherwise never show its total.
      draw(true);
    },
    done(summary) {
      if (drawn) sink.write('\r\x1b[K');
      (opts.summarySink ?? process.stdout).write(`${summary}\n`);
    },
  };
}
