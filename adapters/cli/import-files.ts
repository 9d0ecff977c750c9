// The file-system side of `bindery import`: listing a folder's Markdown files and reading each one
// safely. A folder can change between listing and reading (a file swapped for a link to
// `~/.ssh/id_rsa`), so nothing is trusted from the listing: each file is opened without following a
// final link, checked on the open handle, checked again against its path, and read from the handle.
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Called for every entry left out, with why. */
export type SkipReporter = (path: string, reason: string) => void;

const LINK = 'a symbolic link; links are not followed';
const LINKED_FOLDER = 'a symbolic link to a folder; links are not followed';

/**
 * Markdown files under `root`, sorted; dot-folders and nested node_modules are not entered. No
 * symbolic link is followed, whether to a file or a folder, and wherever it points: a link named
 * `notes.md` must never pull in a file from elsewhere. Links that look like something to import are
 * named to `onSkip`.
 */
export function markdownFiles(root: string, onSkip?: SkipReporter): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    // Dirent types come from lstat: a link is a link here, never what it points at.
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const markdown = /\.md$/i.test(entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && entry.name !== 'node_modules') walk(path);
      } else if (markdown && entry.isFile()) {
        out.push(path);
      } else if (entry.isSymbolicLink()) {
        if (markdown) onSkip?.(path, LINK);
        // stat only to word the message; the folder behind the link is not entered.
        else if (!entry.name.startsWith('.') && statSync(path, { throwIfNoEntry: false })?.isDirectory()) onSkip?.(path, LINKED_FOLDER);
      }
    }
  };
  walk(root);
  return out.sort();
}

/** What reading one listed file gave: its bytes, or why it was left out. */
export type ReadOutcome = { bytes: Uint8Array } | { skipped: string };

/** Seams for tests: run between listing and opening, and between opening and the checks after it. */
export interface ReadHooks {
  beforeOpen?(path: string): void;
  afterOpen?(path: string): void;
}

const CHUNK = 64 * 1024;

/**
 * Reads a file listed under `root` (whose real path is `realRoot`) only if it is still a regular file
 * of at most `maxBytes` inside the folder. O_NOFOLLOW refuses a link in the last component; a folder
 * swapped for a link is caught by resolving the parent after opening, and a swap undone in between by
 * comparing the handle's device and inode with the path's. O_NONBLOCK keeps a FIFO from hanging the open.
 */
export function readListedFile(root: string, realRoot: string, path: string, maxBytes: number, hooks: ReadHooks = {}): ReadOutcome {
  hooks.beforeOpen?.(path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    return { skipped: openFailure(e) };
  }
  try {
    hooks.afterOpen?.(path);
    const opened = fstatSync(fd, { bigint: true });
    if (!opened.isFile()) return { skipped: 'not a regular file' };
    if (opened.size > BigInt(maxBytes)) return { skipped: tooLarge(opened.size, maxBytes) };
    const expectedParent = join(realRoot, relative(root, dirname(path)));
    if (realPathOrNull(dirname(path)) !== expectedParent)
      return { skipped: 'its folder became a symbolic link after it was listed; not read' };
    const now = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    if (!now || now.dev !== opened.dev || now.ino !== opened.ino) return { skipped: 'it was replaced while being opened; not read' };
    return readHandle(fd, maxBytes);
  } finally {
    closeSync(fd);
  }
}

/** Reads the handle to its end, giving up past `maxBytes` (the file may have grown since fstat). */
function readHandle(fd: number, maxBytes: number): ReadOutcome {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(CHUNK);
    const n = readSync(fd, buf, 0, CHUNK, null);
    if (n === 0) break;
    total += n;
    if (total > maxBytes) return { skipped: tooLarge(BigInt(total), maxBytes, 'at least ') };
    chunks.push(buf.subarray(0, n));
  }
  return { bytes: new Uint8Array(Buffer.concat(chunks, total)) };
}

function realPathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

function tooLarge(size: bigint, maxBytes: number, prefix = ''): string {
  return `is ${prefix}${size} bytes; the limit is ${maxBytes} bytes (BINDERY_MAX_CONTENT_BYTES)`;
}

function openFailure(e: unknown): string {
  const code = (e as { code?: string }).code;
  // ELOOP on Linux and macOS, EMLINK on FreeBSD: the last component is a link.
  if (code === 'ELOOP' || code === 'EMLINK') return 'became a symbolic link after it was listed; links are not followed';
  if (code === 'ENOENT') return 'disappeared before it could be read';
  return `could not be opened (${code ?? 'error'})`;
}
