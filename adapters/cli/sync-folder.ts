// The folder side of `bindery sync` on node:fs (core/services/sync-folder.ts says what it must do).
// Nothing here follows a symbolic link: listing and reading reuse `bindery import`'s walk and guarded
// read; every write goes to a new temporary file (O_EXCL | O_NOFOLLOW) in the target's folder, whose
// real path must be the one expected under the root, and is then renamed (or hard-linked, when no file
// may be there) into place, which replaces a name, never writes through a link. A path with `..`, a
// hidden segment or a link anywhere on its way is refused before anything is written.
import { linkSync, lstatSync, mkdirSync, realpathSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CONFLICT_NAME, safeRelativePath } from '../../core/services/sync-format.ts';
import { sameStamp, stampOf, TAKEN, type FolderEntry, type SyncFolder } from '../../core/services/sync-folder.ts';
import { markdownFiles, readListedFile } from './import-files.ts';
import { writeTempFile } from './temp-file.ts';

/** A SyncFolder over the folder whose real path is `realRoot`. */
export function createSyncFolder(realRoot: string): SyncFolder {
  const abs = (path: string) => join(realRoot, ...path.split('/'));
  const rel = (path: string) => relative(realRoot, path).split(sep).join('/');

  /** The folder a file of `path` goes in, made if missing, or why not: every segment a plain folder. */
  const folderFor = (path: string, create: boolean): string | { skipped: string } => {
    if (!safeRelativePath(path) && !CONFLICT_NAME.test(path))
      return { skipped: 'not a path sync writes to (outside the folder, hidden, or not .md)' };
    let dir = realRoot;
    for (const seg of path.split('/').slice(0, -1)) {
      dir = join(dir, seg);
      if (create) {
        try {
          mkdirSync(dir);
        } catch (e) {
          if ((e as { code?: string }).code !== 'EEXIST')
            return { skipped: `its folder could not be made (${(e as { code?: string }).code ?? 'error'})` };
        }
      }
      const st = lstatSync(dir, { throwIfNoEntry: false });
      if (!st?.isDirectory())
        return { skipped: st?.isSymbolicLink() ? 'its folder is a symbolic link; links are not followed' : 'its folder is missing' };
    }
    return realOrNull(dir) === dir ? dir : { skipped: 'its folder leads outside the synced folder; nothing written' };
  };

  return {
    list(onSkip) {
      const out: FolderEntry[] = [];
      // Hidden files (an editor's lock and backup files among them) are not synced, nor told about.
      const hidden = (path: string) => path.split('/').pop()!.startsWith('.');
      for (const file of markdownFiles(realRoot, (p, reason) => hidden(rel(p)) || onSkip(rel(p), reason))) {
        const path = rel(file);
        if (CONFLICT_NAME.test(path) || hidden(path)) continue;
        const st = lstatSync(file, { throwIfNoEntry: false });
        if (st?.isFile()) out.push({ path, ...stampOf(st) });
      }
      return out;
    },

    entry(path) {
      // What `list` leaves out is left out here too: hidden or node_modules segments, other files, copies.
      if (!safeRelativePath(path) || path.split('/').includes('node_modules')) return undefined;
      const st = lstatSync(abs(path), { throwIfNoEntry: false });
      if (st?.isSymbolicLink()) return { skipped: 'a symbolic link; links are not followed' };
      return st?.isFile() ? { path, ...stampOf(st) } : undefined;
    },

    read(path, maxBytes) {
      return readListedFile(realRoot, realRoot, abs(path), maxBytes);
    },

    write(path, bytes, expect) {
      const dir = folderFor(path, true);
      if (typeof dir !== 'string') return dir;
      const name = path.split('/').pop()!;
      const target = join(dir, name);
      const tmp = writeTempFile(dir, name, bytes);
      try {
        // Checked again right before the name is published: the folder may have been swapped meanwhile.
        if (realOrNull(dir) !== dir) return { skipped: 'its folder became a link while writing; nothing written' };
        const now = lstatSync(target, { throwIfNoEntry: false });
        if (expect === 'absent') {
          // link(2) fails if the name exists: no file is ever replaced by a write that expected none.
          try {
            linkSync(tmp, target);
          } catch (e) {
            if ((e as { code?: string }).code === 'EEXIST') return { skipped: TAKEN };
            throw e;
          }
        } else {
          if (now && !now.isFile()) return { skipped: 'a link or folder is in the way; nothing written' };
          if (expect !== 'any' && (!now || !sameStamp(now, expect))) return { skipped: 'it changed while syncing; left for the next pass' };
          renameSync(tmp, target);
        }
        return stampOf(lstatSync(target));
      } finally {
        rmSync(tmp, { force: true });
      }
    },

    remove(path, expect) {
      const dir = folderFor(path, false);
      if (typeof dir !== 'string') return dir;
      const target = join(dir, path.split('/').pop()!);
      const now = lstatSync(target, { throwIfNoEntry: false });
      if (!now) return true;
      if (!now.isFile() || !sameStamp(now, expect)) return { skipped: 'it changed since the last sync; kept' };
      unlinkSync(target);
      return true;
    },
  };
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
