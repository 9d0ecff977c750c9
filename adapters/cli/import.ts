// `bindery import <dir>`: every .md file under <dir> becomes a binding in BINDERY_USER's personal space
// (source "human"). Re-importing finds each binding by its relative path and adds a version only when
// the file changed. Skipped files are named on stderr; the summary line goes to stdout.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { importDocument } from '../../core/services/import';
import { ensureCaller } from '../../core/services/prepare';
import { openRuntime } from '../runtime';

/**
 * Markdown files under `root`, sorted; dot-folders and nested node_modules are not entered, symlinked
 * folders not followed. A symlinked file counts only when it resolves inside `root`: a directory from
 * elsewhere must not pull in `~/.ssh/id_rsa` by naming a link to it `notes.md`. Left-out links go to `onSkip`.
 */
export function markdownFiles(root: string, onSkip?: (path: string, reason: string) => void): string[] {
  const out: string[] = [];
  const realRoot = realpathSync(root);
  const inside = (path: string) => {
    try {
      const target = realpathSync(path);
      return target.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
    } catch {
      return false;
    }
  };
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules') walk(path);
      } else if (/\.md$/i.test(entry.name) && entry.isFile()) {
        out.push(path);
      } else if (/\.md$/i.test(entry.name) && entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isFile()) {
        if (inside(path)) out.push(path);
        else onSkip?.(path, 'a symlink to a file outside the imported folder');
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
  const files = markdownFiles(dir, (path, reason) => {
    counts.skipped++;
    console.error(`skipped ${relative(dir, path).split(sep).join('/')}: ${reason}`);
  });
  for (const path of files) {
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
