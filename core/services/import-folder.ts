import type { Caller } from '../context.ts';
import type { CoreDeps } from './bindings.ts';
import { FRONT_MATTER_ALLOWANCE, fileOverLimit } from './export-format.ts';
import { importDocument, type ImportOutcome } from './import.ts';

// A folder import (`bindery import`) on any runtime: what becomes of each listed file, and the counts.
// The adapter lists and reads the files (node:fs, links never followed); this decides the rest.

export type ImportCounts = { created: number; updated: number; unchanged: number; skipped: number };

/** A file the adapter listed: its path in the folder, a guarded read of at most `maxBytes`, the project it documents. */
export interface ListedFile {
  sourcePath: string;
  read(maxBytes: number): { bytes: Uint8Array } | { skipped: string };
  projectName(): string | undefined;
}

/**
 * Imports each listed file for `caller` (into `space`, default the personal space), telling `report`
 * what became of it; `skipped` are the files the listing itself left out (links, unreadable entries),
 * told and counted first. A file over the content limit is skipped unless it is an export (its front
 * matter may pass the limit; its content is checked after), so nothing larger is ever read.
 */
export async function importFiles(
  deps: CoreDeps,
  caller: Caller,
  files: { listed: readonly ListedFile[]; skipped: readonly { sourcePath: string; reason: string }[] },
  report: (sourcePath: string, outcome: ImportOutcome) => void,
  opts: { space?: string; onFile?: () => void } = {},
): Promise<ImportCounts> {
  const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0, skipped: 0 };
  const done = (sourcePath: string, outcome: ImportOutcome) => {
    counts[outcome.status]++;
    report(sourcePath, outcome);
  };
  for (const s of files.skipped) done(s.sourcePath, { status: 'skipped', reason: s.reason });
  const max = deps.config.maxContentBytes;
  for (const file of files.listed) {
    const read = file.read(max + FRONT_MATTER_ALLOWANCE);
    const skip = 'skipped' in read ? read.skipped : fileOverLimit(read.bytes, max);
    done(
      file.sourcePath,
      skip !== undefined
        ? { status: 'skipped', reason: skip }
        : await importDocument(deps, caller, {
            sourcePath: file.sourcePath,
            bytes: (read as { bytes: Uint8Array }).bytes,
            space: opts.space,
            projectName: file.projectName(),
          }),
    );
    opts.onFile?.();
  }
  return counts;
}

/** The summary line of an import: where it went (and as whom, when that is not the space's owner) and the counts. */
export function importSummary(
  dir: string,
  space: { slug: string },
  caller: { handle: string },
  asked: string | undefined,
  counts: ImportCounts,
): string {
  const as = asked && space.slug !== caller.handle ? ` (as @${caller.handle})` : '';
  return `imported ${dir} into @${space.slug}${as}: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged, ${counts.skipped} skipped`;
}
