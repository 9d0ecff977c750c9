import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { bindingsTable, spacesTable, versionsTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';
import { canReadBindingSql, defaultScopeSql, type LinkScope } from './access.ts';

export type VersionInsert = typeof versionsTable.$inferInsert;
export type BindingInsert = typeof bindingsTable.$inferInsert;

/** Version columns without the content, for every read that does not need it. */
export const versionMetaColumns = {
  versionId: versionsTable.id,
  number: versionsTable.number,
  name: versionsTable.name,
  summary: versionsTable.summary,
  keyPoints: versionsTable.keyPoints,
  contentPreview: versionsTable.contentPreview,
  contentChars: versionsTable.contentChars,
  contentHash: versionsTable.contentHash,
  contentTokenCount: versionsTable.contentTokenCount,
  summaryTokenCount: versionsTable.summaryTokenCount,
  headBlockTokens: versionsTable.headBlockTokens,
  lineBlockTokens: versionsTable.lineBlockTokens,
  previewBlockTokens: versionsTable.previewBlockTokens,
  contentBlockTokens: versionsTable.contentBlockTokens,
  outlineBlockTokens: versionsTable.outlineBlockTokens,
  countsKey: versionsTable.countsKey,
  headCut: versionsTable.headCut,
  fence: versionsTable.fence,
  source: versionsTable.source,
  model: versionsTable.model,
  authorId: versionsTable.authorId,
  createdAt: versionsTable.createdAt,
};

export const bindingColumns = {
  bindingId: bindingsTable.id,
  spaceId: bindingsTable.spaceId,
  spaceSlug: spacesTable.slug,
  spaceOwnerId: spacesTable.ownerId,
  bindingSlug: bindingsTable.slug,
  currentVersion: bindingsTable.currentVersion,
  deletedAt: bindingsTable.deletedAt,
  updatedAt: bindingsTable.updatedAt,
};

export interface BindingVersionRow {
  bindingId: string;
  spaceId: string;
  spaceSlug: string;
  spaceOwnerId: string;
  bindingSlug: string;
  currentVersion: number;
  deletedAt: number | null;
  updatedAt: number;
  versionId: string;
  number: number;
  name: string;
  summary: string;
  keyPoints: string[];
  contentPreview: string;
  contentChars: number;
  contentHash: string;
  contentTokenCount: number;
  summaryTokenCount: number;
  headBlockTokens: number;
  lineBlockTokens: number;
  previewBlockTokens: number;
  contentBlockTokens: number;
  outlineBlockTokens: number;
  /** Only where selected (tier 1.5, section reads, query packing) or recounted; see loadSections. */
  sections?: string;
  countsKey: string;
  headCut: string;
  fence: string;
  source: 'human' | 'llm';
  model: string | null;
  authorId: string;
  createdAt: number;
  content?: string;
}

/**
 * A live binding the user may read, joined with one of its versions (the current one by default).
 * Missing, deleted and unreadable bindings all come back `undefined`: callers cannot tell them apart.
 * `links`: which public-link shares count (any, by default: the caller named the binding by its id).
 */
export async function readableBindingVersion(
  db: BinderyDb,
  userId: string,
  bindingId: string,
  opts: { version?: number; withContent?: boolean; links?: LinkScope } = {},
): Promise<BindingVersionRow | undefined> {
  if ((opts.links ?? 'any') === 'any') {
    // The hot read (every get_binding, every write's re-read): a prepared query, built once per db.
    const query = preparedRead(db, opts.version !== undefined, !!opts.withContent);
    return (await query.get({ id: bindingId, userId, number: opts.version ?? 0 })) as BindingVersionRow | undefined;
  }
  const versionMatch =
    opts.version === undefined ? eq(versionsTable.number, bindingsTable.currentVersion) : eq(versionsTable.number, opts.version);
  const row = await db
    .select({ ...bindingColumns, ...versionMetaColumns, ...(opts.withContent ? { content: versionsTable.content } : {}) })
    .from(bindingsTable)
    .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
    .innerJoin(versionsTable, and(eq(versionsTable.bindingId, bindingsTable.id), versionMatch))
    .where(and(eq(bindingsTable.id, bindingId), isNull(bindingsTable.deletedAt), canReadBindingSql(userId, opts.links)))
    .get();
  return row as BindingVersionRow | undefined;
}

/**
 * Up to `limit` ids starting with `prefix` among the bindings the caller can find: those a search
 * covers (own spaces, accepted shares) and public spaces. A public link's binding is readable by whoever
 * knows its whole id, so a prefix never reaches it: that would shorten the secret.
 */
export async function findableIdsWithPrefix(db: BinderyDb, userId: string, prefix: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: bindingsTable.id })
    .from(bindingsTable)
    .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
    .where(
      and(
        sql`${bindingsTable.id} >= ${prefix} AND ${bindingsTable.id} < ${`${prefix}~`}`,
        isNull(bindingsTable.deletedAt),
        sql`(${defaultScopeSql(userId)} OR spaces.visibility = 'public')`,
      ),
    )
    .limit(limit);
  return rows.map((r) => r.id);
}

