// `bindery migrate`: applies pending migrations (local file or remote Turso) and brings stored counts up to date.
import { openRuntime } from '../runtime.ts';

export async function main(): Promise<number> {
  const { database, config } = await openRuntime(process.env, { upkeep: true });
  console.log(`database ${config.dbUrl.replace(/\?.*$/, '')} is migrated and current`);
  database.close();
  return 0;
}
