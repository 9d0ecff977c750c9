import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { usersTable } from './users.ts';
import { bindingsTable } from './bindings.ts';

/** A note on a binding (optionally on one version), with provenance. */
export const commentsTable = sqliteTable(
  'comments',
  {
    id: text('id').primaryKey(),
    bindingId: text('binding_id')
      .notNull()
      .references(() => bindingsTable.id),
    version: integer('version'),
    body: text('body').notNull(),
    bodyTokenCount: integer('body_token_count').notNull(),
    /** The tokenizer `bodyTokenCount` was made for (another process recounts in memory). */
    countsKey: text('counts_key').notNull().default(''),
    /** Random marker, absent from the body, that fences the body when shown. */
    fence: text('fence').notNull().default(''),
    source: text('source', { enum: ['human', 'llm'] }).notNull(),
    model: text('model'),
    authorId: text('author_id')
      .notNull()
      .references(() => usersTable.id),
    createdAt: integer('created_at').notNull(),
    deletedAt: integer('deleted_at'),
  },
  (t) => [index('comments_binding_idx').on(t.bindingId, t.createdAt)],
);
