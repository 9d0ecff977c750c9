import { sql, type SQL } from 'drizzle-orm';
import type { BinderyDb } from '../types.ts';
import { headingsOf } from './fts-headings.ts';
import { runBatch } from './guarded.ts';

// The full-text index (`bindings_fts`, FTS5) holds the current version of each live binding. It is
// contentless (content=''): the text lives once, in `versions`; the index keeps only its postings.
// Its rowid is always the binding's rowid, so search joins by integer key and writes address one row
// directly (contentless_delete lets a row be removed by rowid alone).

/** The FTS row of a binding is addressed by the binding's rowid (kept equal to the FTS rowid). */
const ftsRowid = (bindingId: string) => sql`(SELECT rowid FROM bindings WHERE id = ${bindingId})`;

/** The indexed columns of one version, in table order (rowid first). */
type Indexed = { name: string; summary: string; keyPoints?: string[] | null; content: string };

/**
 * Statement indexing a binding's current version; run in the same batch as the version write, with
 * that write's `guard` (the index changes only when the version was written).
 */
export function ftsInsert(db: BinderyDb, bindingId: string, v: Indexed, guard: SQL = sql`1`) {
  return db.run(
    sql`INSERT INTO bindings_fts (rowid, name, summary, key_points, headings, content) SELECT ${ftsRowid(bindingId)}, ${v.name}, ${v.summary}, ${(v.keyPoints ?? []).join('\n')}, ${headingsOf(v.content)}, ${v.content} WHERE ${guard}`,
  );
}

/** Statement removing a binding from the index (by rowid), when `guard` holds. */
export function ftsDelete(db: BinderyDb, bindingId: string, guard: SQL = sql`1`) {
  return db.run(sql`DELETE FROM bindings_fts WHERE rowid = ${ftsRowid(bindingId)} AND ${guard}`);
}

export const BUILT_KEY = 'fts_v2_built';
/** The last binding rowid indexed by an unfinished rebuild, written with each chunk: a rerun resumes there. */
const PROGRESS_KEY = 'fts_v2_progress';
/** What a long backfill reports: the rows it will do, then each batch done (the CLI draws it). */
export interface BackfillProgress {
  start(total: number): void;
  done(rows: number): void;
}

/** Bindings re-indexed per batch: bounded memory on large databases. */
const REBUILD_CHUNK = 500;

/**
 * Once per database (after the fts_v2 migration): fills the index from the live bindings' current
 * versions, in chunks keyed by rowid. Each chunk removes then re-adds its rows, and records how far
 * it got, in one batch: a write racing the rebuild leaves one row, never two, and a process killed
 * mid-way (kill -9) leaves a consistent prefix that the next run continues from instead of redoing
 * (rows behind the mark that change later are kept current by the writes themselves). Idempotent; a
 * later run is one settings read. Returns true when it rebuilt anything.
 */
export async function rebuildSearchIndex(db: BinderyDb, progress?: BackfillProgress): Promise<boolean> {
  const marks = await db.all<{ key: string; value: string }>(
    sql`SELECT key, value FROM settings WHERE key IN (${BUILT_KEY}, ${PROGRESS_KEY})`,
  );
  if (marks.some((m) => m.key === BUILT_KEY)) return false;
  let after = Number(marks.find((m) => m.key === PROGRESS_KEY)?.value ?? -1);
  let any = false;
  if (progress) {
    const [left] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM bindings WHERE deleted_at IS NULL AND rowid > ${after}`);
    progress.start(Number(left?.n ?? 0));
  }
  for (;;) {
    const rows = await db.all<{ rid: number; name: string; summary: string; keyPoints: string; content: string }>(sql`
      SELECT bindings.rowid AS rid, versions.name AS name, versions.summary AS summary, versions.key_points AS keyPoints, versions.content AS content
      FROM bindings JOIN versions ON versions.binding_id = bindings.id AND versions.number = bindings.current_version
      WHERE bindings.deleted_at IS NULL AND bindings.rowid > ${after} ORDER BY bindings.rowid LIMIT ${REBUILD_CHUNK}`);
    if (!rows.length) break;
    any = true;
    after = Number(rows[rows.length - 1]!.rid);
    await runBatch(db, [
      ...rows.flatMap((r) => [
        db.run(sql`DELETE FROM bindings_fts WHERE rowid = ${r.rid}`),
        db.run(sql`INSERT INTO bindings_fts (rowid, name, summary, key_points, headings, content)
          VALUES (${r.rid}, ${r.name}, ${r.summary}, ${(JSON.parse(r.keyPoints) as string[]).join('\n')}, ${headingsOf(r.content)}, ${r.content})`),
      ]),
      db.run(
        sql`INSERT INTO settings (key, value) VALUES (${PROGRESS_KEY}, ${String(after)}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ),
    ]);
    progress?.done(rows.length);
  }
  await runBatch(db, [
    db.run(sql`INSERT INTO settings (key, value) VALUES (${BUILT_KEY}, '1') ON CONFLICT (key) DO NOTHING`),
    db.run(sql`DELETE FROM settings WHERE key = ${PROGRESS_KEY}`),
  ]);
  return any;
}
