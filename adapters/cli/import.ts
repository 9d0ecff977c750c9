// `bindery import <dir> [--space <slug>]`: every .md file under <dir> becomes a binding (source
// "human") in that space, which BINDERY_USER must own, or in BINDERY_USER's personal space. Files
// `bindery export` wrote give back their fields exactly (core/services/export-format.ts). Re-importing finds each binding by its relative path and adds a version only when
// the file changed. Skipped files are named on stderr; the summary line goes to stdout.
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Caller } from '../../core/context.ts';
import type { ImportOutcome } from '../../core/services/import.ts';
import { importFiles, importSummary, type ImportCounts } from '../../core/services/import-folder.ts';
import { packageNameOf } from '../../core/services/card.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { resolveWritableSpace, spaceRefusal, type CoreDeps } from '../../core/services/bindings.ts';
import { markdownFiles, readListedFile, type ReadHooks } from './import-files.ts';
import { openRuntime } from '../runtime.ts';
import { createProgress, type Progress } from './progress.ts';
import { parseCommand, usageError } from './args.ts';

/** The `name` of a package.json in `dir`, the project a README there documents (its card's name when the heading is generic). */
function packageName(dir: string, cache: Map<string, string | undefined>): string | undefined {
  if (!cache.has(dir)) {
    let name: string | undefined;
    try {
      // A regular file only: a link could point anywhere, and import reads nothing outside the folder.
      const file = join(dir, 'package.json');
      if (!lstatSync(file).isFile()) throw new Error('not a regular file');
      name = packageNameOf(readFileSync(file, 'utf8'));
    } catch {
      name = undefined;
    }
    cache.set(dir, name);
  }
  return cache.get(dir);
}

export type { ImportCounts };

/**
 * Imports every Markdown file under `dir` for `caller` (core/services/import-folder.ts), telling
 * `report` what became of each (links and unreadable files included, as skipped). Each file is read
 * through `readListedFile`, never by path again after listing; `hooks` lets tests change the folder
 * between the steps.
 */
export function importFolder(
  deps: CoreDeps,
  caller: Caller,
  dir: string,
  report: (sourcePath: string, outcome: ImportOutcome) => void,
  hooks?: ReadHooks,
  opts: { space?: string; progress?: Progress } = {},
): Promise<ImportCounts> {
  const rel = (path: string) => relative(dir, path).split(sep).join('/');
  const realRoot = realpathSync(dir);
  const skipped: { sourcePath: string; reason: string }[] = [];
  const paths = markdownFiles(dir, (p, reason) => skipped.push({ sourcePath: rel(p), reason }));
  opts.progress?.setTotal(paths.length);
  const packages = new Map<string, string | undefined>();
  const listed = paths.map((path) => ({
    sourcePath: rel(path),
    read: (maxBytes: number) => readListedFile(dir, realRoot, path, maxBytes, hooks),
    projectName: () => packageName(dirname(path), packages),
  }));
  return importFiles(deps, caller, { listed, skipped }, report, { space: opts.space, onFile: () => opts.progress?.tick() });
}

const USAGE = 'usage: bindery import <dir> [--space <slug>]';

export async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('import', USAGE, args, {
    space: { type: 'string', needs: 'a space slug (e.g. --space team-docs)' },
  });
  if (values.space === '') usageError('import', USAGE, '--space needs a space slug (e.g. --space team-docs)');
  if (positionals.length !== 1)
    usageError('import', USAGE, positionals.length ? `unexpected argument "${positionals[1]}"` : 'give the folder to import');
  const [dir] = positionals as [string];
  const spaceRef = values.space;
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`bindery import: ${dir} is not a directory`);
    return 2;
  }
  const { deps, database, config } = await openRuntime();
  try {
    const caller = await ensureCaller(deps, config.user);
    let space;
    try {
      space = await resolveWritableSpace(deps, caller, spaceRef);
    } catch (e) {
      const why = spaceRefusal(e, caller.handle, spaceRef, `@${caller.handle} has no personal space`);
      if (why === undefined) throw e;
      console.error(
        `bindery import: ${why}; nothing was imported (BINDERY_USER=${caller.handle}; create the space with create_space, or pick one you own)`,
      );
      return 2;
    }
    const progress = createProgress({ unit: 'files' });
    const counts = await importFolder(
      deps,
      caller,
      dir,
      (path, outcome) => {
        if (outcome.status === 'skipped') progress.note(`skipped ${path}: ${outcome.reason}`);
        else for (const w of outcome.warnings) progress.note(`${path}: ${w}`);
      },
      undefined,
      { space: space.id, progress },
    );
    progress.done(importSummary(dir, space, caller, spaceRef, counts));
    return 0;
  } finally {
    database.close();
  }
}
