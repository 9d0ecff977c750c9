import { and, eq, isNull, sql } from 'drizzle-orm';
import { bindingsTable, spacesTable, versionsTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';
import {
  bindingColumns,
  isUniqueViolation,
  versionMetaColumns,
  type BindingInsert,
  type BindingVersionRow,
  type VersionInsert,
} from './bindings.ts';
import { ftsDelete, ftsInsert } from './fts.ts';
import { insertWhere, rowsAffected } from './guarded.ts';

// Binding writes. Each is one batch (one transaction on libSQL and D1) whose statements carry their
// own guards, so a write either happens whole, after its checks held, or not at all; the result says
// which. Space ownership is not re-checked here: a space never changes owner.

/**
 * Creates a binding under `binding.slug` with its version 1 and its search-index row, in one batch.
 * Returns false, having written nothing, when the slug is taken in the space (by a live or deleted
 * binding), or when the binding comes from an import (`sourcePath`) and a live binding imported from
 * that path exists: both checked by the inserting statement, not by an earlier read.
 */
export async function insertBinding(db: BinderyDb, binding: BindingInsert, version: VersionInsert): Promise<boolean> {
  const slugFree = sql`NOT EXISTS (SELECT 1 FROM bindings WHERE space_id = ${binding.spaceId} AND slug = ${binding.slug})`;
  const notImported = binding.sourcePath
    ? sql` AND NOT EXISTS (SELECT 1 FROM bindings WHERE space_id = ${binding.spaceId} AND source_path = ${binding.sourcePath} AND deleted_at IS NULL)`
    : sql``;
  // The binding id is new and random: it exists only if this batch's first statement wrote it.
  const landed = sql`EXISTS (SELECT 1 FROM bindings WHERE id = ${binding.id})`;
  try {
    const [inserted] = await db.batch([
      insertWhere(db, bindingsTable, binding, sql`${slugFree}${notImported}`),
      insertWhere(db, versionsTable, version, landed),
      ftsInsert(db, binding.id, version, landed),
    ]);
    return rowsAffected(inserted) === 1;
  } catch (err) {
    // The statement checks the slug itself; the unique index stays the last word (nothing written).
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/**
 * Appends version `version.number` if, at that moment, the binding is live and at the version before
 * it; the binding's pointer and its index row follow in the same batch only if the version was
 * written. Returns false, having written nothing, when the binding was deleted or another writer's
 * version landed first (the caller re-reads to tell which).
 */
export async function appendVersion(db: BinderyDb, bindingId: string, version: VersionInsert, now: number): Promise<boolean> {
  const base = sql`EXISTS (SELECT 1 FROM bindings WHERE id = ${bindingId} AND current_version = ${version.number - 1} AND deleted_at IS NULL)`;
  // The version id is new and random: it exists only if this batch wrote it.
  const written = sql`EXISTS (SELECT 1 FROM versions WHERE id = ${version.id})`;
  try {
    const [inserted] = await db.batch([
      insertWhere(db, versionsTable, version, base),
      db
        .update(bindingsTable)
        .set({ currentVersion: version.number, updatedAt: now })
        .where(and(eq(bindingsTable.id, bindingId), eq(bindingsTable.currentVersion, version.number - 1), written)),
      ftsDelete(db, bindingId, written),
      ftsInsert(db, bindingId, version, written),
    ]);
    return rowsAffected(inserted) === 1;
  } catch (err) {
    // Only a database already holding version n without pointing at it lands here; nothing was written.
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/**
 * Hides a live binding from reads, lists and search (its versions stay). Returns the version it was
 * at, or undefined when it was already deleted or does not exist: then nothing changed.
 */
export async function softDeleteBinding(db: BinderyDb, bindingId: string, now: number): Promise<number | undefined> {
  const [hidden] = await db.batch([
    db
      .update(bindingsTable)
      .set({ deletedAt: now, updatedAt: now })
      .where(and(eq(bindingsTable.id, bindingId), isNull(bindingsTable.deletedAt)))
      .returning({ currentVersion: bindingsTable.currentVersion }),
    // Unguarded on purpose: the index holds live bindings only, so for one hidden earlier this
    // finds no row (and it clears a stale row left by an older release's race).
    ftsDelete(db, bindingId),
  ]);
  return hidden[0]?.currentVersion;
}

/**
 * The slugs in a space that are `base` or `base-<digits>`, live or deleted (deleted bindings keep
 * theirs: their URLs must not be reused). `base` is a slugify() result: no GLOB metacharacters.
 */
export async function numberedSlugs(db: BinderyDb, spaceId: string, base: string): Promise<Set<string>> {
  const rows = await db.all<{ slug: string }>(
    sql`SELECT slug FROM bindings WHERE space_id = ${spaceId} AND (slug = ${base} OR slug GLOB ${`${base}-[0-9]*`})`,
  );
  return new Set(rows.map((r) => r.slug));
}

/**
 * A binding at one of its versions, deleted or not, without an access check: a writer's answer is
 * what it wrote, even when a delete landed right after it.
 */
export async function bindingAtVersion(db: BinderyDb, bindingId: string, number: number): Promise<BindingVersionRow | undefined> {
  const row = await db
    .select({ ...bindingColumns, ...versionMetaColumns })
    .from(bindingsTable)
    .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
    .innerJoin(versionsTable, and(eq(versionsTable.bindingId, bindingsTable.id), eq(versionsTable.number, number)))
    .where(eq(bindingsTable.id, bindingId))
    .get();
  return row as BindingVersionRow | undefined;
}
