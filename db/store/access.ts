import { sql, type SQL } from 'drizzle-orm';

/**
 * Who may read a binding: the space owner, anyone for a public space, and holders of a live share on
 * the binding, its space, or a live set containing it (a user share or a public link). A set share
 * covers only the items its owner owns: sharing a set never re-shares what was shared with its owner.
 * Expects `bindings` and `spaces` in scope under those table names.
 */
export function canReadBindingSql(userId: string): SQL {
  return sql`(spaces.owner_id = ${userId} OR spaces.visibility = 'public' OR EXISTS (
    SELECT 1 FROM shares s WHERE s.revoked_at IS NULL AND (s.grantee_id = ${userId} OR s.public = 1) AND (
      (s.target_type = 'space' AND s.target_id = spaces.id)
      OR (s.target_type = 'binding' AND s.target_id = bindings.id)
      OR (s.target_type = 'set' AND s.target_id IN (
        SELECT si.set_id FROM set_items si JOIN sets st ON st.id = si.set_id JOIN spaces sso ON sso.id = st.space_id
        WHERE si.binding_id = bindings.id AND st.deleted_at IS NULL AND sso.owner_id = spaces.owner_id)))))`;
}

/**
 * What a search or list covers when no space is named: spaces the caller owns and what was shared
 * with the caller by name. Public spaces and public links are readable but are not searched uninvited.
 */
export function defaultScopeSql(userId: string): SQL {
  return sql`(spaces.owner_id = ${userId} OR EXISTS (
    SELECT 1 FROM shares s WHERE s.revoked_at IS NULL AND s.grantee_id = ${userId} AND (
      (s.target_type = 'space' AND s.target_id = spaces.id)
      OR (s.target_type = 'binding' AND s.target_id = bindings.id)
      OR (s.target_type = 'set' AND s.target_id IN (
        SELECT si.set_id FROM set_items si JOIN sets st ON st.id = si.set_id JOIN spaces sso ON sso.id = st.space_id
        WHERE si.binding_id = bindings.id AND st.deleted_at IS NULL AND sso.owner_id = spaces.owner_id)))))`;
}

/** Who may comment: the space owner and holders of a live `comment` share (user or public link). */
export function canCommentBindingSql(userId: string): SQL {
  return sql`(spaces.owner_id = ${userId} OR EXISTS (
    SELECT 1 FROM shares s WHERE s.revoked_at IS NULL AND s.permission = 'comment' AND (s.grantee_id = ${userId} OR s.public = 1) AND (
      (s.target_type = 'space' AND s.target_id = spaces.id)
      OR (s.target_type = 'binding' AND s.target_id = bindings.id)
      OR (s.target_type = 'set' AND s.target_id IN (
        SELECT si.set_id FROM set_items si JOIN sets st ON st.id = si.set_id JOIN spaces sso ON sso.id = st.space_id
        WHERE si.binding_id = bindings.id AND st.deleted_at IS NULL AND sso.owner_id = spaces.owner_id)))))`;
}
