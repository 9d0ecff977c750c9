import { sqliteTable, text, integer, uniqueIndex, index } from 'drizzle-orm/sqlite-core';
import { spacesTable } from './spaces.ts';
import { usersTable } from './users.ts';

/** A document; its content lives in versions, `currentVersion` points at the latest. */
export const bindingsTable = sqliteTable(
  'bindings',
  {
    id: text('id').primaryKey(),
    spaceId: text('space_id')
      .notNull()
      .references(() => spacesTable.id),
    slug: text('slug').notNull(),
    currentVersion: integer('current_version').notNull(),
    /** Import source path, so re-imports find the binding they made. */
    sourcePath: text('source_path'),
    createdBy: text('created_by')
      .notNull()
      .references(() => usersTable.id),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    deletedAt: integer('deleted_at'),
  },
  (t) => [uniqueIndex('bindings_space_slug_uq').on(t.spaceId, t.slug), index('bindings_space_updated_idx').on(t.spaceId, t.updatedAt)],
);
