import { runBatch } from './guarded.ts';
import { asc, eq, sql } from 'drizzle-orm';
import { helpTopicsTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';

export type HelpTopicRow = typeof helpTopicsTable.$inferSelect;

/** One topic, or undefined. */
export async function getHelpTopic(db: BinderyDb, topic: string): Promise<HelpTopicRow | undefined> {
  return db.select().from(helpTopicsTable).where(eq(helpTopicsTable.topic, topic)).get();
}

/** Every topic (a handful, each bounded by the response cap), by name. */
export async function listHelpTopics(db: BinderyDb) {
  return db
    .select({
      topic: helpTopicsTable.topic,
      title: helpTopicsTable.title,
      tokenCount: helpTopicsTable.tokenCount,
      origin: helpTopicsTable.origin,
      body: helpTopicsTable.body,
      countsKey: helpTopicsTable.countsKey,
    })
    .from(helpTopicsTable)
    .orderBy(asc(helpTopicsTable.topic))
    .all();
}

/** Every topic with its body (for seeding and recounting). */
export async function allHelpTopics(db: BinderyDb): Promise<HelpTopicRow[]> {
  return db.select().from(helpTopicsTable).all();
}

/** Writes topics in one batch (insert or replace) and deletes the named ones. */
export async function writeHelpTopics(db: BinderyDb, rows: HelpTopicRow[], remove: string[] = []): Promise<void> {
  const statements = [
    ...rows.map((r) =>
      db
        .insert(helpTopicsTable)
        .values(r)
        .onConflictDoUpdate({
          target: helpTopicsTable.topic,
          set: { title: r.title, body: r.body, tokenCount: r.tokenCount, updatedAt: r.updatedAt, origin: r.origin },
          // A seed never replaces a topic set by hand, even one set after the seed read the table.
          setWhere: sql`excluded.origin = 'cli' OR ${helpTopicsTable.origin} = 'seed'`,
        }),
    ),
    ...remove.map((t) => db.delete(helpTopicsTable).where(eq(helpTopicsTable.topic, t))),
  ];
  if (statements.length === 0) return;
  await runBatch(db, statements);
}
