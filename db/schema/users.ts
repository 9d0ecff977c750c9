import { sqliteTable, text, integer, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** A person or agent identity; MCP callers act as one user. */
export const usersTable = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    handle: text('handle').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('users_handle_uq').on(t.handle)],
);

/** API keys for the HTTP surface; only a SHA-256 hash of the key is stored. */
export const apiKeysTable = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => usersTable.id),
    keyHash: text('key_hash').notNull(),
    label: text('label'),
    createdAt: integer('created_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash)],
);
