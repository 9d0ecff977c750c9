// The start-up upkeep of the Bun/Node runtime (adapters/runtime.ts): the stored-count check it runs is
// the one the first tool call would have run (not repeated), and the stdio server may prune old
// sign-ins after it answers rather than before.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { openRuntime } from '../../adapters/runtime.ts';
import { versionsTable } from '../../db/schema/index.ts';
import { createBinding } from '../../core/services/bindings.ts';
import { ensureCaller, ensureStoredCountsOnce } from '../../core/services/prepare.ts';
import { storeLoginLink } from '../../core/services/web-sessions.ts';
import { HUMAN } from '../../core/context.ts';

let dir: string;
let env: Record<string, string>;
const DAY = 24 * 3600_000;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bindery-upkeep-'));
  env = { BINDERY_DB_URL: `file:${join(dir, 'bindery.db')}` };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const loginLinks = async (db: Awaited<ReturnType<typeof openRuntime>>['deps']['db']) =>
  Number((await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM login_links`))?.n);

describe('start-up upkeep', () => {
  test('the stored-count check at start-up is the first call’s: ensureStoredCountsOnce does not run it again', async () => {
    const setup = await openRuntime(env, { upkeep: true });
    const caller = await ensureCaller(setup.deps, 'alice');
    const made = await createBinding(setup.deps, caller, { name: 'Note', content: 'Some words.', summary: 'A note.' }, HUMAN);
    setup.database.close();

    const { deps, database } = await openRuntime(env, { upkeep: true });
    try {
      // A row marked as counted otherwise after start-up: a second check would recount it.
      await deps.db.update(versionsTable).set({ countsKey: 'other' }).where(eq(versionsTable.id, made.versionId));
      await ensureStoredCountsOnce(deps);
      const row = await deps.db
        .select({ key: versionsTable.countsKey })
        .from(versionsTable)
        .where(eq(versionsTable.id, made.versionId))
        .get();
      expect(row?.key).toBe('other');
    } finally {
      database.close();
    }
  });

  test('with pruneLater, sign-ins that ended over a day ago are still there at start-up and gone after prune()', async () => {
    const setup = await openRuntime(env);
    const caller = await ensureCaller(setup.deps, 'alice');
    await storeLoginLink(setup.deps.db, caller.id, 'hash-old', Date.now() - 3 * DAY, Date.now() - 2 * DAY);
    await storeLoginLink(setup.deps.db, caller.id, 'hash-new', Date.now(), Date.now() + DAY);
    setup.database.close();

    const later = await openRuntime(env, { upkeep: true, pruneLater: true });
    try {
      expect(await loginLinks(later.deps.db)).toBe(2);
      await later.prune();
      expect(await loginLinks(later.deps.db)).toBe(1);
    } finally {
      later.database.close();
    }
    // Without it (HTTP server, bindery migrate), pruned before openRuntime returns; prune() then has nothing to do.
    await (await openRuntime(env)).database.close();
    const setup2 = await openRuntime(env);
    await storeLoginLink(setup2.deps.db, caller.id, 'hash-old-2', Date.now() - 3 * DAY, Date.now() - 2 * DAY);
    setup2.database.close();
    const now = await openRuntime(env, { upkeep: true });
    try {
      expect(await loginLinks(now.deps.db)).toBe(1);
    } finally {
      now.database.close();
    }
  });
});
