// `bindery help set <topic> <file> [--new]`: replaces a help topic from a Markdown file, in the
// configured database, without a deploy (topics set this way survive later seeds from help/*.md). A
// name that is not a topic yet is refused unless `--new`, so a typo never adds a topic nobody asks for.
// `bindery help list` shows the topics; `bindery help delete <topic>` undoes a `help set`.
import { readFileSync } from 'node:fs';
import { openRuntime } from '../runtime.ts';
import { deleteHelpTopic, knownHelpTopics, setHelpTopic, storedHelpTopics } from '../../core/services/help.ts';
import { bundledHelpTopics } from '../../core/help/bundle.ts';
import { BinderyError } from '../../core/errors.ts';
import { parseCommand, usageError } from './args.ts';

const USAGE = 'usage: bindery help set <topic> <file.md> [--new] | help list | help delete <topic>';

export async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand('help', USAGE, args, { new: { type: 'boolean' } });
  const isNew = values.new === true;
  const [sub, ...rest] = positionals;
  const shapes: Record<string, number> = { set: 2, list: 0, delete: 1 };
  if (!sub || !(sub in shapes)) return usageError('help', USAGE, sub ? `unknown subcommand "${sub}"` : undefined);
  if (rest.length !== shapes[sub])
    usageError(
      `help ${sub}`,
      USAGE,
      rest.length > shapes[sub]!
        ? `unexpected argument "${rest[shapes[sub]!]}"`
        : `needs ${sub === 'set' ? '<topic> <file.md>' : '<topic>'}`,
    );
  if (isNew && sub !== 'set') usageError(`help ${sub}`, USAGE, '--new goes with set');
  let markdown = '';
  if (sub === 'set') {
    try {
      markdown = readFileSync(rest[1]!, 'utf8');
    } catch (err) {
      console.error(`bindery help set: cannot read ${rest[1]}: ${(err as Error).message}`);
      return 1;
    }
  }
  const { deps, database } = await openRuntime();
  try {
    if (sub === 'list') {
      const rows = await storedHelpTopics(deps.db);
      const inDb = new Set(rows.map((r) => r.topic));
      for (const r of rows)
        console.log(`${r.topic}\t${r.origin === 'cli' ? 'set by hand' : 'bundled'}\t${r.tokenCount} tokens\t${r.title}`);
      for (const t of bundledHelpTopics.filter((b) => !inDb.has(b.topic))) console.log(`${t.topic}\tbundled (seeded when a server starts)`);
      return 0;
    }
    const topic = rest[0]!;
    if (sub === 'delete') {
      const done = await deleteHelpTopic(deps, topic);
      console.log(done === 'restored' ? `help topic "${topic}" is back to its bundled text` : `help topic "${topic}" removed`);
      return 0;
    }
    const known = await knownHelpTopics(deps.db);
    if (!isNew && !known.includes(topic)) {
      console.error(`bindery help set: no help topic "${topic}" (topics: ${known.join(', ')}); to add a new topic, pass --new`);
      return 2;
    }
    const row = await setHelpTopic(deps, topic, markdown);
    console.log(`help topic "${row.topic}" set from ${rest[1]} (${row.tokenCount} tokens, "${row.title}"); later seeds keep it`);
    return 0;
  } catch (err) {
    if (err instanceof BinderyError) {
      console.error(`bindery help ${sub}: ${err.message}`);
      return 2;
    }
    throw err;
  } finally {
    database.close();
  }
}
