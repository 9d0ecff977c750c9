import { BinderyError } from '../errors.ts';
import {
  filesBehind,
  forgetFile,
  moveFile,
  setSourcePath,
  trackedFiles,
  trackedFilesAt,
  untrackedBindings,
  type SyncBinding,
  type TrackedFile,
} from '../../db/store/sync.ts';
import { createBinding, deleteBinding, updateBinding } from './bindings.ts';
import { restoreBinding } from './restore.ts';
import { bytesHash, conflictPath, formatFor, inStep, renderSyncFile, safeRelativePath, type SyncFormat } from './sync-format.ts';
import { TAKEN, type FolderEntry, type WriteExpectation } from './sync-folder.ts';
import {
  bindingOf,
  emptyCounts,
  flushRecords,
  isFileRefusal,
  isStale,
  ownerOf,
  readFile,
  record,
  skip,
  type ReadFile,
  type SyncCounts,
  type SyncSession,
} from './sync.ts';

// One pass of `bindery sync`. The folder's side first (new, changed, renamed, deleted files), then
// Bindery's (newer versions, deletions, bindings with no file). Every step writes the database or the
// file first and records the new state after it: a pass cut short anywhere leaves a state the next
// pass recognises (file and binding equal means in step, whatever the record says) and finishes.

const HUMAN = { source: 'human' as const, model: null };

/**
 * Brings the session's folder and space in step once; returns what it did, by kind. `only` narrows the
 * folder's side to these paths (a watcher's events; empty: Bindery's side alone); Bindery's side is
 * always whole (two indexed queries).
 */
export async function syncPass(s: SyncSession, only?: ReadonlySet<string>): Promise<SyncCounts> {
  const counts = emptyCounts();
  const outer = s.report;
  const session: SyncSession = { ...s, report: (e) => (counts[e.kind]++, outer(e)), pending: new Map() };
  await s.deps.tokens.load();
  await folderSide(session, only);
  // Bindery's side asks the database which files are behind: every record must be in it first.
  await flushRecords(session);
  await binderySide(session);
  await flushRecords(session);
  return counts;
}

async function folderSide(s: SyncSession, only?: ReadonlySet<string>): Promise<void> {
  if (only?.size === 0) return;
  const rows = only ? await trackedFilesAt(s.deps.db, s.root.id, [...only]) : await trackedFiles(s.deps.db, s.root.id);
  const tracked = new Map(rows.map((r) => [r.path, r]));
  const unavailable = new Set<string>();
  const onSkip = (path: string, reason: string) => {
    unavailable.add(path);
    skip(s, path, reason);
  };
  const entries = only ? [...only].sort().flatMap((path) => folderEntry(s, path, onSkip)) : s.folder.list(onSkip);
  const seen = new Set<string>();
  const fresh: ReadFile[] = [];
  const changed: [TrackedFile, ReadFile][] = [];
  for (const entry of entries) {
    seen.add(entry.path);
    const row = tracked.get(entry.path);
    // Unchanged size and mtime: the file is what was recorded, and is not read again.
    if (row && row.size === entry.size && row.mtimeMs === entry.mtimeMs) continue;
    const file = await readFile(s, entry.path, entry);
    if (!file) {
      unavailable.add(entry.path);
      continue;
    }
    if (!row) fresh.push(file);
    else if (file.hash === row.hash) await record(s, row.bindingId, row.version, row.format, file);
    else changed.push([row, file]);
  }
  const missing = [...tracked.values()].filter((r) => !seen.has(r.path) && !unavailable.has(r.path));
  for (const row of missing) {
    const i = fresh.findIndex((f) => f.hash === row.hash || (f.doc.id !== undefined && f.doc.id === row.bindingId));
    if (i < 0) {
      await fileGone(s, row);
      continue;
    }
    const [file] = fresh.splice(i, 1);
    await moveFile(s.deps.db, s.root.id, row.path, file!.path, row.bindingId);
    s.report({ kind: 'renamed', from: row.path, path: file!.path, id: row.bindingId });
    const moved = { ...row, path: file!.path };
    if (file!.hash === row.hash) await record(s, row.bindingId, row.version, row.format, file!);
    else changed.push([moved, file!]);
  }
  for (const [row, file] of changed) await fileChanged(s, row, file);
  for (const file of fresh) await fileNew(s, file);
}

/** The entry at one path (none when nothing to sync is there); one left out is told to `onSkip`. */
function folderEntry(s: SyncSession, path: string, onSkip: (path: string, reason: string) => void): FolderEntry[] {
  const e = s.folder.entry(path);
  if (e && 'skipped' in e) {
    onSkip(path, e.skipped);
    return [];
  }
  return e ? [e] : [];
}

