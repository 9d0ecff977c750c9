// The test tokenizer shared by tests/, bench/ and scripts/: one loaded o200k counter per process.
import { createTiktokenCounter } from '../core/index.ts';
import type { TokenCounter } from '../core/tokens/counter.ts';

let sharedCounter: TokenCounter | undefined;
/** One loaded o200k counter for the whole process (loading costs ~300 ms). */
export async function testCounter(): Promise<TokenCounter> {
  sharedCounter ??= createTiktokenCounter('o200k_base');
  await sharedCounter.load();
  return sharedCounter;
}
