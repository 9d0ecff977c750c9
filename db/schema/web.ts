import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { usersTable } from './users.ts';

/**
 * A signed-in browser (the web app). The cookie carries a random secret; only its SHA-256 is kept, in
 * `tokenHash`. `csrfSecret` is the per-session secret every state-changing form must echo.
 */
export const webSessionsTable = sqliteTable(
  'web_sessions',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => usersTable.id),
    csrfSecret: text('csrf_secret').notNull(),
    createdAt: integer('created_at').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [uniqueIndex('web_sessions_token_uq').on(t.tokenHash), index('web_sessions_user_idx').on(t.userId)],
);

/** A one-time sign-in link (`bindery login-link --user alice`); only the SHA-256 of its secret is kept. */
export const loginLinksTable = sqliteTable(
  'login_links',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => usersTable.id),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
  },
  (t) => [uniqueIndex('login_links_token_uq').on(t.tokenHash)],
);
