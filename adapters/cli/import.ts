// `bindery import <dir>`: every .md file under <dir> becomes a binding in BINDERY_USER's personal space
// (source "human"). Re-importing finds each binding by its relative path and adds a version only when
// the file changed. Skipped files are named on stderr; the summary line goes to stdout.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { importDocument } from '../../core/services/import';
import { ensureCaller } from '../../core/services/prepare';
import { openRuntime } from '../runtime';

/** Markdown files under `root`, sorted; dot-folders and nested node_modules are not entered, symlinked folders not followed. */
export function markdownFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules') walk(path);
      } else if (/\.md$/i.test(entry.name) && (entry.isFile() || (entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isFile()))) {
        out.push(path);
      }
    }
  };
  walk(root);
  return out.sort();
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
  const counts = { created: 0, updated: 0, unchanged: 0, skipped: 0 };
  for (const path of markdownFiles(dir)) {
    const sourcePath = relative(dir, path).split(sep).join('/');
    const outcome = await importDocument(deps, caller, { sourcePath, bytes: readFileSync(path) });
    counts[outcome.status]++;
    if (outcome.status === 'skipped') console.error(`skipped ${sourcePath}: ${outcome.reason}`);
    else for (const w of outcome.warnings) console.error(`${sourcePath}: ${w}`);
  }
  console.log(`imported ${dir} into @${caller.handle}: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ${counts.skipped} skipped`);
  database.close();
  return 0;
}
