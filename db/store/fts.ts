import { sql, type SQL } from 'drizzle-orm';
import type { BinderyDb } from '../types';

// The full-text index (`bindings_fts`, FTS5) holds the current version of each live binding. Its rowid
// is always the binding's rowid, so search joins by integer key and writes address one row directly.

/** The FTS row of a binding is addressed by the binding's rowid (kept equal to the FTS rowid). */
const ftsRowid = (bindingId: string) => sql`(SELECT rowid FROM bindings WHERE id = ${bindingId})`;

/**
 * Statement indexing a binding's current version; run in the same batch as the version write, with
 * that write's `guard` (the index changes only when the version was written).
 */
export function ftsInsert(db: BinderyDb, bindingId: string, v: { name: string; summary: string; keyPoints?: string[] | null; content: string }, guard: SQL = sql`1`) {
  return db.run(
    sql`INSERT INTO bindings_fts (rowid, binding_id, name, summary, key_points, content) SELECT ${ftsRowid(bindingId)}, ${bindingId}, ${v.name}, ${v.summary}, ${(v.keyPoints ?? []).join('\n')}, ${v.content} WHERE ${guard}`,
  );
}

/** Statement removing a binding from the index (by rowid: a lookup, not a scan of the FTS content), when `guard` holds. */
export function ftsDelete(db: BinderyDb, bindingId: string, guard: SQL = sql`1`) {
  return db.run(sql`DELETE FROM bindings_fts WHERE rowid = ${ftsRowid(bindingId)} AND ${guard}`);
}

const ALIGNED_KEY = 'fts_rowid_aligned';

/**
 * Once per database: rebuilds the index so every FTS rowid equals its binding's rowid (databases
 * indexed before rowids were aligned). Idempotent; a later run is one settings read. Returns true
 * when it rebuilt anything.
 */
export async function alignSearchIndex(db: BinderyDb): Promise<boolean> {
  const done = await db.all<{ value: string }>(sql`SELECT value FROM settings WHERE key = ${ALIGNED_KEY}`);
  if (done.length) return false;
  const any = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM (SELECT 1 FROM bindings_fts LIMIT 1)`);
  const rebuild = Number(any?.n ?? 0) > 0;
  await db.batch([
    ...(rebuild
      ? [
          db.run(sql`DELETE FROM bindings_fts`),
          db.run(sql`INSERT INTO bindings_fts (rowid, binding_id, name, summary, key_points, content)
            SELECT bindings.rowid, bindings.id, versions.name, versions.summary,
              coalesce((SELECT group_concat(value, char(10)) FROM json_each(versions.key_points)), ''), versions.content
            FROM bindings JOIN versions ON versions.binding_id = bindings.id AND versions.number = bindings.current_version
            WHERE bindings.deleted_at IS NULL`),
        ]
      : []),
    db.run(sql`INSERT INTO settings (key, value) VALUES (${ALIGNED_KEY}, '1') ON CONFLICT (key) DO NOTHING`),
  ] as unknown as Parameters<BinderyDb['batch']>[0]);
  return rebuild;
}
