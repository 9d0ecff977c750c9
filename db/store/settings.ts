import { eq } from 'drizzle-orm';
import { settingsTable } from '../schema/index.ts';
import type { BinderyDb } from '../types.ts';

/** Reads a setting, or undefined. */
export async function getSetting(db: BinderyDb, key: string): Promise<string | undefined> {
  return (await db.select().from(settingsTable).where(eq(settingsTable.key, key)).get())?.value;
}

/** Writes a setting (insert or replace). */
export async function putSetting(db: BinderyDb, key: string, value: string): Promise<void> {
  await db.insert(settingsTable).values({ key, value }).onConflictDoUpdate({ target: settingsTable.key, set: { value } });
}

/** Reads a setting, creating it with `make()` the first time (first writer wins). */
export async function getOrCreateSetting(db: BinderyDb, key: string, make: () => string): Promise<string> {
  const found = await getSetting(db, key);
  if (found !== undefined) return found;
  await db.insert(settingsTable).values({ key, value: make() }).onConflictDoNothing();
  return (await getSetting(db, key))!;
}
