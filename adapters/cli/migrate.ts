// `bindery migrate`: applies pending migrations (local file or remote Turso) and brings stored counts up to date.
// `bindery migrate --print-sql [--since <tag>]` opens no database: it prints the schema SQL with the
// migration ledger rows, for D1 (`wrangler d1 execute <db> --remote --file schema.sql`).
import { migrationScript } from '../../db/sql-script.ts';
import { openRuntime } from '../runtime.ts';

export async function main(args: string[] = []): Promise<number> {
  if (args.includes('--print-sql')) {
    const i = args.indexOf('--since');
    process.stdout.write(migrationScript(i >= 0 ? args[i + 1] : undefined));
    return 0;
  }
  const { database, config } = await openRuntime(process.env, { upkeep: true });
  console.log(`database ${config.dbUrl.replace(/\?.*$/, '')} is migrated and current`);
  database.close();
  return 0;
}
