// `bindery export <dir> [--space <slug>]`: every live binding of a space (default: every space
// BINDERY_USER owns) becomes <dir>/<space-slug>/<binding-slug>.md: YAML front matter with its fields,
// then its content exactly (core/services/export-format.ts). `bindery import <dir>/<space-slug>
// --space <slug>` reads such a folder back. Files are written without following links: each goes to a
// fresh temporary file (O_EXCL | O_NOFOLLOW) renamed over its name, which replaces a link, never writes through it.
import { lstatSync, mkdirSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeTempFile } from './temp-file.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { exportFiles, spacesToExport } from '../../core/services/export.ts';
import type { CoreDeps } from '../../core/services/bindings.ts';
import type { Caller } from '../../core/context.ts';
import { openRuntime } from '../runtime.ts';
import { createProgress, type ProgressSink } from './progress.ts';
import { parseCommand, usageError } from './args.ts';

const USAGE = 'usage: bindery export <dir> [--space <slug>]';

/** Names used on disk: slugs are lowercase letters, digits and dashes already; anything else is refused. */
const SAFE_NAME = /^[a-z0-9](?:[a-z0-9_-]{0,99})$/;

/** A folder under `root` for one space: created if missing, refused if it is a link or not a folder. */
function spaceFolder(realRoot: string, name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`space slug "${name}" is not a safe folder name`);
  const dir = join(realRoot, name);
  try {
    mkdirSync(dir);
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') throw e;
  }
  const st = lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) throw new Error(`${dir} exists and is not a plain folder (links are not followed)`);
  return dir;
}

/** Writes `text` to `dir/name` through a new temporary file renamed into place (never through a link). */
function writeFileSafely(dir: string, name: string, text: string): void {
  const tmp = writeTempFile(dir, name, new TextEncoder().encode(text));
  // The folder was checked when made; checked again right before the rename that publishes the file.
  if (realpathSync(dir) !== dir) {
    rmSync(tmp, { force: true });
    throw new Error(`${dir} became a link while exporting; stopped`);
  }
  renameSync(tmp, join(dir, name));
}

export interface ExportCounts {
  spaces: number;
  bindings: number;
}

/** Exports for `caller` into `root`; `sink` draws progress (stderr by default). */
export async function exportFolder(
  deps: CoreDeps,
  caller: Caller,
  root: string,
  opts: { space?: string; sink?: ProgressSink; summarySink?: ProgressSink } = {},
): Promise<ExportCounts> {
  mkdirSync(root, { recursive: true });
  const realRoot = realpathSync(root);
  const spaces = await spacesToExport(deps, caller, opts.space);
  const total = spaces.reduce((n, s) => n + s.total, 0);
  const progress = createProgress({ unit: 'bindings', total, sink: opts.sink, summarySink: opts.summarySink });
  let bindings = 0;
  for (const { space } of spaces) {
    const dir = spaceFolder(realRoot, space.slug);
    for await (const file of exportFiles(deps, caller, space)) {
      const name = SAFE_NAME.test(file.slug) ? file.slug : undefined;
      if (!name) {
        progress.note(`skipped @${space.slug}/${file.slug}: not a safe file name`);
        continue;
      }
      writeFileSafely(dir, `${name}.md`, file.text);
      bindings++;
      progress.tick();
    }
  }
  progress.done(`exported ${bindings} bindings from ${spaces.length} space${spaces.length === 1 ? '' : 's'} into ${root}`);
  return { spaces: spaces.length, bindings };
}

export async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('export', USAGE, args, {
    space: { type: 'string', needs: 'a space slug (e.g. --space team-docs)' },
  });
  if (values.space === '') usageError('export', USAGE, '--space needs a space slug (e.g. --space team-docs)');
  if (positionals.length !== 1)
    usageError('export', USAGE, positionals.length ? `unexpected argument "${positionals[1]}"` : 'give the folder to write into');
  const [dir] = positionals as [string];
  const space = values.space;
  if (statSync(dir, { throwIfNoEntry: false }) && !statSync(dir).isDirectory()) {
    console.error(`bindery export: ${dir} is not a directory`);
    return 2;
  }
  const { deps, database, config } = await openRuntime();
  try {
    const caller = await ensureCaller(deps, config.user);
    await exportFolder(deps, caller, dir, { space });
    return 0;
  } finally {
    database.close();
  }
}
