// `bindery stdio`: the stdio server, kept running (returns -1 so the dispatcher does not exit).
import { runStdio } from '../stdio.ts';

export async function main(): Promise<number> {
  await runStdio();
  return -1;
}
