// The tokenizer's worker thread (./tokenizer-thread.ts): reads, checks and builds the rank table while
// the main thread is still loading the server, then transfers the table's typed arrays back and is done.
import { loadTiktokenTables, type TokenizerName } from '../core/tokens/counter.ts';
import type { WorkerReply } from './tokenizer-thread.ts';

declare const self: Worker;

self.onmessage = async (event: MessageEvent<{ encoding: TokenizerName }>) => {
  try {
    const tables = await loadTiktokenTables(event.data.encoding);
    const parts = tables.ranks.parts();
    const reply: WorkerReply = { ...parts, pattern: tables.pattern };
    self.postMessage(reply, [parts.pool.buffer, parts.starts.buffer, parts.slots.buffer]);
  } catch (err) {
    self.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies WorkerReply);
  }
};
