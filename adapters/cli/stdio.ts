// `bindery stdio`: the stdio server, kept running (returns -1 so the dispatcher does not exit).
import { runStdio } from '../stdio.ts';
import { parseCommand } from './args.ts';

export async function main(args: string[] = []): Promise<number> {
  parseCommand('stdio', 'usage: bindery stdio   (BINDERY_* from the environment)', args, {}, { positionals: false });
  await runStdio();
  return -1;
}