/** A new file: it joins the binding it belongs to (a run cut short), or becomes a new binding. */
async function fileNew(s: SyncSession, file: ReadFile): Promise<void> {
  try {
    const owner = await ownerOf(s, file);
    if (owner) {
      let version = owner.number;
      if (!inStep(file.doc, owner)) {
        version = (await updateBinding(s.deps, s.caller, owner.id, file.doc.fields, HUMAN)).row.number;
        s.hooks?.afterWrite?.('adopt', file.path);
      }
      if (owner.sourcePath !== file.path) await setSourcePath(s.deps.db, owner.id, file.path);
      await record(s, owner.id, version, file.doc.format, file);
      s.report({ kind: 'adopted', path: file.path, id: owner.id, version });
      return;
    }
    const input = { ...file.doc.fields, space: s.space.id };
    // The source path finds the binding again after a pass cut short; another binding already named
    // by it (a copy of a tracked export file) leaves this one without.
    const row = await createBinding(s.deps, s.caller, { ...input, sourcePath: file.path }, HUMAN).catch((e) => {
      if (e instanceof BinderyError && e.code === 'CONFLICT' && e.field === 'sourcePath')
        return createBinding(s.deps, s.caller, input, HUMAN);
      throw e;
    });
    s.hooks?.afterWrite?.('create', file.path);
    await record(s, row.bindingId, row.number, file.doc.format, file);
    s.report({ kind: 'created', path: file.path, id: row.bindingId, version: row.number });
  } catch (e) {
    if (!isFileRefusal(e)) throw e;
    skip(s, file.path, e.message, file);
  }
}

/** A tracked file whose bytes changed: a new version, unless Bindery changed too (then both are kept). */
async function fileChanged(s: SyncSession, row: TrackedFile, file: ReadFile, attempt = 0): Promise<void> {
  let b = await bindingOf(s, row.bindingId);
  if (!b) {
    // The binding is gone from this space altogether: the file starts over as a new one.
    await forgetFile(s.deps.db, s.root.id, row.path);
    return fileNew(s, file);
  }
  try {
    if (b.deleted) {
      await restoreBinding(s.deps, s.caller, b.id);
      s.report({
        kind: 'conflict',
        path: file.path,
        id: b.id,
        detail: `deleted in Bindery but changed in the folder: binding ${b.id} is restored with the folder's version`,
      });
      b = (await bindingOf(s, b.id))!;
    } else if (b.number !== row.version) {
      if (inStep(file.doc, b)) return record(s, b.id, b.number, row.format, file);
      return await conflict(s, row, file, b);
    }
    const { row: written } = await updateBinding(s.deps, s.caller, b.id, { ...file.doc.fields, expectedVersion: b.number }, HUMAN);
    s.hooks?.afterWrite?.('update', file.path);
    await record(s, b.id, written.number, row.format, file);
    if (written.number !== b.number) s.report({ kind: 'updated', path: file.path, id: b.id, version: written.number });
  } catch (e) {
    if (isStale(e) && attempt < 5) return fileChanged(s, row, file, attempt + 1);
    if (!isFileRefusal(e)) throw e;
    skip(s, file.path, e.message, file);
  }
}

/**
 * Both sides changed since the last sync. The folder's version becomes the binding's newest version
 * (the folder stays the whole truth) and Bindery's version is written beside the file as
 * `<name>.bindery-conflict-v<N>.md`, N its version number (it also stays in the binding's history).
 */
async function conflict(s: SyncSession, row: TrackedFile, file: ReadFile, b: SyncBinding): Promise<void> {
  const copy = conflictPath(file.path, b.number);
  // Written first and named by version: a pass cut short writes the same copy again.
  const wrote = s.folder.write(copy, renderSyncFile(b, row.format), 'any');
  if ('skipped' in wrote)
    return skip(
      s,
      file.path,
      `changed in both the folder and Bindery, and Bindery's version could not be kept beside it (${copy}: ${wrote.skipped}); left as it is`,
      file,
    );
  const { row: written } = await updateBinding(s.deps, s.caller, b.id, { ...file.doc.fields, expectedVersion: b.number }, HUMAN);
  s.hooks?.afterWrite?.('conflict', file.path);
  await record(s, b.id, written.number, row.format, file);
  s.report({
    kind: 'conflict',
    path: file.path,
    id: b.id,
    detail: `changed in both the folder and Bindery: the folder's version is now version ${written.number}; Bindery's version ${b.number} is kept in ${copy}`,
  });
}

