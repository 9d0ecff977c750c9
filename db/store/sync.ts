import { and, eq, sql } from 'drizzle-orm';
import { bindingsTable, syncFilesTable, syncRootsTable, versionsTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';

// The state of `bindery sync`: which folder pairs with which space, and what each file held when it
// and its binding were last in step. Each write here is one statement or one batch.

export type SyncRoot = typeof syncRootsTable.$inferSelect;
export type SyncFileRow = typeof syncFilesTable.$inferSelect;

/** A tracked file with its binding as it is now: `current` is null when the binding is gone or deleted. */
export interface TrackedFile extends SyncFileRow {
  current: number | null;
}

/** The pairing of a folder (by real path), if it was synced before. */
export function findSyncRoot(db: BinderyDb, path: string): Promise<SyncRoot | undefined> {
  return db.select().from(syncRootsTable).where(eq(syncRootsTable.path, path)).get();
}

/** Pairs a folder with a space unless another run paired it meanwhile; returns the pairing that holds. */
export async function pairSyncRoot(db: BinderyDb, root: SyncRoot): Promise<SyncRoot> {
  await db.insert(syncRootsTable).values(root).onConflictDoNothing().run();
  return (await findSyncRoot(db, root.path))!;
}

const TRACKED = sql`SELECT f.root_id AS rootId, f.path AS path, f.binding_id AS bindingId, f.version AS version,
      f.hash AS hash, f.size AS size, f.mtime_ms AS mtimeMs, f.format AS format, f.synced_at AS syncedAt,
      CASE WHEN b.deleted_at IS NULL THEN b.current_version END AS current
    FROM sync_files f LEFT JOIN bindings b ON b.id = f.binding_id`;

const tracked = (rows: (SyncFileRow & { current: number | null })[]): TrackedFile[] =>
  rows.map((r) => ({ ...r, current: r.current === null ? null : Number(r.current) }));

/** Every tracked file of a folder with its binding's current version (null: deleted or missing). */
export async function trackedFiles(db: BinderyDb, rootId: string): Promise<TrackedFile[]> {
  return tracked(await db.all(sql`${TRACKED} WHERE f.root_id = ${rootId}`));
}

/** The tracked files of a folder at these paths (a watcher's pass over what changed). */
export async function trackedFilesAt(db: BinderyDb, rootId: string, paths: readonly string[]): Promise<TrackedFile[]> {
  const out: TrackedFile[] = [];
  for (let i = 0; i < paths.length; i += 200) {
    const some = paths.slice(i, i + 200);
    out.push(
      ...tracked(
        await db.all(
          sql`${TRACKED} WHERE f.root_id = ${rootId} AND f.path IN (${sql.join(
            some.map((p) => sql`${p}`),
            sql`, `,
          )})`,
        ),
      ),
    );
  }
  return out;
}

/** Tracked files whose binding moved on (a newer version, deleted, gone) since they were in step. */
export async function filesBehind(db: BinderyDb, rootId: string): Promise<TrackedFile[]> {
  return tracked(
    await db.all(
      sql`${TRACKED} WHERE f.root_id = ${rootId} AND (b.id IS NULL OR b.deleted_at IS NOT NULL OR b.current_version <> f.version)`,
    ),
  );
}

/** Live bindings of a space that no file of this folder tracks. */
export function untrackedBindings(
  db: BinderyDb,
  rootId: string,
  spaceId: string,
): Promise<{ id: string; slug: string; sourcePath: string | null }[]> {
  return db.all(sql`SELECT b.id AS id, b.slug AS slug, b.source_path AS sourcePath FROM bindings b
    WHERE b.space_id = ${spaceId} AND b.deleted_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM sync_files f WHERE f.root_id = ${rootId} AND f.binding_id = b.id)
    ORDER BY b.slug`);
}

/** The binding a file of this folder tracks, if any. */
export async function trackingPath(db: BinderyDb, rootId: string, bindingId: string): Promise<string | undefined> {
  const row = await db
    .select({ path: syncFilesTable.path })
    .from(syncFilesTable)
    .where(and(eq(syncFilesTable.rootId, rootId), eq(syncFilesTable.bindingId, bindingId)))
    .get();
  return row?.path;
}

/** Records a file as in step (insert or replace the row for its path). */
export function recordFile(db: BinderyDb, row: SyncFileRow) {
  const { rootId: _r, path: _p, ...rest } = row;
  return db
    .insert(syncFilesTable)
    .values(row)
    .onConflictDoUpdate({ target: [syncFilesTable.rootId, syncFilesTable.path], set: rest })
    .run();
}

/** Records many files as in step, in one batch (one commit). */
export async function recordFiles(db: BinderyDb, rows: SyncFileRow[]): Promise<void> {
  const [first, ...rest] = rows.map((row) => {
    const { rootId: _r, path: _p, ...set } = row;
    return db
      .insert(syncFilesTable)
      .values(row)
      .onConflictDoUpdate({ target: [syncFilesTable.rootId, syncFilesTable.path], set });
  });
  if (first) await db.batch([first, ...rest]);
}

/** Forgets a file. */
export function forgetFile(db: BinderyDb, rootId: string, path: string) {
  return db
    .delete(syncFilesTable)
    .where(and(eq(syncFilesTable.rootId, rootId), eq(syncFilesTable.path, path)))
    .run();
}

/**
 * A file renamed in the folder: its row moves to the new path and its binding's source path follows,
 * in one batch, so a crash never leaves them disagreeing.
 */
export async function moveFile(db: BinderyDb, rootId: string, from: string, to: string, bindingId: string): Promise<void> {
  await db.batch([
    db
      .update(syncFilesTable)
      .set({ path: to })
      .where(and(eq(syncFilesTable.rootId, rootId), eq(syncFilesTable.path, from))),
    db.update(bindingsTable).set({ sourcePath: to }).where(eq(bindingsTable.id, bindingId)),
  ]);
}

/** Records where a binding's file is about to be written, so a run cut short finds it there (by path). */
export function setSourcePath(db: BinderyDb, bindingId: string, path: string) {
  return db.update(bindingsTable).set({ sourcePath: path }).where(eq(bindingsTable.id, bindingId)).run();
}

/** A cheap fingerprint of a space's bindings: changes whenever one is written, deleted or restored. */
export async function spaceFingerprint(db: BinderyDb, spaceId: string): Promise<string> {
  const row = await db.get<{ n: number; at: number | null; v: number | null }>(
    sql`SELECT count(*) AS n, max(updated_at) AS at, sum(current_version) AS v FROM bindings WHERE space_id = ${spaceId}`,
  );
  return `${row?.n ?? 0}:${row?.at ?? 0}:${row?.v ?? 0}`;
}

/** A binding as sync writes it: its current version's fields and content, and whether it is deleted. */
export interface SyncBinding {
  id: string;
  slug: string;
  sourcePath: string | null;
  deleted: boolean;
  number: number;
  name: string;
  summary: string;
  keyPoints: string[];
  source: 'human' | 'llm';
  model: string | null;
  updatedAt: number;
  content: string;
}

/** A binding of this space at its current version (deleted or not), or undefined. */
export async function syncBinding(db: BinderyDb, spaceId: string, id: string): Promise<SyncBinding | undefined> {
  const row = await db
    .select({
      id: bindingsTable.id,
      slug: bindingsTable.slug,
      sourcePath: bindingsTable.sourcePath,
      deletedAt: bindingsTable.deletedAt,
      number: versionsTable.number,
      name: versionsTable.name,
      summary: versionsTable.summary,
      keyPoints: versionsTable.keyPoints,
      source: versionsTable.source,
      model: versionsTable.model,
      updatedAt: bindingsTable.updatedAt,
      content: versionsTable.content,
    })
    .from(bindingsTable)
    .innerJoin(versionsTable, and(eq(versionsTable.bindingId, bindingsTable.id), eq(versionsTable.number, bindingsTable.currentVersion)))
    .where(and(eq(bindingsTable.id, id), eq(bindingsTable.spaceId, spaceId)))
    .get();
  if (!row) return undefined;
  const { deletedAt, ...rest } = row;
  return { ...rest, deleted: deletedAt !== null } as SyncBinding;
}
