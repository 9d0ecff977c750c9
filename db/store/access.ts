import { sql, type SQL } from 'drizzle-orm';

/**
 * A live share that reaches this binding: on the binding, on its space, or on a live set holding it.
 * A set share covers only the items its owner owns: sharing a set never re-shares what was shared
 * with its owner. `publicLinks` counts public-link shares too; `permission` narrows to comment shares.
 * Expects `bindings` and `spaces` in scope under those table names.
 */
function shareReachesSql(userId: string, opts: { publicLinks: boolean; comment?: boolean }): SQL {
  const grantee = opts.publicLinks ? sql`(s.grantee_id = ${userId} OR s.public = 1)` : sql`s.grantee_id = ${userId}`;
  const permission = opts.comment ? sql` AND s.permission = 'comment'` : sql``;
  return sql`EXISTS (
    SELECT 1 FROM shares s WHERE s.revoked_at IS NULL${permission} AND ${grantee} AND (
      (s.target_type = 'space' AND s.target_id = spaces.id)
      OR (s.target_type = 'binding' AND s.target_id = bindings.id)
      OR (s.target_type = 'set' AND s.target_id IN (
        SELECT si.set_id FROM set_items si JOIN sets st ON st.id = si.set_id JOIN spaces sso ON sso.id = st.space_id
        WHERE si.binding_id = bindings.id AND st.deleted_at IS NULL AND sso.owner_id = spaces.owner_id))))`;
}

/** Who may read a binding: the space owner, anyone for a public space, and holders of a share (user or public link). */
export function canReadBindingSql(userId: string): SQL {
  return sql`(spaces.owner_id = ${userId} OR spaces.visibility = 'public' OR ${shareReachesSql(userId, { publicLinks: true })})`;
}

/**
 * What a search or list covers when no space is named: spaces the caller owns and what was shared
 * with the caller by name. Public spaces and public links are readable but are not searched uninvited.
 */
export function defaultScopeSql(userId: string): SQL {
  return sql`(spaces.owner_id = ${userId} OR ${shareReachesSql(userId, { publicLinks: false })})`;
}

/** Who may comment: the space owner and holders of a live `comment` share (user or public link). */
export function canCommentBindingSql(userId: string): SQL {
  return sql`(spaces.owner_id = ${userId} OR ${shareReachesSql(userId, { publicLinks: true, comment: true })})`;
}
