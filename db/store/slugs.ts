import { and, eq, isNull } from 'drizzle-orm';
import { bindingsTable, spacesTable, versionsTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';
import { canReadBindingSql, type LinkScope } from './access.ts';
import { bindingColumns, versionMetaColumns, type BindingVersionRow } from './bindings.ts';

/**
 * The current version (without content) of the live binding at `@space/slug`, if the user may read
 * it with the public links `links` admits. One query that returns no row alike for a missing, deleted
 * or unreadable binding, so neither the answer nor the work done tells them apart.
 */
export async function readableBindingBySlug(
  db: BinderyDb,
  userId: string,
  spaceSlug: string,
  bindingSlug: string,
  links: LinkScope,
): Promise<BindingVersionRow | undefined> {
  const row = await db
    .select({ ...bindingColumns, ...versionMetaColumns })
    .from(bindingsTable)
    .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
    .innerJoin(versionsTable, and(eq(versionsTable.bindingId, bindingsTable.id), eq(versionsTable.number, bindingsTable.currentVersion)))
    .where(
      and(
        eq(spacesTable.slug, spaceSlug),
        eq(bindingsTable.slug, bindingSlug),
        isNull(bindingsTable.deletedAt),
        canReadBindingSql(userId, links),
      ),
    )
    .get();
  return row as BindingVersionRow | undefined;
}