const preparedReads = new WeakMap<BinderyDb, Map<string, { get(params: Record<string, unknown>): Promise<unknown> }>>();

/** The by-id read as a prepared query (drizzle builds its SQL once instead of on every call). */
function preparedRead(db: BinderyDb, atNumber: boolean, withContent: boolean) {
  let byShape = preparedReads.get(db);
  if (!byShape) preparedReads.set(db, (byShape = new Map()));
  const shape = `${atNumber}:${withContent}`;
  let query = byShape.get(shape);
  if (!query) {
    const versionMatch = atNumber
      ? eq(versionsTable.number, sql.placeholder('number'))
      : eq(versionsTable.number, bindingsTable.currentVersion);
    query = db
      .select({ ...bindingColumns, ...versionMetaColumns, ...(withContent ? { content: versionsTable.content } : {}) })
      .from(bindingsTable)
      .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
      .innerJoin(versionsTable, and(eq(versionsTable.bindingId, bindingsTable.id), versionMatch))
      .where(
        and(eq(bindingsTable.id, sql.placeholder('id')), isNull(bindingsTable.deletedAt), canReadBindingSql(sql.placeholder('userId'))),
      )
      .prepare();
    byShape.set(shape, query);
  }
  return query;
}

/** Many bindings at their current versions in one query, keyed by id (unreadable ones absent). */
export async function readableBindingsCurrent(
  db: BinderyDb,
  userId: string,
  ids: string[],
  withContent: boolean,
): Promise<Map<string, BindingVersionRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ ...bindingColumns, ...versionMetaColumns, ...(withContent ? { content: versionsTable.content } : {}) })
    .from(bindingsTable)
    .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
    .innerJoin(versionsTable, and(eq(versionsTable.bindingId, bindingsTable.id), eq(versionsTable.number, bindingsTable.currentVersion)))
    .where(
      and(
        sql`${bindingsTable.id} IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
        isNull(bindingsTable.deletedAt),
        canReadBindingSql(userId),
      ),
    )
    .all();
  return new Map((rows as BindingVersionRow[]).map((r) => [r.bindingId, r]));
}

/** The content of one version (tier 2 reads it only when it will be shown). */
export async function versionContent(db: BinderyDb, bindingId: string, number: number): Promise<string | undefined> {
  const row = await db
    .select({ content: versionsTable.content })
    .from(versionsTable)
    .where(and(eq(versionsTable.bindingId, bindingId), eq(versionsTable.number, number)))
    .get();
  return row?.content;
}

/** Versions of a binding, newest first, without content. */
export async function listVersionRows(db: BinderyDb, bindingId: string, offset: number, limit: number) {
  const rows = await db
    .select(versionMetaColumns)
    .from(versionsTable)
    .where(eq(versionsTable.bindingId, bindingId))
    .orderBy(desc(versionsTable.number))
    .limit(limit)
    .offset(offset)
    .all();
  const total = await db.select({ n: sql<number>`count(*)` }).from(versionsTable).where(eq(versionsTable.bindingId, bindingId)).get();
  return { rows, total: total?.n ?? 0 };
}

/** Detects a UNIQUE constraint failure from libSQL or D1. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const msg = String((e as { message?: string }).message ?? e);
    if (/UNIQUE constraint failed|SQLITE_CONSTRAINT/i.test(msg)) return true;
  }
  return false;
}
