import { getTableColumns, SQL, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { BinderyDb } from '../types.ts';

// Guarded writes: a check that decides whether a row may be written is made by the statement that
// writes it, inside the write's batch, so no other writer can change the answer in between.

/** Rows one batch statement changed: libSQL reports `rowsAffected`, D1 `meta.changes`. */
export function rowsAffected(result: unknown): number {
  const r = result as { rowsAffected?: number; meta?: { changes?: number } } | undefined;
  return Number(r?.rowsAffected ?? r?.meta?.changes ?? 0);
}

/**
 * `INSERT INTO table (…) SELECT … WHERE guard`: the row is written only when `guard` holds at that
 * moment. Columns left undefined in `row` take their defaults; values go through the columns'
 * own encoders (JSON, booleans), exactly as `db.insert(table).values(row)` would send them, and a
 * value given as SQL (a subquery) is evaluated by the same statement.
 */
export function insertWhere<T extends SQLiteTable>(db: BinderyDb, table: T, row: T['$inferInsert'], guard: SQL) {
  const columns = getTableColumns(table) as Record<string, { name: string; mapToDriverValue(value: unknown): unknown }>;
  const entries = Object.entries(row as Record<string, unknown>).filter(([key, value]) => value !== undefined && key in columns);
  const names = sql.join(
    entries.map(([key]) => sql.identifier(columns[key]!.name)),
    sql`, `,
  );
  const values = sql.join(
    entries.map(([key, value]) => (value instanceof SQL ? value : sql.param(value, columns[key] as never))),
    sql`, `,
  );
  return db.run(sql`INSERT INTO ${table} (${names}) SELECT ${values} WHERE ${guard}`);
}

/** The batch argument type: drizzle types it as a non-empty tuple of its query builders. */
type BatchItems = Parameters<BinderyDb['batch']>[0];

/**
 * Runs statements built as a plain list as one atomic batch (libSQL and D1 alike). The one place
 * that widens a list to drizzle's non-empty tuple type; an empty list runs nothing.
 */
export async function runBatch(db: BinderyDb, items: readonly BatchItems[number][]): Promise<readonly unknown[]> {
  if (items.length === 0) return [];
  return db.batch(items as unknown as BatchItems);
}
