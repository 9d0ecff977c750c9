// `bindery import <dir>`: every .md file under <dir> becomes a binding in BINDERY_USER's personal space
// (source "human"). Re-importing finds each binding by its relative path and adds a version only when
// the file changed. Skipped files are named on stderr; the summary line goes to stdout.
import { realpathSync, statSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { Caller } from '../../core/context.ts';
import { importDocument, type ImportOutcome } from '../../core/services/import.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import type { CoreDeps } from '../../core/services/bindings.ts';
import { markdownFiles, readListedFile, type ReadHooks } from './import-files.ts';
import { openRuntime } from '../runtime.ts';

export type ImportCounts = { created: number; updated: number; unchanged: number; skipped: number };

/**
 * Imports every Markdown file under `dir` for `caller`, telling `report` what became of each (links and
 * unreadable files included, as skipped). Each file is read through `readListedFile`, never by path
 * again after listing; `hooks` lets tests change the folder between the steps.
 */
export async function importFolder(deps: CoreDeps, caller: Caller, dir: string, report: (sourcePath: string, outcome: ImportOutcome) => void, hooks?: ReadHooks): Promise<ImportCounts> {
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
    done(sourcePath, 'skipped' in read ? { status: 'skipped', reason: read.skipped } : await importDocument(deps, caller, { sourcePath, bytes: read.bytes }));
  }
  return counts;
}

export async function main(args: string[]): Promise<number> {
  const dir = args.find((a) => !a.startsWith('-'));
  if (!dir) {
    console.error('usage: bindery import <dir>');
    return 2;
  }
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`bindery import: ${dir} is not a directory`);
    return 2;
  }
  const { deps, database, config } = await openRuntime();
  const caller = await ensureCaller(deps, config.user);
  const counts = await importFolder(deps, caller, dir, (path, outcome) => {
    if (outcome.status === 'skipped') console.error(`skipped ${path}: ${outcome.reason}`);
    else for (const w of outcome.warnings) console.error(`${path}: ${w}`);
  });
  console.log(`imported ${dir} into @${caller.handle}: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ${counts.skipped} skipped`);
  database.close();
  return 0;
}
