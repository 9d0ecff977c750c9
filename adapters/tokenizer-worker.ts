// The tokenizer's worker thread (./tokenizer-thread.ts): reads and checks the rank table while the
// main thread is still loading the server, posts the table's byte pool and token starts back, then
// counts for the main thread until it has built its own table: a request in the shared buffer
// (state 1) is answered with its count (state 2); state 3 ends the loop.
import { createTiktokenCounter, loadTiktokenTables } from '../core/tokens/counter.ts';
import { ANSWERED, ASKED, FAILED, QUIT, type WorkerStart } from './tokenizer-thread.ts';

declare const self: Worker;

self.onmessage = async (event: MessageEvent<WorkerStart>) => {
  const { encoding, control, text } = event.data;
  let tables;
  try {
    tables = await loadTiktokenTables(encoding);
  } catch (err) {
    self.postMessage({ error: err instanceof Error ? err.message : String(err) });
    return;
  }
  const { pool, starts } = tables.ranks.parts();
  self.postMessage({ pool, starts, pattern: tables.pattern });

  const counter = createTiktokenCounter(encoding, async () => tables);
  await counter.load();
  for (;;) {
    const state = Atomics.load(control, 0);
    if (state === QUIT) return;
    if (state !== ASKED) {
      Atomics.wait(control, 0, state);
      continue;
    }
    let answer = FAILED;
    try {
      const length = control[1]!;
      let s = '';
      for (let at = 0; at < length; at += 8192) s += String.fromCharCode(...text.subarray(at, Math.min(length, at + 8192)));
      answer = counter.count(s);
    } catch {
      answer = FAILED;
    }
    control[2] = answer;
    Atomics.store(control, 0, ANSWERED);
    Atomics.notify(control, 0);
  }
};
