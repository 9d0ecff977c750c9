import { sql } from 'drizzle-orm';
import type { BinderyDb } from '../types';

/**
 * The content of versions by version id, in one query. Callers pass ids of rows they already read
 * through an access check; tier 2 loads content only for the items it will actually show.
 */
export async function contentsByVersionId(db: BinderyDb, versionIds: readonly string[]): Promise<Map<string, string>> {
  if (versionIds.length === 0) return new Map();
  const rows = await db.all<{ id: string; content: string }>(
    sql`SELECT id, content FROM versions WHERE id IN (${sql.join(versionIds.map((id) => sql`${id}`), sql`, `)})`,
  );
  return new Map(rows.map((r) => [r.id, r.content]));
}
