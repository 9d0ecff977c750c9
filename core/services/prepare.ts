import { eq, getTableColumns, sql } from 'drizzle-orm';
import { bindingsTable, spacesTable, versionsTable } from '../../db/schema/index';
import { getSetting, putSetting } from '../../db/store/settings';
import { ensureUser } from '../../db/store/users';
import { countBlocks, renderPreview } from '../budget/tier';
import { fitCard } from '../budget/card-fit';
import { renderKey } from './counts';
import type { Caller } from '../context';
import { newId, slugify } from '../ids';
import type { CoreDeps } from './bindings';
import { ensureCommentCounts } from './comments';


/**
 * Makes stored token counts match this configuration: when the tokenizer, the public URL or the
 * rendering changed since they were computed, every version is recounted once (here, not on reads).
 * When only the URL changed, only the head blocks (and a tier-1.5 block whose card cut moved) are
 * recounted, and no content is read. Returns how many versions were recounted.
 */
export async function ensureCountsCurrent(deps: CoreDeps): Promise<number> {
  const key = renderKey(deps);
  const stored = await getSetting(deps.db, 'render_key');
  if (stored === key) return 0;
  const headsOnly = stored !== undefined && withoutUrl(stored) === withoutUrl(key);
  const { content: _content, ...metaColumns } = getTableColumns(versionsTable);
  let done = 0;
  for (let offset = 0; ; offset += 200) {
    const rows = (await deps.db
      .select({ v: headsOnly ? metaColumns : getTableColumns(versionsTable), spaceSlug: spacesTable.slug, bindingSlug: bindingsTable.slug })
      .from(versionsTable)
      .innerJoin(bindingsTable, eq(bindingsTable.id, versionsTable.bindingId))
      .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
      .orderBy(versionsTable.id)
      .limit(200)
      .offset(offset)
      .all()) as { v: typeof versionsTable.$inferSelect; spaceSlug: string; bindingSlug: string }[];
    if (rows.length === 0) break;
    // Loaded only when there is something to recount: a fresh database starts without it.
    await deps.tokens.load();
    const updates = rows.map(({ v, spaceSlug, bindingSlug }) => {
      if (headsOnly) {
        // A new URL can move the card's cut; the tier-1.5 block (which never shows the URL) is recounted
        // only then, and the content is never read.
        const facts = { ...v, spaceSlug, bindingSlug };
        const { headBlockTokens, headCut } = fitCard(facts, deps.config.publicUrl, deps.tokens);
        const previewBlockTokens = headCut === v.headCut ? v.previewBlockTokens : deps.tokens.count(renderPreview({ ...facts, headCut }));
        return deps.db.update(versionsTable).set({ headBlockTokens, previewBlockTokens, headCut }).where(eq(versionsTable.id, v.id));
      }
      const contentTokenCount = deps.tokens.count(v.content);
      const summaryTokenCount = deps.tokens.count(v.summary);
      const facts = { ...v, bindingId: v.bindingId, spaceSlug, bindingSlug, contentTokenCount, summaryTokenCount };
      const blocks = countBlocks(facts, v.content, deps.config.publicUrl, deps.tokens);
      return deps.db.update(versionsTable).set({ contentTokenCount, summaryTokenCount, ...blocks }).where(eq(versionsTable.id, v.id));
    });
    await deps.db.batch(updates as unknown as Parameters<typeof deps.db.batch>[0]);
    done += rows.length;
  }
  await putSetting(deps.db, 'render_key', key);
  return done;
}

/** The render key without its URL (the URL is last and may itself hold "|"). */
function withoutUrl(key: string): string {
  return key.split('|').slice(0, 2).join('|');
}

const checked = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * `ensureCountsCurrent` and `ensureCommentCounts` once per database handle and configuration, before
 * the first tool call. Bun and Node run them at start-up; the edge handler and embedders never do, so
 * without this a changed BINDERY_PUBLIC_URL or BINDERY_TOKENIZER there would leave every stored count
 * describing another text than the one shown. After the first call this costs nothing.
 */
export function ensureStoredCountsOnce(deps: CoreDeps): Promise<void> {
  let byKey = checked.get(deps.db);
  if (!byKey) checked.set(deps.db, (byKey = new Map()));
  const key = renderKey(deps);
  let done = byKey.get(key);
  if (!done) {
    done = (async () => {
      await ensureCountsCurrent(deps);
      await ensureCommentCounts(deps);
    })();
    done.catch(() => byKey.delete(key));
    byKey.set(key, done);
  }
  return done;
}

/** The caller for a handle, created with its personal space on first use. */
export async function ensureCaller(deps: Pick<CoreDeps, 'db' | 'now'>, handle: string): Promise<Caller> {
  const base = slugify(handle).slice(0, 40);
  const slugs = [base, `${base}-home`, ...Array.from({ length: 8 }, (_, i) => `${base}-${i + 2}`), `${base}-${newId('x').slice(2, 10)}`];
  const user = await ensureUser(deps.db, handle, { user: newId('usr'), space: newId('spc') }, deps.now(), slugs);
  return { id: user.id, handle: user.handle };
}

/** Rows of versions, for diagnostics and tests. */
export async function countVersions(deps: Pick<CoreDeps, 'db'>): Promise<number> {
  const row = await deps.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM versions`);
  return Number(row?.n ?? 0);
}
