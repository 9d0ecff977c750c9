import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { usersTable } from './users.ts';

/**
 * Access to a binding, set or space for one user (`granteeId`) or anyone with the link (`public`).
 * A public link carries a random secret (`?share=…`); only its SHA-256 is kept, in `linkHash`.
 */
export const sharesTable = sqliteTable(
  'shares',
  {
    id: text('id').primaryKey(),
    targetType: text('target_type', { enum: ['binding', 'set', 'space'] }).notNull(),
    targetId: text('target_id').notNull(),
    granteeId: text('grantee_id').references(() => usersTable.id),
    public: integer('public', { mode: 'boolean' }).notNull().default(false),
    permission: text('permission', { enum: ['read', 'comment'] }).notNull(),
    createdBy: text('created_by')
      .notNull()
      .references(() => usersTable.id),
    createdAt: integer('created_at').notNull(),
    revokedAt: integer('revoked_at'),
    linkHash: text('link_hash'),
    /** When the grantee accepted a user share; until then it reaches them only when they name it. */
    acceptedAt: integer('accepted_at'),
  },
  (t) => [
    index('shares_target_idx').on(t.targetType, t.targetId),
    index('shares_grantee_idx').on(t.granteeId),
    index('shares_link_idx').on(t.linkHash),
  ],
);
