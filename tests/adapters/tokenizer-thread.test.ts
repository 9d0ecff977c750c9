// The stdio server's threaded tokenizer: the tables are built on a worker thread and handed to the
// main thread, which counts on them; a worker that fails leaves the work to the main thread. Either
// way every count is the core counter's, exactly.
import { describe, expect, test } from 'bun:test';
import { createTiktokenCounter, type TokenizerName } from '../../core/tokens/counter.ts';
import { startStdioServer } from '../stdio-client.ts';
import { createThreadedCounter, spareCore, startTokenizerEarly, takeEarlyTokenizer } from '../../adapters/tokenizer-thread.ts';

const TEXTS = [
  '',
  'hello world',
  'Budgets decide what an assistant reads. '.repeat(50),
  '# Überschrift\n\nGrüße aus Köln — naïve café, 東京の天気は晴れ、🙂👍🏽 and ```code```\n',
  'x'.repeat(5000),
  'function f(a, b) {\n  return a + b; // sum\n}\n\t\t  trailing   spaces   ',
];

describe('the threaded tokenizer', () => {
  for (const encoding of ['o200k_base', 'cl100k_base'] as TokenizerName[]) {
    test(`${encoding}: the table built on the worker counts exactly as the core counter's`, async () => {
      const core = createTiktokenCounter(encoding);
      await core.load();
      const threaded = createThreadedCounter(encoding);
      expect(() => threaded.count('early')).toThrow('used before load()');
      await threaded.load();
      for (const t of TEXTS) expect(threaded.count(t)).toBe(core.count(t));
      expect(threaded.stats.calls).toBe(TEXTS.length);
    }, 30_000);
  }

  test('a worker that cannot run leaves the tables to the main thread, with the same counts', async () => {
    const core = createTiktokenCounter('o200k_base');
    await core.load();
    const threaded = createThreadedCounter('o200k_base', new URL('./no-such-worker.ts', import.meta.url).href);
    await threaded.load();
    for (const t of TEXTS) expect(threaded.count(t)).toBe(core.count(t));
  }, 30_000);

  test('started early for BINDERY_TOKENIZER, handed over once for that encoding only; on by default, BINDERY_TOKENIZER_THREAD=0 starts nothing', async () => {
    startTokenizerEarly({ BINDERY_TOKENIZER: 'cl100k_base', BINDERY_TOKENIZER_THREAD: '1' });
    expect(takeEarlyTokenizer('o200k_base')).toBeUndefined();
    startTokenizerEarly({ BINDERY_TOKENIZER: 'cl100k_base', BINDERY_TOKENIZER_THREAD: '1' });
    const early = takeEarlyTokenizer('cl100k_base');
    expect(early?.encoding).toBe('cl100k_base');
    expect(takeEarlyTokenizer('cl100k_base')).toBeUndefined();
    await early!.load();
    expect(early!.count('hello world')).toBe(2);
    startTokenizerEarly({ BINDERY_TOKENIZER_THREAD: '0' });
    expect(takeEarlyTokenizer('o200k_base')).toBeUndefined();
    // On by default.
    startTokenizerEarly({});
    expect(takeEarlyTokenizer('o200k_base')?.encoding).toBe('o200k_base');
  }, 30_000);

  test('a worker only where a core is free: more than one core and a load average below the cores', () => {
    expect(spareCore(8, 0.7)).toBe(true);
    expect(spareCore(2, 1.2)).toBe(true);
    expect(spareCore(2, 15)).toBe(false);
    expect(spareCore(1, 0)).toBe(false);
  });
});

describe('the stdio server with the threaded tokenizer', () => {
  test('answers the same exact response counts with the worker forced on as with it off', async () => {
    const counts: number[][] = [];
    for (const thread of ['1', '0']) {
      const server = await startStdioServer({ env: { BINDERY_TOKENIZER_THREAD: thread } });
      try {
        const seen: number[] = [];
        for (const query of ['getting started', 'Grüße 東京 🙂']) {
          const r = await server.client.callTool({ name: 'search_bindings', arguments: { query } });
          seen.push((r._meta as { context: { response: { tokens: number } } }).context.response.tokens);
        }
        const made = await server.client.callTool({
          name: 'create_binding',
          arguments: { name: 'Counted', content: 'Budgets decide. '.repeat(40), summary: 'A counted note.' },
        });
        seen.push((made.structuredContent as { binding: { contentTokenCount: number } }).binding.contentTokenCount);
        counts.push(seen);
      } finally {
        await server.close();
      }
    }
    expect(counts[0]).toEqual(counts[1]!);
    const core = createTiktokenCounter('o200k_base');
    await core.load();
    expect(counts[0]![2]).toBe(core.count('Budgets decide. '.repeat(40)));
  }, 60_000);
});
