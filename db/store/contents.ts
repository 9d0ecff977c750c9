import { sql } from 'drizzle-orm';
import type { BinderyDb } from '../types.ts';

/** Ids per statement: D1 binds at most 100 parameters. */
const CHUNK = 90;

/**
 * The content of versions by version id. Callers pass ids of rows they already read through an
 * access check; tier 2 loads content only for the items it will actually show.
 */
export function contentsByVersionId(db: BinderyDb, versionIds: readonly string[]): Promise<Map<string, string>> {
  return columnByVersionId(db, 'content', versionIds);
}

/** The stored sections (JSON) of versions by version id, for rows already read through an access check. */
export function sectionsByVersionId(db: BinderyDb, versionIds: readonly string[]): Promise<Map<string, string>> {
  return columnByVersionId(db, 'sections', versionIds);
}

/** One large text column of versions, read only for the ids asked for, in chunks D1 accepts. */
async function columnByVersionId(
  db: BinderyDb,
  column: 'content' | 'sections',
  versionIds: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < versionIds.length; i += CHUNK) {
    const ids = versionIds.slice(i, i + CHUNK);
    const rows = await db.all<{ id: string; value: string }>(
      sql`SELECT id, ${sql.identifier(column)} AS value FROM versions WHERE id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    for (const r of rows) out.set(r.id, r.value);
  }
  return out;
}
