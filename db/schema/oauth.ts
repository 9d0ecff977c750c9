import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { usersTable } from './users.ts';

/** A client registered by RFC 7591 dynamic registration (public clients: PKCE, no secret). */
export const oauthClientsTable = sqliteTable('oauth_clients', {
  id: text('id').primaryKey(),
  name: text('name'),
  /** JSON array of exact redirect URIs. */
  redirectUris: text('redirect_uris').notNull(),
  /** The whole registration as answered (RFC 7591 §3.2.1), JSON. */
  metadata: text('metadata').notNull(),
  createdAt: integer('created_at').notNull(),
});

/** An authorization code (one use, short-lived); only its SHA-256 is kept. */
export const oauthCodesTable = sqliteTable(
  'oauth_codes',
  {
    id: text('id').primaryKey(),
    codeHash: text('code_hash').notNull(),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClientsTable.id),
    userId: text('user_id')
      .notNull()
      .references(() => usersTable.id),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    /** RFC 8707 resource the tokens will be bound to. */
    resource: text('resource').notNull(),
    scope: text('scope'),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
  },
  (t) => [uniqueIndex('oauth_codes_hash_uq').on(t.codeHash)],
);

/**
 * Access and refresh tokens (opaque, random; only SHA-256 kept, checked per request like API keys so
 * revocation is immediate). Refresh tokens rotate: each use revokes it and issues a new one in the same
 * `familyId`; a reused (revoked) refresh token revokes the whole family.
 */
export const oauthTokensTable = sqliteTable(
  'oauth_tokens',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    kind: text('kind', { enum: ['access', 'refresh'] }).notNull(),
    familyId: text('family_id').notNull(),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClientsTable.id),
    userId: text('user_id')
      .notNull()
      .references(() => usersTable.id),
    resource: text('resource').notNull(),
    scope: text('scope'),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    revokedAt: integer('revoked_at'),
  },
  (t) => [uniqueIndex('oauth_tokens_hash_uq').on(t.tokenHash), index('oauth_tokens_family_idx').on(t.familyId)],
);
