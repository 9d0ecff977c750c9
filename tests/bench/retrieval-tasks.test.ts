// The retrieval benchmark's task builder (bench/retrieval-tasks.ts) on the real node_modules corpus:
// the same tasks on every run, each phrase once in the whole corpus, in the second half of a long doc.
import { describe, expect, test } from 'bun:test';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { buildRetrievalTasks, normalize, queryFor, retrievalCorpus } from '../../bench/retrieval-tasks.ts';

const enc = new Tiktoken(o200k);
/** Tokenizing the corpus takes seconds on a shared 2-core machine. */
const SLOW = 60_000;
const { docs, padding } = retrievalCorpus(400);
const universe = [...docs, ...padding];
const build = () => buildRetrievalTasks(docs, enc, { count: 40, minTokens: 2_000, universe });
const tasks = build();

describe('retrieval tasks', () => {
  test('the corpus is third-party Markdown: at least 246 .md docs under node_modules, padded with .mdx', () => {
    expect(docs.length).toBeGreaterThanOrEqual(246);
    expect(docs.every((d) => d.path.includes('/node_modules/') && /\.md$/i.test(d.path))).toBe(true);
    expect(padding.every((d) => /\.mdx?$/i.test(d.path))).toBe(true);
  });

  test(
    'the builder is deterministic and yields 40 tasks from 40 different documents',
    () => {
      expect(tasks).toHaveLength(40);
      expect(build()).toEqual(tasks);
      expect(new Set(tasks.map((t) => t.path)).size).toBe(40);
    },
    SLOW,
  );

  test(
    'a checkout elsewhere picks the same tasks (the bench compares across worktrees)',
    () => {
      const root = docs[0]!.path.slice(0, docs[0]!.path.indexOf('node_modules/'));
      const moved = (d: { path: string; text: string }) => ({ ...d, path: `/elsewhere/checkout/${d.path.slice(root.length)}` });
      const there = buildRetrievalTasks(docs.map(moved), enc, { count: 40, minTokens: 2_000, universe: universe.map(moved) });
      expect(there.map((t) => `${t.phrase} | ${t.query}`)).toEqual(tasks.map((t) => `${t.phrase} | ${t.query}`));
    },
    SLOW,
  );

  test(
    'each phrase occurs exactly once in the whole corpus, in its own document',
    () => {
      for (const t of tasks) {
        const hits = universe.flatMap((d) => {
          const text = normalize(d.text);
          const needle = normalize(t.phrase);
          const n = text.split(needle).length - 1;
          return n ? [{ path: d.path, n }] : [];
        });
        expect(hits).toEqual([{ path: t.path, n: 1 }]);
      }
    },
    SLOW,
  );

  test(
    'each phrase sits in the second half of a document of at least 2,000 tokens',
    () => {
      for (const t of tasks) {
        const text = docs[t.doc]!.text;
        const tokens = enc.encode(text, [], []).length;
        expect(t.docTokens).toBe(tokens);
        expect(tokens).toBeGreaterThanOrEqual(2_000);
        const before = enc.encode(text.slice(0, text.indexOf(t.phrase)), [], []).length;
        expect(before / tokens).toBeGreaterThanOrEqual(0.5);
        expect(t.depth).toBeCloseTo(before / tokens, 5);
      }
    },
    SLOW,
  );

  test('the query is 3–5 content words of the phrase, never the phrase itself', () => {
    for (const t of tasks) {
      const words = t.query.split(' ');
      expect(words.length).toBeGreaterThanOrEqual(3);
      expect(words.length).toBeLessThanOrEqual(5);
      expect(words.every((w) => t.phrase.split(' ').includes(w))).toBe(true);
      expect(normalize(t.query)).not.toBe(normalize(t.phrase));
    }
    expect(queryFor('it is in the way of')).toBeNull();
    expect(queryFor('Negated extglob patterns are handled as')).toBe('Negated extglob patterns handled');
  });
});
