import { and, eq } from 'drizzle-orm';
import { bindingsTable, spacesTable } from '../schema/index';
import type { BinderyDb } from '../types';

/** The id of the binding at `@space/slug` (live or not; access is checked by the caller's read). */
export async function bindingIdBySlug(db: BinderyDb, spaceSlug: string, bindingSlug: string): Promise<string | undefined> {
  const row = await db
    .select({ id: bindingsTable.id })
    .from(bindingsTable)
    .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
    .where(and(eq(spacesTable.slug, spaceSlug), eq(bindingsTable.slug, bindingSlug)))
    .get();
  return row?.id;
}
