import { sql, type Placeholder, type SQL } from 'drizzle-orm';

/** A user id, or a placeholder for it in a prepared query. */
type UserRef = string | Placeholder;

/**
 * Which public-link shares count for a read. `any`: the caller named the thing by its random id, and
 * knowing the id is enough (MCP and REST by id). `none`: it was named by guessable slugs. `{ linkHash }`:
 * only the live link whose secret the request carries (pages at `/@space/slug?share=…`).
 */
export type LinkScope = 'any' | 'none' | { linkHash: string };

/**
 * A live share that reaches this binding: on the binding, on its space, or on a live set holding it.
 * A set share covers only the items its owner owns: sharing a set never re-shares what was shared
 * with its owner. `links` says which public-link shares count; `comment` narrows to comment shares;
 * `accepted` to user shares their grantee accepted. Expects `bindings` and `spaces` in scope under
 * those table names.
 */
function shareReachesSql(userId: UserRef, opts: { links: LinkScope; comment?: boolean; accepted?: boolean }): SQL {
  const { links } = opts;
  const grantee =
    links === 'none'
      ? sql`s.grantee_id = ${userId}`
      : links === 'any'
        ? sql`(s.grantee_id = ${userId} OR s.public = 1)`
        : sql`(s.grantee_id = ${userId} OR (s.public = 1 AND s.link_hash = ${links.linkHash}))`;
  const permission = opts.comment ? sql` AND s.permission = 'comment'` : sql``;
  const accepted = opts.accepted ? sql` AND s.accepted_at IS NOT NULL` : sql``;
  return sql`EXISTS (
    SELECT 1 FROM shares s WHERE s.revoked_at IS NULL${permission}${accepted} AND ${grantee} AND (
      (s.target_type = 'space' AND s.target_id = spaces.id)
      OR (s.target_type = 'binding' AND s.target_id = bindings.id)
      OR (s.target_type = 'set' AND s.target_id IN (
        SELECT si.set_id FROM set_items si JOIN sets st ON st.id = si.set_id JOIN spaces sso ON sso.id = st.space_id
        WHERE si.binding_id = bindings.id AND st.deleted_at IS NULL AND sso.owner_id = spaces.owner_id))))`;
}

/**
 * Who may read a binding: the space owner, anyone for a public space, holders of a user share, and
 * the public-link shares `links` admits (by default any: the caller knows the binding's id).
 */
export function canReadBindingSql(userId: UserRef, links: LinkScope = 'any'): SQL {
  return sql`(spaces.owner_id = ${userId} OR spaces.visibility = 'public' OR ${shareReachesSql(userId, { links })})`;
}

/**
 * What a search or list covers when no space is named: spaces the caller owns and what was shared
 * with the caller by name and accepted. Public spaces, public links and shares not yet accepted are
 * readable when named but are not searched uninvited: nobody can push content into another's searches.
 */
export function defaultScopeSql(userId: string): SQL {
  return sql`(spaces.owner_id = ${userId} OR ${shareReachesSql(userId, { links: 'none', accepted: true })})`;
}

/** Who may comment: the space owner and holders of a live `comment` share (user or public link). */
export function canCommentBindingSql(userId: string): SQL {
  return sql`(spaces.owner_id = ${userId} OR ${shareReachesSql(userId, { links: 'any', comment: true })})`;
}
