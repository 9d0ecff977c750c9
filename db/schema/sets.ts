import { sqliteTable, text, integer, uniqueIndex, index } from 'drizzle-orm/sqlite-core';
import { spacesTable } from './spaces.ts';
import { usersTable } from './users.ts';
import { bindingsTable } from './bindings.ts';

/** A curated, ordered list of bindings. */
export const setsTable = sqliteTable(
  'sets',
  {
    id: text('id').primaryKey(),
    spaceId: text('space_id')
      .notNull()
      .references(() => spacesTable.id),
    name: text('name').notNull(),
    description: text('description'),
    createdBy: text('created_by')
      .notNull()
      .references(() => usersTable.id),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    deletedAt: integer('deleted_at'),
    /** Bumped by every item edit; an edit made against an older revision is refused (no lost update). */
    revision: integer('revision').notNull().default(0),
  },
  (t) => [index('sets_space_idx').on(t.spaceId)],
);

/** One entry of a set; `pinnedVersion` null means "follow the latest". */
export const setItemsTable = sqliteTable(
  'set_items',
  {
    setId: text('set_id')
      .notNull()
      .references(() => setsTable.id),
    bindingId: text('binding_id')
      .notNull()
      .references(() => bindingsTable.id),
    position: integer('position').notNull(),
    pinnedVersion: integer('pinned_version'),
  },
  (t) => [
    uniqueIndex('set_items_set_binding_uq').on(t.setId, t.bindingId),
    index('set_items_binding_idx').on(t.bindingId),
    index('set_items_set_position_idx').on(t.setId, t.position),
  ],
);
