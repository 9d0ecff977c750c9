import { sqliteTable, text, integer, customType } from 'drizzle-orm/sqlite-core';
import { bindingsTable } from './bindings.ts';

/**
 * libSQL's native vector column (F32_BLOB: little-endian float32, as `vector32()` writes it). Its
 * dimension is the embedding model's, so it is not fixed in the type; plain SQLite and D1 read it as a
 * BLOB, and the re-ranker computes cosines itself, so it works on every backend.
 */
const f32Blob = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'F32_BLOB',
});

/**
 * The embedding of a binding's current version by the configured provider (optional,
 * off by default). A row whose version or model is not the current one is stale and ignored.
 */
export const bindingVectorsTable = sqliteTable('binding_vectors', {
  bindingId: text('binding_id')
    .primaryKey()
    .references(() => bindingsTable.id),
  versionId: text('version_id').notNull(),
  model: text('model').notNull(),
  dims: integer('dims').notNull(),
  vector: f32Blob('vector').notNull(),
  createdAt: integer('created_at').notNull(),
});
