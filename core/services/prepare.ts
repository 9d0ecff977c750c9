import { eq, sql } from 'drizzle-orm';
import { bindingsTable, spacesTable, versionsTable } from '../../db/schema/index';
import { getSetting, putSetting } from '../../db/store/settings';
import { ensureUser } from '../../db/store/users';
import { countBlocks, RENDER_REVISION } from '../budget/tier';
import type { Caller } from '../context';
import { newId, slugify } from '../ids';
import type { CoreDeps } from './bindings';

/** What stored block counts depend on: the render revision, the tokenizer and the public URL. */
export function renderKey(deps: Pick<CoreDeps, 'config'>): string {
  return `r${RENDER_REVISION}|${deps.config.tokenizer}|${deps.config.publicUrl}`;
}

/**
 * Makes stored token counts match this configuration: when the tokenizer, the public URL or the
 * rendering changed since they were computed, every version is recounted once (here, not on reads).
 * Returns how many versions were recounted.
 */
export async function ensureCountsCurrent(deps: CoreDeps): Promise<number> {
  const key = renderKey(deps);
  const stored = await getSetting(deps.db, 'render_key');
  if (stored === key) return 0;
  let done = 0;
  for (let offset = 0; ; offset += 200) {
    const rows = await deps.db
      .select({ v: versionsTable, spaceSlug: spacesTable.slug, bindingSlug: bindingsTable.slug })
      .from(versionsTable)
      .innerJoin(bindingsTable, eq(bindingsTable.id, versionsTable.bindingId))
      .innerJoin(spacesTable, eq(spacesTable.id, bindingsTable.spaceId))
      .orderBy(versionsTable.id)
      .limit(200)
      .offset(offset)
      .all();
    if (rows.length === 0) break;
    // Loaded only when there is something to recount: a fresh database starts without it.
    await deps.tokens.load();
    const updates = rows.map(({ v, spaceSlug, bindingSlug }) => {
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
