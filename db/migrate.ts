import { runBatch } from './store/guarded.ts';
import { sql } from 'drizzle-orm';
import { migrations } from './migrations/bundle.ts';
import type { BinderyDb } from './types.ts';
import { rebuildSearchIndex, type BackfillProgress } from './store/fts.ts';

export const LEDGER = '__bindery_migrations';

/** Applies every pending migration, each in one atomic batch. Returns the tags applied. */
export async function migrate(db: BinderyDb, opts: { progress?: BackfillProgress } = {}): Promise<string[]> {
  await db.run(sql.raw(`CREATE TABLE IF NOT EXISTS ${LEDGER} (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`));
  const done = new Set((await db.all<{ tag: string }>(sql.raw(`SELECT tag FROM ${LEDGER}`))).map((r) => r.tag));
  const applied: string[] = [];
  for (const m of migrations) {
    if (done.has(m.tag)) continue;
    const statements = [
      ...m.statements.map((s) => db.run(sql.raw(s))),
      db.run(sql`INSERT INTO ${sql.raw(LEDGER)} (tag, applied_at) VALUES (${m.tag}, ${Date.now()})`),
    ];
    try {
      await runBatch(db, statements);
    } catch (err) {
      // Two processes starting at once on one database both see the migration pending; the batch is
      // atomic, so the one that lost the race wrote nothing and fails (table exists, ledger key taken).
      // If the ledger now has the tag, the other applied it: carry on. Otherwise the error is real.
      if (!(await isApplied(db, m.tag))) throw err;
      continue;
    }
    applied.push(m.tag);
  }
  // Data upkeep that a SQL migration cannot express idempotently across databases indexed before it.
  await rebuildSearchIndex(db, opts.progress);
  return applied;
}

async function isApplied(db: BinderyDb, tag: string): Promise<boolean> {
  return (await db.all(sql`SELECT 1 FROM ${sql.raw(LEDGER)} WHERE tag = ${tag}`)).length > 0;
}

/** True when every bundled migration has been applied (for health checks). */
export async function migrationsCurrent(db: BinderyDb): Promise<boolean> {
  try {
    const rows = await db.all<{ tag: string }>(sql.raw(`SELECT tag FROM ${LEDGER}`));
    const done = new Set(rows.map((r) => r.tag));
    return migrations.every((m) => done.has(m.tag));
  } catch {
    return false;
  }
}
