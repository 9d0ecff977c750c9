import { sql } from 'drizzle-orm';
import type { BinderyDb } from '../types.ts';
import { ftsInsert } from './fts.ts';
import { rowsAffected } from './guarded.ts';

// Deleted bindings are hidden, never erased (their versions stay): their owner can list and restore them.

export interface DeletedBinding {
  id: string;
  name: string;
  slug: string;
  spaceSlug: string;
  currentVersion: number;
  deletedAt: number;
}

/** Deleted bindings in spaces `ownerId` owns, most recently deleted first; `id` narrows to one. */
export async function deletedBindingsOwnedBy(
  db: BinderyDb,
  ownerId: string,
  opts: { id?: string; limit: number },
): Promise<DeletedBinding[]> {
  const one = opts.id ? sql` AND b.id = ${opts.id}` : sql``;
  return db.all<DeletedBinding>(sql`SELECT b.id AS id, v.name AS name, b.slug AS slug, s.slug AS spaceSlug, b.current_version AS currentVersion, b.deleted_at AS deletedAt
    FROM bindings b JOIN spaces s ON s.id = b.space_id JOIN versions v ON v.binding_id = b.id AND v.number = b.current_version
    WHERE s.owner_id = ${ownerId} AND b.deleted_at IS NOT NULL${one} ORDER BY b.deleted_at DESC, b.id LIMIT ${opts.limit}`);
}

/**
 * Makes a deleted binding (in a space `ownerId` owns) live again and puts its current version back in
 * the search index, in one batch; false, having written nothing, when it was not deleted (any more).
 */
export async function undeleteBinding(
  db: BinderyDb,
  bindingId: string,
  ownerId: string,
  current: { name: string; summary: string; keyPoints: string[]; content: string },
  now: number,
): Promise<boolean> {
  const [updated] = await db.batch([
    db.run(sql`UPDATE bindings SET deleted_at = NULL, updated_at = ${now}
      WHERE id = ${bindingId} AND deleted_at IS NOT NULL AND space_id IN (SELECT id FROM spaces WHERE owner_id = ${ownerId})`),
    // Only when the update above landed: the binding is live with this very timestamp.
    ftsInsert(
      db,
      bindingId,
      current,
      sql`EXISTS (SELECT 1 FROM bindings WHERE id = ${bindingId} AND deleted_at IS NULL AND updated_at = ${now})`,
    ),
  ]);
  return rowsAffected(updated) === 1;
}
