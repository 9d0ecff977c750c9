// `bindery restore <file>` (`-`: stdin) loads a `bindery dump` into the EMPTY database at
// BINDERY_DB_URL (a file, or Turso with BINDERY_DB_AUTH_TOKEN): refuses a non-empty database and a
// truncated, corrupt or newer dump with nothing written; then rebuilds the search index and brings
// stored counts to this configuration, as `bindery migrate` does.
import { createReadStream, statSync } from 'node:fs';
import { createDatabase } from '../../db/index.ts';
import { linesOf } from '../../db/dump/read.ts';
import { restoreDump } from '../../db/dump/restore.ts';
import { DumpError } from '../../db/dump/format.ts';
import { parseConfig } from '../../core/index.ts';
import { restoredRowIssue } from '../../core/services/binding-fields.ts';
import { openRuntime } from '../runtime.ts';
import { rowProgress } from './dump.ts';
import { parseCommand, usageError } from './args.ts';

const USAGE = 'usage: bindery restore <file>|-';

export async function main(args: string[]): Promise<number> {
  const { positionals } = parseCommand('restore', USAGE, args, {});
  if (positionals.length !== 1)
    usageError('restore', USAGE, positionals.length ? `unexpected argument "${positionals[1]}"` : 'give the dump file, or - for stdin');
  const source = positionals[0]!;
  if (source !== '-' && !statSync(source, { throwIfNoEntry: false })?.isFile()) {
    console.error(`bindery restore: ${source} is not a file`);
    return 2;
  }
  const config = parseConfig(process.env);
  const database = createDatabase({ url: config.dbUrl, authToken: config.dbAuthToken });
  const progress = rowProgress();
  let result;
  try {
    // A file is read twice (checked whole, then loaded) so a bad one writes nothing, not even the schema.
    const open = () => linesOf(source === '-' ? process.stdin : createReadStream(source));
    result = await restoreDump(database, open, {
      verifyFirst: source !== '-',
      checkRow: restoredRowIssue,
      progress: { total: (n) => progress.total(n), rows: (n) => progress.update(n) },
    });
  } catch (err) {
    if (err instanceof DumpError) {
      console.error(`bindery restore: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    database.close();
  }
  // Counts stored for another tokenizer or public URL are brought to this one, as a server would at start;
  // nothing restored is pruned (a dump restores whole, and dumps again byte for byte).
  const runtime = await openRuntime(process.env, { upkeep: 'counts' });
  runtime.database.close();
  const rows = Object.values(result.rows).reduce((a, b) => a + b, 0);
  progress.finish(
    `restored ${rows.toLocaleString('en-US')} rows (${(result.rows.bindings ?? 0).toLocaleString('en-US')} bindings, schema ${result.header.schema}) into ${config.dbUrl.replace(/\?.*$/, '')}`,
  );
  return 0;
}