/** A tracked file that is gone (and was not renamed): its binding is deleted, unless Bindery changed it. */
async function fileGone(s: SyncSession, row: TrackedFile): Promise<void> {
  const b = await bindingOf(s, row.bindingId);
  if (!b || b.deleted) {
    await forgetFile(s.deps.db, s.root.id, row.path);
    return;
  }
  if (b.number === row.version) {
    await deleteBinding(s.deps, s.caller, b.id);
    s.hooks?.afterWrite?.('delete', row.path);
    await forgetFile(s.deps.db, s.root.id, row.path);
    s.report({ kind: 'deleted', path: row.path, id: b.id, version: b.number });
    return;
  }
  // Deleted in the folder, changed in Bindery: the change wins and the file comes back.
  if (await writeBack(s, b, row.path, row.format, 'absent')) {
    s.report({
      kind: 'conflict',
      path: row.path,
      id: b.id,
      detail: `deleted in the folder but changed in Bindery (version ${b.number}): the file is written back`,
    });
  }
}

/** Writes a binding's file and records it; false (reported) when the folder refused the write. */
async function writeBack(s: SyncSession, b: SyncBinding, path: string, format: SyncFormat, expect: WriteExpectation): Promise<boolean> {
  const bytes = renderSyncFile(b, format);
  const stamp = s.folder.write(path, bytes, expect);
  if ('skipped' in stamp) {
    skip(s, path, stamp.skipped);
    return false;
  }
  s.hooks?.afterWrite?.('write', path);
  await record(s, b.id, b.number, format, { path, hash: await bytesHash(bytes), ...stamp });
  return true;
}

async function binderySide(s: SyncSession): Promise<void> {
  for (const row of await filesBehind(s.deps.db, s.root.id)) {
    const b = row.current === null ? undefined : await bindingOf(s, row.bindingId);
    if (!b || b.deleted) {
      const removed = s.folder.remove(row.path, row);
      // A file changed meanwhile is left for the next pass, which sees the change (and restores).
      if (removed !== true) continue;
      s.hooks?.afterWrite?.('remove', row.path);
      await forgetFile(s.deps.db, s.root.id, row.path);
      s.report({ kind: 'removed', path: row.path, id: row.bindingId });
      continue;
    }
    const bytes = renderSyncFile(b, row.format);
    const hash = await bytesHash(bytes);
    // A change that leaves the file as it is (a new summary on a plain file) only moves the record on.
    if (hash === row.hash) await record(s, b.id, b.number, row.format, row);
    else if (await writeBack(s, b, row.path, row.format, row)) s.report({ kind: 'written', path: row.path, id: b.id, version: b.number });
  }
  for (const u of await untrackedBindings(s.deps.db, s.root.id, s.space.id)) {
    const b = await bindingOf(s, u.id);
    if (!b || b.deleted) continue;
    const path = u.sourcePath && safeRelativePath(u.sourcePath) ? u.sourcePath : `${u.slug}.md`;
    // Recorded on the binding before the file exists, so a pass cut short finds the file as its own.
    if (u.sourcePath !== path) await setSourcePath(s.deps.db, u.id, path);
    let target = path;
    let format = formatFor(b, target);
    let ok = await writeBackNew(s, b, target, format);
    if (ok === 'taken') {
      target = path.replace(/\.md$/i, `-${u.id.slice(-6).toLowerCase()}.md`);
      await setSourcePath(s.deps.db, u.id, target);
      format = formatFor(b, target);
      ok = await writeBackNew(s, b, target, format);
    }
    if (ok === 'taken') skip(s, target, `${TAKEN}; binding ${b.id} is not written to the folder until it is free`);
    if (ok === true) s.report({ kind: 'written', path: target, id: b.id, version: b.number });
  }
}

/** A new file for a binding, only where no file is; 'taken' when one is there. */
async function writeBackNew(s: SyncSession, b: SyncBinding, path: string, format: SyncFormat): Promise<boolean | 'taken'> {
  const bytes = renderSyncFile(b, format);
  const stamp = s.folder.write(path, bytes, 'absent');
  if ('skipped' in stamp) {
    if (stamp.skipped === TAKEN) return 'taken';
    skip(s, path, stamp.skipped);
    return false;
  }
  s.hooks?.afterWrite?.('write', path);
  await record(s, b.id, b.number, format, { path, hash: await bytesHash(bytes), ...stamp });
  return true;
}
