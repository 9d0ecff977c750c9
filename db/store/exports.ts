import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import { bindingsTable, spacesTable, versionsTable } from '../schema/index.ts';
import { canReadBindingSql } from './access.ts';
import type { BinderyDb } from '../types.ts';

/** One live binding at its current version, content included, as `bindery export` writes it. */
export interface ExportRow {
  id: string;
  slug: string;
  updatedAt: number;
  number: number;
  name: string;
  summary: string;
  keyPoints: string[];
  source: 'human' | 'llm';
  model: string | null;
  content: string;
}

/**
 * Live bindings of a space the user may read, after `afterSlug`, by slug, `limit` at a time (deleted
 * ones never). Each row is checked like any read, though a space one may name is readable whole.
 */
export function exportPage(db: BinderyDb, userId: string, spaceId: string, afterSlug: string, limit: number): Promise<ExportRow[]> {
  return db
    .select({
      id: bindingsTable.id,
      slug: bindingsTable.slug,
      updatedAt: bindingsTable.updatedAt,
      number: versionsTable.number,
      name: versionsTable.name,
      summary: versionsTable.summary,
      keyPoints: versionsTable.keyPoints,
      source: versionsTable.source,
      model: versionsTable.model,
      content: versionsTable.content,
    })
    .from(bindingsTable)
    .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
    .innerJoin(versionsTable, and(eq(versionsTable.bindingId, bindingsTable.id), eq(versionsTable.number, bindingsTable.currentVersion)))
    .where(
      and(
        eq(bindingsTable.spaceId, spaceId),
        isNull(bindingsTable.deletedAt),
        gt(bindingsTable.slug, afterSlug),
        canReadBindingSql(userId),
      ),
    )
    .orderBy(asc(bindingsTable.slug))
    .limit(limit)
    .all() as Promise<ExportRow[]>;
}

/** How many live bindings a space holds (the export's progress total). */
export async function liveBindingCount(db: BinderyDb, spaceId: string): Promise<number> {
  const row = await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM bindings WHERE space_id = ${spaceId} AND deleted_at IS NULL`);
  return Number(row?.n ?? 0);
}

/** The live binding with this id in this space, if any (an export file read back where it came from). */
export async function liveBindingInSpace(db: BinderyDb, spaceId: string, id: string): Promise<boolean> {
  const row = await db
    .select({ id: bindingsTable.id })
    .from(bindingsTable)
    .where(and(eq(bindingsTable.id, id), eq(bindingsTable.spaceId, spaceId), isNull(bindingsTable.deletedAt)))
    .get();
  return row !== undefined;
}
