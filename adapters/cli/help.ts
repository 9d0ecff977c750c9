// `bindery help set <topic> <file>`: replaces (or adds) a help topic from a Markdown file, in the
// configured database, without a deploy. Topics set this way survive later seeds from help/*.md.
import { readFileSync } from 'node:fs';
import { openRuntime } from '../runtime.ts';
import { setHelpTopic } from '../../core/services/help.ts';
import { BinderyError } from '../../core/errors.ts';

const USAGE = 'usage: bindery help set <topic> <file.md>';

export async function main(args: string[]): Promise<number> {
  const [sub, topic, file, ...extra] = args;
  if (sub !== 'set' || !topic || !file || extra.length) {
    console.error(USAGE);
    return 2;
  }
  let markdown: string;
  try {
    markdown = readFileSync(file, 'utf8');
  } catch (err) {
    console.error(`bindery help set: cannot read ${file}: ${(err as Error).message}`);
    return 1;
  }
  const { deps, database } = await openRuntime();
  try {
    const row = await setHelpTopic(deps, topic, markdown);
    console.log(`help topic "${row.topic}" set from ${file} (${row.tokenCount} tokens, "${row.title}"); later seeds keep it`);
    return 0;
  } catch (err) {
    if (err instanceof BinderyError) {
      console.error(`bindery help set: ${err.message}`);
      return 2;
    }
    throw err;
  } finally {
    database.close();
  }
}
