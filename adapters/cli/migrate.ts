// `bindery migrate`: applies pending migrations (local file or remote Turso) and brings stored counts up to date.
// `bindery migrate --print-sql [--since <tag>]` opens no database: it prints the schema SQL with the
// migration ledger rows, for D1 (`wrangler d1 execute <db> --remote --file schema.sql`).
import { migrationScript } from '../../db/sql-script.ts';
import type { BackfillProgress } from '../../db/store/fts.ts';
import { openRuntime } from '../runtime.ts';
import { createProgress, type Progress } from './progress.ts';
import { parseCommand, usageError } from './args.ts';

const USAGE = 'usage: bindery migrate [--print-sql [--since <tag>]]';

/** The search-index backfill drawn as progress on a terminal, summed up in one line when it ran. */
function backfillProgress(): BackfillProgress & { finish(): void } {
  let progress: Progress | undefined;
  let rows = 0;
  return {
    start(total) {
      if (total > 0) progress = createProgress({ unit: 'bindings', total });
    },
    done(n) {
      rows += n;
      progress?.tick(n);
    },
    finish() {
      progress?.done(`re-indexed ${rows} bindings for search`);
    },
  };
}

export async function main(args: string[] = []): Promise<number> {
  const { values } = parseCommand(
    'migrate',
    USAGE,
    args,
    { 'print-sql': { type: 'boolean' }, since: { type: 'string', needs: 'a migration tag' } },
    { positionals: false },
  );
  if (values.since !== undefined && !values['print-sql']) usageError('migrate', USAGE, '--since goes with --print-sql');
  if (values['print-sql']) {
    process.stdout.write(migrationScript(values.since));
    return 0;
  }
  const progress = backfillProgress();
  const { database, config } = await openRuntime(process.env, { upkeep: true, progress });
  progress.finish();
  console.log(`database ${config.dbUrl.replace(/\?.*$/, '')} is migrated and current`);
  database.close();
  return 0;
}
