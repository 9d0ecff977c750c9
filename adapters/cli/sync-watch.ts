// `bindery sync --watch`: runs a pass (one at a time) after the folder changes — fs.watch, recursive,
// debounced so an editor's burst of writes makes one pass — after the space changes in the database
// (polled: another process's edits raise no event here), and every `rescanMs` anyway, since a watcher
// can miss events (network folders, a full event queue). A pass costs a listing and a stat per file
// plus the work for what changed, so the fallback rescan is cheap. Stops on SIGINT/SIGTERM or `signal`.
import { watch, type FSWatcher } from 'node:fs';
import { sep } from 'node:path';
import type { SyncCounts } from '../../core/services/sync.ts';
import type { ProgressSink } from './progress.ts';
import { passScheduler } from '../../core/services/sync-schedule.ts';

export interface WatchOptions {
  /**
   * Runs one pass (never two at once: this module serialises them): over the whole folder, or only
   * over `only` (the paths the watcher named; empty: the database changed, not the folder).
   */
  pass: (only?: ReadonlySet<string>) => Promise<SyncCounts>;
  /** Changes whenever the space's bindings change (db/store/sync.ts spaceFingerprint). */
  fingerprint: () => Promise<string>;
  /** Where the status line is drawn (a terminal only) and errors are written. */
  err: ProgressSink;
  label: string;
  debounceMs?: number;
  pollMs?: number;
  rescanMs?: number;
  signal?: AbortSignal;
  /** Told once the watcher and the polls are in place (edits from then on are seen). */
  onReady?: () => void;
}

/** The whole folder is walked this often anyway (events can be missed). */
const RESCAN_MS = 10_000;

const clock = () => new Date().toTimeString().slice(0, 8);

/** Watches until stopped; resolves once the pass running at the stop has finished. */
export async function watchFolder(realRoot: string, opts: WatchOptions): Promise<void> {
  const { err } = opts;
  const debounce = opts.debounceMs ?? 150;
  let last = await opts.fingerprint();
  const status = (text: string) => {
    if (err.isTTY) err.write(`\r${text}\x1b[K`);
  };
  const passes = passScheduler({
    pass: opts.pass,
    async passed() {
      last = await opts.fingerprint();
      status(`watching ${opts.label} · in step at ${clock()} · Ctrl-C stops`);
    },
    // A failed pass (the database busy past its retries, a folder gone) is told; the next one retries.
    failed: (e) => err.write(`${err.isTTY ? '\r\x1b[K' : ''}sync pass failed: ${e instanceof Error ? e.message : String(e)}\n`),
  });
  // A path names one file (in the folder's own separators); anything else (a folder renamed, no name given) rescans all.
  const schedule = (ms: number, path?: string | null) => passes.changed(ms, path ? path.split(sep).join('/') : path);

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(realRoot, { recursive: true }, (_event, name) => {
      // Our own temporary files come and go on every write; their rename into place is the event that counts.
      if (typeof name === 'string' && name.endsWith('.tmp')) return;
      schedule(debounce, typeof name === 'string' ? name : null);
    });
    watcher.on('error', () => {
      watcher?.close();
      err.write(
        `${err.isTTY ? '\r\x1b[K' : ''}the folder watcher stopped; changes are still picked up every ${(opts.rescanMs ?? RESCAN_MS) / 1000} s\n`,
      );
    });
  } catch {
    err.write(`recursive folder watching is not available here; changes are picked up every ${(opts.rescanMs ?? RESCAN_MS) / 1000} s\n`);
  }
  const poll = setInterval(() => {
    opts.fingerprint().then(
      (f) => {
        if (f !== last) {
          last = f;
          schedule(0);
        }
      },
      () => undefined,
    );
  }, opts.pollMs ?? 250);
  const rescan = setInterval(() => schedule(0, null), opts.rescanMs ?? RESCAN_MS);
  if (err.isTTY) status(`watching ${opts.label} · in step at ${clock()} · Ctrl-C stops`);
  else err.write(`watching ${opts.label} for changes (SIGINT or SIGTERM stops)\n`);
  opts.onReady?.();

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    opts.signal?.addEventListener('abort', stop, { once: true });
  });
  clearInterval(poll);
  clearInterval(rescan);
  watcher?.close();
  await passes.stop();
  if (err.isTTY) err.write('\r\x1b[K');
}
