import { sql, type SQL } from 'drizzle-orm';
import type { BinderyDb } from '../types.ts';
import { canReadBindingSql, defaultScopeSql } from './access.ts';
import { defaultSetScopeSql } from './sets.ts';

/** Suggestions for one argument: at most `limit` values, and how many there are in all. */
export interface Completion {
  values: string[];
  total: number;
}

/** A LIKE pattern matching values that start with `prefix` (its `%`, `_` and `\` taken literally). */
function startsWith(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

async function complete(db: BinderyDb, select: SQL, from: SQL, limit: number): Promise<Completion> {
  const rows = await db.all<{ v: string }>(sql`SELECT DISTINCT ${select} AS v ${from} ORDER BY v LIMIT ${limit}`);
  const total = await db.get<{ n: number }>(sql`SELECT count(DISTINCT ${select}) AS n ${from}`);
  return { values: rows.map((r) => r.v), total: Number(total?.n ?? 0) };
}

/**
 * Slugs of the spaces the user sees uninvited: owned, shared by name and accepted (as list_spaces), or
 * holding a binding in the user's default scope (a binding shared alone names its space in its URI).
 */
export function completeSpaceSlugs(db: BinderyDb, userId: string, prefix: string, limit: number): Promise<Completion> {
  return complete(
    db,
    sql`spaces.slug`,
    sql`FROM spaces WHERE spaces.slug LIKE ${startsWith(prefix)} ESCAPE '\\' AND (spaces.owner_id = ${userId}
      OR EXISTS (SELECT 1 FROM shares s WHERE s.revoked_at IS NULL AND s.accepted_at IS NOT NULL AND s.grantee_id = ${userId} AND s.target_type = 'space' AND s.target_id = spaces.id)
      OR EXISTS (SELECT 1 FROM bindings WHERE bindings.space_id = spaces.id AND bindings.deleted_at IS NULL AND ${defaultScopeSql(userId)}))`,
    limit,
  );
}

/**
 * Slugs of live bindings: within the space with slug `spaceSlug` those the user may read by slug (no
 * public links: slugs are guessable), else those in the user's default scope.
 */
export function completeBindingSlugs(
  db: BinderyDb,
  userId: string,
  spaceSlug: string | undefined,
  prefix: string,
  limit: number,
): Promise<Completion> {
  const scope =
    spaceSlug === undefined ? defaultScopeSql(userId) : sql`(spaces.slug = ${spaceSlug} AND ${canReadBindingSql(userId, 'none')})`;
  return complete(
    db,
    sql`bindings.slug`,
    sql`FROM bindings JOIN spaces ON spaces.id = bindings.space_id WHERE bindings.deleted_at IS NULL AND bindings.slug LIKE ${startsWith(prefix)} ESCAPE '\\' AND ${scope}`,
    limit,
  );
}

/** Ids of live sets in the user's default scope (as list_sets) whose id or name starts with `prefix`. */
export function completeSetIds(db: BinderyDb, userId: string, prefix: string, limit: number): Promise<Completion> {
  const like = startsWith(prefix.toLowerCase());
  return complete(
    db,
    sql`sets.id`,
    sql`FROM sets JOIN spaces set_space ON set_space.id = sets.space_id WHERE sets.deleted_at IS NULL
      AND (sets.id LIKE ${like} ESCAPE '\\' OR lower(sets.name) LIKE ${like} ESCAPE '\\') AND ${defaultSetScopeSql(userId)}`,
    limit,
  );
}
