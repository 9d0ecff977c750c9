// `bindery import <dir> [--space <slug>]`: every .md file under <dir> becomes a binding (source
// "human") in that space, which BINDERY_USER must own, or in BINDERY_USER's personal space. Re-importing finds each binding by its relative path and adds a version only when
// the file changed. Skipped files are named on stderr; the summary line goes to stdout.
import { realpathSync, statSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { Caller } from '../../core/context.ts';
import { importDocument, type ImportOutcome } from '../../core/services/import.ts';
import { BinderyError } from '../../core/errors.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { resolveWritableSpace, type CoreDeps } from '../../core/services/bindings.ts';
import { markdownFiles, readListedFile, type ReadHooks } from './import-files.ts';
import { openRuntime } from '../runtime.ts';

export type ImportCounts = { created: number; updated: number; unchanged: number; skipped: number };

/**
 * Imports every Markdown file under `dir` for `caller`, telling `report` what became of each (links and
 * unreadable files included, as skipped). Each file is read through `readListedFile`, never by path
 * again after listing; `hooks` lets tests change the folder between the steps.
 */
export async function importFolder(deps: CoreDeps, caller: Caller, dir: string, report: (sourcePath: string, outcome: ImportOutcome) => void, hooks?: ReadHooks, space?: string): Promise<ImportCounts> {
  const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0, skipped: 0 };
  const rel = (path: string) => relative(dir, path).split(sep).join('/');
  const done = (sourcePath: string, outcome: ImportOutcome) => {
    counts[outcome.status]++;
    report(sourcePath, outcome);
  };
  const realRoot = realpathSync(dir);
  for (const path of markdownFiles(dir, (p, reason) => done(rel(p), { status: 'skipped', reason }))) {
    const sourcePath = rel(path);
    const read = readListedFile(dir, realRoot, path, deps.config.maxContentBytes, hooks);
    done(sourcePath, 'skipped' in read ? { status: 'skipped', reason: read.skipped } : await importDocument(deps, caller, { sourcePath, bytes: read.bytes }, space));
  }
  return counts;
}

const USAGE = 'usage: bindery import <dir> [--space <slug>]';

export async function main(args: string[]): Promise<number> {
  const at = args.indexOf('--space');
  const spaceRef = at >= 0 ? args[at + 1] : undefined;
  if (at >= 0 && (!spaceRef || spaceRef.startsWith('-'))) {
    console.error(`bindery import: --space needs a space slug (e.g. --space team-docs)\n${USAGE}`);
    return 2;
  }
  const dir = args.find((a, i) => !a.startsWith('-') && !(at >= 0 && i === at + 1));
  if (!dir) {
    console.error(USAGE);
    return 2;
  }
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
      if (!(e instanceof BinderyError) || (e.code !== 'NOT_FOUND' && e.code !== 'FORBIDDEN')) throw e;
      const why = e.code === 'NOT_FOUND' ? `no space "${spaceRef}" that @${caller.handle} can see` : e.message;
      console.error(`bindery import: ${why}; nothing was imported (BINDERY_USER=${caller.handle}; create the space with create_space, or pick one you own)`);
      return 2;
    }
    const counts = await importFolder(
      deps,
      caller,
      dir,
      (path, outcome) => {
        if (outcome.status === 'skipped') console.error(`skipped ${path}: ${outcome.reason}`);
        else for (const w of outcome.warnings) console.error(`${path}: ${w}`);
      },
      undefined,
      space.id,
    );
    console.log(`imported ${dir} into @${space.slug}${spaceRef ? ` (as @${caller.handle})` : ''}: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ${counts.skipped} skipped`);
    return 0;
  } finally {
    database.close();
  }
}
