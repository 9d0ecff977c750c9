// What `bindery sync` needs from a folder, as an interface: the core decides, the adapter touches the
// disk (adapters/cli/sync-folder.ts implements it with node:fs, refusing links and paths outside).

/** A file's size and modification time, as compared with the ones recorded at the last sync. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** A Markdown file found in the folder (relative, `/`-separated path). */
/** A file's stamp from its stat: its mtime in whole milliseconds (sync_files.mtime_ms is an integer column, and a dump checks it is one). */
export function stampOf(st: { size: number; mtimeMs: number }): FileStamp {
  return { size: st.size, mtimeMs: Math.floor(st.mtimeMs) };
}

/** True when a file's stat still matches a stamp. */
export function sameStamp(st: { size: number; mtimeMs: number }, stamp: FileStamp): boolean {
  const now = stampOf(st);
  return now.size === stamp.size && now.mtimeMs === stamp.mtimeMs;
}

export interface FolderEntry extends FileStamp {
  path: string;
}

/**
 * What a write must find in place before it lands: nothing (`absent`), the file as last seen (its
 * stamp), or anything but a link or a folder (`any`: a conflict copy sync itself names).
 */
export type WriteExpectation = 'absent' | 'any' | FileStamp;

/** The folder's answer to a write expecting no file when there is one. */
export const TAKEN = 'a file is already there';

export interface SyncFolder {
  /** Every Markdown file, sorted; what is left out (links, conflict copies) is told to `onSkip` with why. */
  list(onSkip: (path: string, reason: string) => void): FolderEntry[];
  /**
   * One path as `list` would give it (a watcher names what changed): its entry, undefined when no
   * file that would be synced is there, or why it is left out.
   */
  entry(path: string): FolderEntry | undefined | { skipped: string };
  /** Reads a listed file if it is still a regular file of at most `maxBytes` inside the folder. */
  read(path: string, maxBytes: number): { bytes: Uint8Array } | { skipped: string };
  /**
   * Writes `bytes` at `path` (a new file renamed into place, inside the folder only), if what is there
   * now matches `expect`; returns the new file's stamp, or why nothing was written.
   */
  write(path: string, bytes: Uint8Array, expect: WriteExpectation): FileStamp | { skipped: string };
  /** Removes the file at `path` if it still matches `expect`; why not, otherwise. */
  remove(path: string, expect: FileStamp): true | { skipped: string };
}
