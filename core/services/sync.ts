import type { Caller } from '../context.ts';
import { BinderyError, fail } from '../errors.ts';
import { newId } from '../ids.ts';
import type { SpaceRow } from '../../db/store/users.ts';
import { findImportedBinding } from '../../db/store/imports.ts';
import {
  findSyncRoot,
  pairSyncRoot,
  recordFile,
  recordFiles,
  spaceFingerprint,
  syncBinding,
  trackingPath,
  type SyncBinding,
  type SyncFileRow,
  type SyncRoot,
} from '../../db/store/sync.ts';
import { resolveWritableSpace, type CoreDeps } from './bindings.ts';
import { bytesHash, readSyncDoc, type SyncDoc, type SyncFormat } from './sync-format.ts';
import { FRONT_MATTER_ALLOWANCE, fileOverLimit, tooLarge } from './export-format.ts';
import type { FileStamp, SyncFolder } from './sync-folder.ts';

// `bindery sync`: one pass brings a space and a folder in step (core/services/sync-pass.ts runs it).
// This file holds the pairing of a folder with a space and the pieces the pass shares.

/** What a pass did, file by file (the CLI prints them; tests read them). */
export type SyncEvent =
  | { kind: 'created' | 'updated' | 'adopted' | 'deleted' | 'written' | 'removed'; path: string; id: string; version?: number }
  | { kind: 'renamed'; from: string; path: string; id: string }
  | { kind: 'conflict'; path: string; id: string; detail: string }
  | { kind: 'skipped'; path: string; reason: string };

export type SyncKind = SyncEvent['kind'];
export type SyncCounts = Record<SyncKind, number>;

export const emptyCounts = (): SyncCounts => ({
  created: 0,
  updated: 0,
  adopted: 0,
  renamed: 0,
  deleted: 0,
  written: 0,
  removed: 0,
  conflict: 0,
  skipped: 0,
});

/** Test seams: called right after each database or folder write and before the sync state records it. */
export interface SyncHooks {
  afterWrite?(step: string, path: string): void;
}

/** One folder paired with one space, for a caller, across passes (watch mode keeps it). */
export interface SyncSession {
  deps: CoreDeps;
  caller: Caller;
  root: SyncRoot;
  space: SpaceRow;
  folder: SyncFolder;
  report: (e: SyncEvent) => void;
  hooks?: SyncHooks;
  /** Files left out, with the stamp they had: told once, not on every pass while they stay so. */
  quiet: Map<string, string>;
  /**
   * Records not yet written, by path. A record only saves the next pass work (a file that equals its
   * binding is picked up as in step without one), so records are written a batch at a time, one
   * commit for many files, and one lost to a crash costs the next pass one read.
   */
  pending?: Map<string, SyncFileRow>;
}

/** A cheap fingerprint of the paired space's bindings: watch mode skips a pass while it stays the same. */
export function spaceChanges(s: SyncSession): Promise<string> {
  return spaceFingerprint(s.deps.db, s.space.id);
}

/** Records waiting before a batch is written. */
const RECORD_BATCH = 200;

/** Records a file as in step with version `version` of its binding (written in batches; see `pending`). */
export async function record(
  s: SyncSession,
  bindingId: string,
  version: number,
  format: SyncFormat,
  file: { path: string; hash: string } & FileStamp,
): Promise<void> {
  const row = {
    rootId: s.root.id,
    path: file.path,
    bindingId,
    version,
    hash: file.hash,
    size: file.size,
    mtimeMs: file.mtimeMs,
    format,
    syncedAt: s.deps.now(),
  };
  if (!s.pending) return void (await recordFile(s.deps.db, row));
  s.pending.delete(file.path);
  s.pending.set(file.path, row);
  if (s.pending.size >= RECORD_BATCH) await flushRecords(s);
}

/** Writes the records waiting, if any. */
export async function flushRecords(s: SyncSession): Promise<void> {
  if (!s.pending?.size) return;
  const rows = [...s.pending.values()];
  s.pending.clear();
  await recordFiles(s.deps.db, rows);
}

/**
 * Pairs the folder at `realPath` with a space the caller owns: the one it was paired with before, else
 * `spaceRef` (default: the personal space). Naming another space for a paired folder is refused, so
 * a typo never mirrors one space's folder into another (or deletes from it).
 */
