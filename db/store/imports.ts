import { and, desc, eq, isNull } from 'drizzle-orm';
import { bindingsTable, versionsTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';

/** What a re-import needs to know about the binding an earlier import made from a file. */
export interface ImportedBinding {
  id: string;
  currentVersion: number;
  contentHash: string;
}

/**
 * The live binding imported from `sourcePath` into a space, with its current content hash, or
 * undefined. A deleted one is not found, so importing the file again makes a new binding.
 */
export async function findImportedBinding(db: BinderyDb, spaceId: string, sourcePath: string): Promise<ImportedBinding | undefined> {
  return db
    .select({ id: bindingsTable.id, currentVersion: bindingsTable.currentVersion, contentHash: versionsTable.contentHash })
    .from(bindingsTable)
    .innerJoin(versionsTable, and(eq(versionsTable.bindingId, bindingsTable.id), eq(versionsTable.number, bindingsTable.currentVersion)))
    .where(and(eq(bindingsTable.spaceId, spaceId), eq(bindingsTable.sourcePath, sourcePath), isNull(bindingsTable.deletedAt)))
    .orderBy(desc(bindingsTable.createdAt))
    .get();
}
