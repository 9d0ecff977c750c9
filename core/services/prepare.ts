import { runBatch } from '../../db/store/guarded.ts';
import { and, eq, getTableColumns, gt, ne, sql } from 'drizzle-orm';
import { bindingsTable, spacesTable, versionsTable } from '../../db/schema/index.ts';
import { ensureUser } from '../../db/store/users.ts';
import { recount, recountHead, renderKey, sameButUrl } from './counts.ts';
import type { Caller } from '../context.ts';
import { newId, slugify } from '../ids.ts';
import type { CoreDeps } from './bindings.ts';
import { ensureCommentCounts } from './comments.ts';

/**
 * Brings stored counts to this process's configuration: every version whose row was counted for
 * another key (tokenizer, public URL, render revision) is recounted and written with this key. Run
 * by servers at start-up and by `bindery migrate`, never by other commands. It is only an
 * optimisation: reads trust a row only when its key matches theirs (freshCounts), so a server beside
 * a process with other settings stays exact either way. Returns how many versions were recounted.
 */
export async function ensureCountsCurrent(deps: CoreDeps): Promise<number> {
  const key = renderKey(deps);
  let done = 0;
  for (let after = ''; ; ) {
    const rows = (await deps.db
      .select({ v: getTableColumns(versionsTable), spaceSlug: spacesTable.slug, bindingSlug: bindingsTable.slug })
      .from(versionsTable)
      .innerJoin(bindingsTable, eq(bindingsTable.id, versionsTable.bindingId))
      .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
      .where(and(ne(versionsTable.countsKey, key), gt(versionsTable.id, after)))
      .orderBy(versionsTable.id)
      .limit(100)
      .all()) as { v: typeof versionsTable.$inferSelect; spaceSlug: string; bindingSlug: string }[];
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.v.id;
    // Loaded only when there is something to recount: a fresh database starts without it.
    await deps.tokens.load();
    const updates = rows.map(({ v, spaceSlug, bindingSlug }) => {
      const facts = { ...v, spaceSlug, bindingSlug };
      const counts = sameButUrl(v.countsKey, key) ? recountHead(deps, facts) : recount(deps, facts, v.content);
      // Guarded by the id alone: versions are immutable, so the counts are right whatever key the row has now.
      return deps.db
        .update(versionsTable)
        .set({ ...counts, countsKey: key })
        .where(eq(versionsTable.id, v.id));
    });
    await runBatch(deps.db, updates);
    done += rows.length;
  }
  return done;
}

const checked = new WeakMap<object, Map<string, Promise<number>>>();

/**
 * `ensureCountsCurrent` and `ensureCommentCounts` once per database handle and configuration, before
 * the first tool call. Bun and Node run it at start-up (so the first call finds it done); the edge
 * handler and embedders never do, so without this a changed BINDERY_PUBLIC_URL or BINDERY_TOKENIZER
 * there would leave every stored count describing another text than the one shown. After the first
 * call this costs nothing. Resolves to how many versions the check recounted.
 */
export function ensureStoredCountsOnce(deps: CoreDeps): Promise<number> {
  let byKey = checked.get(deps.db);
  if (!byKey) checked.set(deps.db, (byKey = new Map()));
  const key = renderKey(deps);
  let done = byKey.get(key);
  if (!done) {
    done = (async () => {
      const recounted = await ensureCountsCurrent(deps);
      await ensureCommentCounts(deps);
      return recounted;
    })();
    done.catch(() => byKey.delete(key));
    byKey.set(key, done);
  }
  return done;
}

/** Slugs a new user's personal space may take, first free one wins: `alice`, `alice-home`, `alice-2`… */
export function personalSpaceSlugs(handle: string): string[] {
  const base = slugify(handle).slice(0, 40);
  return [base, `${base}-home`, ...Array.from({ length: 8 }, (_, i) => `${base}-${i + 2}`), `${base}-${newId('x').slice(2, 10)}`];
}

/** The caller for a handle, created with its personal space on first use. */
export async function ensureCaller(deps: Pick<CoreDeps, 'db' | 'now'>, handle: string): Promise<Caller> {
  const user = await ensureUser(deps.db, handle, { user: newId('usr'), space: newId('spc') }, deps.now(), personalSpaceSlugs(handle));
  return { id: user.id, handle: user.handle };
}

/** Rows of versions, for diagnostics and tests. */
export async function countVersions(deps: Pick<CoreDeps, 'db'>): Promise<number> {
  const row = await deps.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM versions`);
  return Number(row?.n ?? 0);
}
