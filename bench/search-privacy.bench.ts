// What the order of search results still says about other users' private documents.
// FTS5's bm25() weighs words by index-wide counts (documents, average length, documents per word), so
// another user's private documents holding a word can move the order of a caller's own hits (every
// figure search prints is counted over the caller's scope: db/store/search-stats.ts). Measured on the
// everyday corpus (bench/everyday.bench.ts, 432 documents owned by the caller): for each question, a
// second user adds k private documents holding the question's first content word; how often the
// caller's top 10 (search_bindings' first page) and top 1 change order. docs/security.md says what remains.
import { ftsQuery, searchBindingRows } from '../db/store/search.ts';
import { createBinding, deleteBinding } from '../core/services/bindings.ts';
import { ensureCaller } from '../core/services/prepare.ts';
import { everydayQuestions, everydayWorld } from './everyday.bench.ts';
import { round, type BenchSection } from './types.ts';

const HUMAN = { source: 'human' as const, model: null };
const ADDED = [1, 3, 10];

export async function run(): Promise<BenchSection> {
  const w = await everydayWorld();
  const mallory = await ensureCaller(w.deps, 'mallory');
  const questions = everydayQuestions();
  const owner = await ensureCaller(w.deps, 'bench');
  const top = async (match: string) =>
    (await searchBindingRows(w.deps.db, match, { userId: owner.id, offset: 0, limit: 10 })).rows.map((r) => r.bindingId);
  const moved = new Map(ADDED.map((k) => [k, { order: 0, first: 0, set: 0 }]));
  let asked = 0;
  for (const q of questions) {
    const match = ftsQuery(q.question);
    if (!match) continue;
    const probe = match.match(/"([^"]+)"/)![1]!;
    const before = await top(match);
    if (before.length < 2) continue;
    asked++;
    const added: string[] = [];
    for (const k of ADDED) {
      while (added.length < k) {
        const row = await createBinding(
          w.deps,
          mallory,
          { name: `${probe} notes ${added.length}`, summary: `About ${probe}`, content: `# ${probe}\n\n${`${probe} `.repeat(5)}\n` },
          HUMAN,
        );
        added.push(row.bindingId);
      }
      const after = await top(match);
      const m = moved.get(k)!;
      if (after.join() !== before.join()) m.order++;
      if (after[0] !== before[0]) m.first++;
      if ([...after].sort().join() !== [...before].sort().join()) m.set++;
    }
    for (const id of added) await deleteBinding(w.deps, mallory, id);
  }
  w.close();
  const pct = (n: number) => round((100 * n) / Math.max(asked, 1), 1);
  return {
    title: 'Search privacy (BM25 order)',
    rows: ADDED.flatMap((k) => {
      const m = moved.get(k)!;
      return [
        { metric: `top-10 order moved by ${k} private doc${k === 1 ? '' : 's'} of another user`, value: pct(m.order), unit: '%' },
        { metric: `top-10 membership moved by ${k}`, value: pct(m.set), unit: '%' },
        { metric: `top hit moved by ${k}`, value: pct(m.first), unit: '%' },
      ];
    }),
    extra: { questions: asked },
  };
}
