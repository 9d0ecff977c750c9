import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { setItemsTable, setsTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';
import { canReadBindingSql, type LinkScope } from './access.ts';
import { bindingColumns, versionMetaColumns, type BindingVersionRow } from './bindings.ts';
import { runBatch } from './guarded.ts';

export type SetRow = typeof setsTable.$inferSelect;
export interface SetWithSpace extends SetRow {
  spaceSlug: string;
  spaceOwnerId: string;
}

/** One stored item: a binding, optionally pinned to a version. */
export interface SetItemInput {
  bindingId: string;
  pinnedVersion: number | null;
}

/** A stored item as a caller sees it; `row` is the version shown (pinned or current). */
export interface SetItemRow extends SetItemInput {
  position: number;
  deleted: boolean;
  /** Whether the caller may read the binding (ignoring deletion). */
  readable: boolean;
  row: BindingVersionRow;
}

/** D1 binds at most 100 parameters per statement; multi-row writes are split below that. */
const ROWS_PER_INSERT = 20;

/**
 * Who may read a set: its space's owner, anyone for a public space, holders of a live share on the set
 * or on its space. Expects the set as `sets` and its space as `set_space`.
 */
function canReadSetSql(userId: string): SQL {
  return sql`(set_space.owner_id = ${userId} OR set_space.visibility = 'public' OR EXISTS (
    SELECT 1 FROM shares s WHERE s.revoked_at IS NULL AND (s.grantee_id = ${userId} OR s.public = 1) AND (
      (s.target_type = 'set' AND s.target_id = sets.id) OR (s.target_type = 'space' AND s.target_id = set_space.id))))`;
}

/** Sets listed without a space: in spaces the caller owns, or shared with the caller by name and accepted. */
export function defaultSetScopeSql(userId: string): SQL {
  return sql`(set_space.owner_id = ${userId} OR EXISTS (
    SELECT 1 FROM shares s WHERE s.revoked_at IS NULL AND s.accepted_at IS NOT NULL AND s.grantee_id = ${userId} AND (
      (s.target_type = 'set' AND s.target_id = sets.id) OR (s.target_type = 'space' AND s.target_id = set_space.id))))`;
}

const setSelect = sql`SELECT sets.id AS id, sets.space_id AS spaceId, sets.name AS name, sets.description AS description,
  sets.created_by AS createdBy, sets.created_at AS createdAt, sets.updated_at AS updatedAt, sets.deleted_at AS deletedAt,
  sets.revision AS revision, set_space.slug AS spaceSlug, set_space.owner_id AS spaceOwnerId
  FROM sets JOIN spaces set_space ON set_space.id = sets.space_id`;

/** A live set the user may read; missing, deleted and unreadable sets all come back undefined. */
export async function readableSet(db: BinderyDb, userId: string, setId: string): Promise<SetWithSpace | undefined> {
  // db.all, not db.get: drizzle's raw get() throws on an empty result instead of returning undefined.
  const rows = await db.all<SetWithSpace>(
    sql`${setSelect} WHERE sets.id = ${setId} AND sets.deleted_at IS NULL AND ${canReadSetSql(userId)}`,
  );
  return rows[0];
}

/**
 * Every item of a set in position order, each with the version it shows and whether the user may read
 * it (`links`: which public-link shares count; any by default, the set having been named by id).
 */
export async function setItemRows(db: BinderyDb, userId: string, setId: string, links: LinkScope = 'any'): Promise<SetItemRow[]> {
  const cols = Object.entries({ ...bindingColumns, ...versionMetaColumns }).map(([alias, col]) => sql`${col} AS ${sql.identifier(alias)}`);
  const rows = await db.all<Record<string, unknown>>(sql`SELECT si.position AS "_position", si.pinned_version AS "_pinned",
      (CASE WHEN ${canReadBindingSql(userId, links)} THEN 1 ELSE 0 END) AS "_readable", ${sql.join(cols, sql`, `)}
    FROM set_items si
    JOIN bindings ON bindings.id = si.binding_id
    JOIN spaces ON spaces.id = bindings.space_id
    JOIN versions ON versions.binding_id = bindings.id AND versions.number = COALESCE(si.pinned_version, bindings.current_version)
    WHERE si.set_id = ${setId}
    ORDER BY si.position`);
  return rows.map((r) => {
    const { _position, _pinned, _readable, ...rest } = r;
    const row = { ...rest, keyPoints: JSON.parse(String(rest.keyPoints)) } as BindingVersionRow;
    return {
      position: Number(_position),
      bindingId: row.bindingId,
      pinnedVersion: _pinned === null ? null : Number(_pinned),
      deleted: row.deletedAt !== null,
      readable: Number(_readable) === 1,
      row,
    };
  });
}

export interface SetListRow extends SetWithSpace {
  itemCount: number;
  totalTokenCount: number;
  /** Stored cost of those items at each tier (tier 1.5 and 2 blocks add to the tier 1 head). */
  tierTokens: { '1': number; '1.5': number; '2': number };
}

/**
 * Sets the user may read, most recently updated first, with the count and content tokens of the items
 * the user can read (computed now from stored counts, so never stale).
 */
export async function listSetRows(db: BinderyDb, userId: string, opts: { spaceId?: string; offset: number; limit: number }) {
  const scope = opts.spaceId ? sql`(sets.space_id = ${opts.spaceId} AND ${canReadSetSql(userId)})` : defaultSetScopeSql(userId);
  const where = sql`sets.deleted_at IS NULL AND ${scope}`;
  const live = sql`FROM set_items si
      JOIN bindings ON bindings.id = si.binding_id AND bindings.deleted_at IS NULL
      JOIN spaces ON spaces.id = bindings.space_id
      JOIN versions ON versions.binding_id = bindings.id AND versions.number = COALESCE(si.pinned_version, bindings.current_version)
      WHERE si.set_id = sets.id AND ${canReadBindingSql(userId)}`;
  const out = await db.all<
    SetWithSpace & { sums: string }
  >(sql`SELECT sets.id AS id, sets.space_id AS spaceId, sets.name AS name, sets.description AS description,
      sets.created_by AS createdBy, sets.created_at AS createdAt, sets.updated_at AS updatedAt, sets.deleted_at AS deletedAt,
      sets.revision AS revision, set_space.slug AS spaceSlug, set_space.owner_id AS spaceOwnerId,
      (SELECT json_array(count(*), coalesce(sum(versions.content_token_count), 0), coalesce(sum(versions.head_block_tokens), 0),
        coalesce(sum(versions.preview_block_tokens), 0), coalesce(sum(versions.content_block_tokens), 0),
        coalesce(sum(versions.outline_block_tokens), 0)) ${live}) AS sums
    FROM sets JOIN spaces set_space ON set_space.id = sets.space_id
    WHERE ${where}
    ORDER BY sets.updated_at DESC, sets.id LIMIT ${opts.limit} OFFSET ${opts.offset}`);
  const total = await db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM sets JOIN spaces set_space ON set_space.id = sets.space_id WHERE ${where}`,
  );
  const rows: SetListRow[] = out.map(({ sums, ...r }) => {
    const [itemCount, contentTokens, head, preview, content, outline] = JSON.parse(sums) as number[];
    // As tierCost (core/budget/tier.ts) prices each item: tier 1.5 is the card, the preview and the outline.
    return {
      ...r,
      itemCount: itemCount!,
      totalTokenCount: contentTokens!,
      tierTokens: { '1': head!, '1.5': head! + preview! + outline!, '2': head! + content! },
    };
  });
  return { rows, total: Number(total?.n ?? 0) };
}

function itemInserts(db: BinderyDb, setId: string, items: readonly SetItemInput[]) {
  const out = [];
  for (let i = 0; i < items.length; i += ROWS_PER_INSERT) {
    const chunk = items
      .slice(i, i + ROWS_PER_INSERT)
      .map((it, j) => ({ setId, bindingId: it.bindingId, pinnedVersion: it.pinnedVersion, position: i + j }));
    out.push(db.insert(setItemsTable).values(chunk));
  }
  return out;
}

/** Creates a set and its items in one atomic batch. */
export async function insertSet(db: BinderyDb, set: typeof setsTable.$inferInsert, items: readonly SetItemInput[]): Promise<void> {
  await runBatch(db, [db.insert(setsTable).values(set), ...itemInserts(db, set.id, items)]);
}

/**
 * Replaces a set's items (positions 0..n-1) if the set is still live and at `revision`, in one
 * atomic batch. The first statement fails the batch when another edit landed first or the set was
 * deleted, so no edit is ever lost and a deleted set never gets items. Returns false in that case.
 */
export async function replaceSetItems(
  db: BinderyDb,
  setId: string,
  revision: number,
  items: readonly SetItemInput[],
  now: number,
): Promise<boolean> {
  try {
    await runBatch(db, [
      // json() of a non-JSON string raises, aborting the batch; SQLite evaluates it only when stale.
      db.run(
        sql`SELECT CASE WHEN (SELECT revision FROM sets WHERE id = ${setId} AND deleted_at IS NULL) IS NOT ${revision} THEN json('stale set revision') END`,
      ),
      db
        .update(setsTable)
        .set({ revision: revision + 1, updatedAt: now })
        .where(eq(setsTable.id, setId)),
      db.delete(setItemsTable).where(eq(setItemsTable.setId, setId)),
      ...itemInserts(db, setId, items),
    ]);
    return true;
  } catch (err) {
    if (/malformed JSON/i.test(errorText(err))) return false;
    throw err;
  }
}

function errorText(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) parts.push(String((e as { message?: string }).message ?? e));
  return parts.join(' | ');
}

/** Renames or re-describes a live set; returns the row written, or undefined (nothing written) when the set is deleted. */
export async function updateSetMeta(
  db: BinderyDb,
  setId: string,
  patch: { name?: string; description?: string | null },
  now: number,
): Promise<SetRow | undefined> {
  const [row] = await db
    .update(setsTable)
    .set({ ...patch, updatedAt: now })
    .where(and(eq(setsTable.id, setId), isNull(setsTable.deletedAt)))
    .returning();
  return row;
}

/** Hides a live set (its shares stop granting anything: the access checks require a live set); false when it was already deleted. */
export async function softDeleteSet(db: BinderyDb, setId: string, now: number): Promise<boolean> {
  const rows = await db
    .update(setsTable)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(setsTable.id, setId), isNull(setsTable.deletedAt)))
    .returning({ id: setsTable.id });
  return rows.length > 0;
}
