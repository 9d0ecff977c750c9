import { sqliteTable, text, integer, uniqueIndex, index } from 'drizzle-orm/sqlite-core';
import { usersTable } from './users.ts';

/** A namespace of bindings and sets, addressed by slug (`@alice`). */
export const spacesTable = sqliteTable(
  'spaces',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    visibility: text('visibility', { enum: ['private', 'public'] })
      .notNull()
      .default('private'),
    ownerId: text('owner_id')
      .notNull()
      .references(() => usersTable.id),
    personal: integer('personal', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('spaces_slug_uq').on(t.slug), index('spaces_owner_idx').on(t.ownerId)],
);
