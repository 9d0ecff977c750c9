import { closeSync, constants, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes `bytes` to a new temporary file beside `name` in `dir` and syncs it to disk; returns its path.
 * O_EXCL | O_NOFOLLOW: it is never an existing file and never written through a link. On a failure
 * the file is removed. The caller publishes it (rename or link) after its own last checks.
 */
export function writeTempFile(dir: string, name: string, bytes: Uint8Array): string {
  const tmp = join(dir, `.${name}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644);
  try {
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  return tmp;
}