export async function openSync(
  deps: CoreDeps,
  caller: Caller,
  realPath: string,
  spaceRef?: string,
): Promise<{ root: SyncRoot; space: SpaceRow }> {
  const paired = await findSyncRoot(deps.db, realPath);
  if (paired) {
    const space = await resolveWritableSpace(deps, caller, paired.spaceId);
    if (spaceRef) {
      const asked = await resolveWritableSpace(deps, caller, spaceRef);
      if (asked.id !== space.id)
        throw fail.conflict(
          'space',
          `${realPath} is synced with @${space.slug}, not @${asked.slug}; sync it without --space (or with --space ${space.slug}), or sync another folder with @${asked.slug}`,
        );
    }
    return { root: paired, space };
  }
  const space = await resolveWritableSpace(deps, caller, spaceRef);
  const root = await pairSyncRoot(deps.db, { id: newId('syr'), path: realPath, spaceId: space.id, createdAt: deps.now() });
  if (root.spaceId !== space.id) return openSync(deps, caller, realPath, spaceRef);
  return { root, space };
}

/** A file read in this pass: its path, bytes' hash, stamp as listed, and its document (or why not). */
export interface ReadFile extends FileStamp {
  path: string;
  hash: string;
  doc: SyncDoc;
}

/** Reads and parses one listed file; a file that cannot be synced is reported once and left alone. */
export async function readFile(s: SyncSession, path: string, stamp: FileStamp): Promise<ReadFile | undefined> {
  const max = s.deps.config.maxContentBytes;
  const read = s.folder.read(path, max + FRONT_MATTER_ALLOWANCE);
  const big = tooLarge(stamp.size, max);
  // Only a file in the export form may pass the limit, by its front matter; its content is checked below.
  let skipped = 'skipped' in read ? (/the limit is \d+ bytes/.test(read.skipped) ? big : read.skipped) : undefined;
  let doc: SyncDoc | undefined;
  if ('bytes' in read && fileOverLimit(read.bytes, max)) skipped = big;
  else if ('bytes' in read) {
    const parsed = readSyncDoc(read.bytes, path);
    if ('skipped' in parsed) skipped = parsed.skipped;
    else {
      doc = parsed;
      const bytes = new TextEncoder().encode(parsed.fields.content).length;
      if (bytes > max) skipped = tooLarge(bytes, max);
    }
  }
  if (skipped !== undefined || !doc) {
    skip(s, path, skipped ?? 'unreadable', stamp);
    return undefined;
  }
  s.quiet.delete(path);
  return { path, hash: await bytesHash((read as { bytes: Uint8Array }).bytes), size: stamp.size, mtimeMs: stamp.mtimeMs, doc };
}

/** Reports a file left out, unless it was reported already in the same state. */
export function skip(s: SyncSession, path: string, reason: string, stamp?: FileStamp): void {
  const key = `${reason}|${stamp?.size}|${stamp?.mtimeMs}`;
  if (s.quiet.get(path) === key) return;
  s.quiet.set(path, key);
  s.report({ kind: 'skipped', path, reason });
}

/** The binding of this space with this id as sync sees it (undefined: not in this space). */
export function bindingOf(s: SyncSession, id: string): Promise<SyncBinding | undefined> {
  return syncBinding(s.deps.db, s.space.id, id);
}

/**
 * The live binding an untracked file belongs to, if one exists that no other file of this folder
 * tracks: the id its export front matter names, else the one made from (or last written to) its path.
 * This is how a run cut short between a write and its record picks up where it stopped.
 */
export async function ownerOf(s: SyncSession, file: ReadFile): Promise<SyncBinding | undefined> {
  const candidates = [file.doc.id, (await findImportedBinding(s.deps.db, s.space.id, file.path))?.id];
  for (const id of candidates) {
    if (!id) continue;
    const b = await bindingOf(s, id);
    const pending = [...(s.pending?.values() ?? [])].some((r) => r.bindingId === id);
    if (b && !b.deleted && !pending && (await trackingPath(s.deps.db, s.root.id, id)) === undefined) return b;
  }
  return undefined;
}

/** True for the errors that mean "this file cannot become a binding as written" (reported, skipped). */
export function isFileRefusal(e: unknown): e is BinderyError {
  return e instanceof BinderyError && (e.code === 'TOO_LARGE' || e.code === 'INVALID_INPUT');
}

/** True for a stale expectedVersion: Bindery's side moved while this pass worked. */
export function isStale(e: unknown): boolean {
  return e instanceof BinderyError && e.code === 'CONFLICT' && e.field === 'expectedVersion';
}
