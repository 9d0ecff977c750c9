// `bindery sync <dir> [--space <slug>] [--watch]`: keeps a space and a folder of Markdown in step both
// ways (core/services/sync-pass.ts; docs/sync.md). One pass, or with --watch passes whenever the folder
// changes (fs.watch, debounced), whenever the space changes (the database polled: edits made over MCP,
// REST or the web app by any process), and every few seconds anyway (a watcher can miss events).
// Per-file lines (conflicts, skipped files) go to stderr, the summary of each pass to stdout.
import { realpathSync, statSync } from 'node:fs';
import type { Caller } from '../../core/context.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { spaceRefusal, type CoreDeps } from '../../core/services/bindings.ts';
import { openSync, spaceChanges, type SyncEvent, type SyncHooks, type SyncSession } from '../../core/services/sync.ts';
import { eventLine, summaryLine } from '../../core/services/sync-lines.ts';
import { syncPass } from '../../core/services/sync-pass.ts';
import { openRuntime } from '../runtime.ts';
import { createProgress, type Progress, type ProgressSink } from './progress.ts';
import { parseCommand, usageError } from './args.ts';
import { createSyncFolder } from './sync-folder.ts';
import { watchFolder } from './sync-watch.ts';

const USAGE = 'usage: bindery sync <dir> [--space <slug>] [--watch]';

/** Where a run writes: progress and per-file lines (stderr), summaries (stdout). Tests pass their own. */
export interface SyncSinks {
  err?: ProgressSink;
  out?: ProgressSink;
}

/** Opens the pairing of `dir` with a space for `caller`: a session the passes share. */
export async function openSyncSession(
  deps: CoreDeps,
  caller: Caller,
  dir: string,
  opts: { space?: string; report: (e: SyncEvent) => void; hooks?: SyncHooks },
): Promise<SyncSession> {
  const realRoot = realpathSync(dir);
  const { root, space } = await openSync(deps, caller, realRoot, opts.space);
  return { deps, caller, root, space, folder: createSyncFolder(realRoot), report: opts.report, hooks: opts.hooks, quiet: new Map() };
}

export async function main(args: string[], sinks: SyncSinks & { signal?: AbortSignal } = {}): Promise<number> {
  const { values, positionals } = parseCommand('sync', USAGE, args, {
    space: { type: 'string', needs: 'a space slug (e.g. --space team-docs)' },
    watch: { type: 'boolean' },
  });
  if (values.space === '') usageError('sync', USAGE, '--space needs a space slug (e.g. --space team-docs)');
  if (positionals.length !== 1)
    usageError('sync', USAGE, positionals.length ? `unexpected argument "${positionals[1]}"` : 'give the folder to keep in step');
  const [dir] = positionals as [string];
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`bindery sync: ${dir} is not a directory`);
    return 2;
  }
  const err = sinks.err ?? process.stderr;
  const watch = values.watch === true;
  const { deps, database, config } = await openRuntime();
  try {
    const caller = await ensureCaller(deps, config.user);
    let progress: Progress | undefined;
    const report = (e: SyncEvent) => {
      progress ??= createProgress({ unit: 'files', sink: err, summarySink: sinks.out });
      const line = eventLine(e, watch);
      if (line) progress.note(line);
      progress.tick();
    };
    let session: SyncSession;
    try {
      session = await openSyncSession(deps, caller, dir, { space: values.space, report });
    } catch (e) {
      const why = spaceRefusal(e, caller.handle, values.space, `the space ${dir} is synced with is not one @${caller.handle} can see`);
      if (why === undefined) throw e;
      err.write(`bindery sync: ${why}; nothing was synced (BINDERY_USER=${caller.handle})\n`);
      return 2;
    }
    const label = session.space.slug;
    /** One pass; its summary always in one-shot mode, in watch mode only when it did something. */
    const pass = async (always: boolean, only?: ReadonlySet<string>) => {
      const counts = await syncPass(session, only);
      const did = Object.values(counts).some((n) => n > 0);
      if (always || did)
        (progress ??= createProgress({ unit: 'files', sink: err, summarySink: sinks.out })).done(summaryLine(dir, label, counts));
      progress = undefined;
      return counts;
    };
    await pass(true);
    if (!watch) return 0;
    await watchFolder(realpathSync(dir), {
      pass: (only) => pass(false, only),
      fingerprint: () => spaceChanges(session),
      err,
      label: `${dir} with @${label}`,
      signal: sinks.signal,
    });
    return 0;
  } finally {
    database.close();
  }
}
