// Checks the question sets of bench/loop: `bun bench/loop/check-questions.ts`. Every question
// names a file of its corpus, its `evidence` is a literal passage of that file, and the expected answer
// (or an accepted form) appears in that passage as report.ts grades it; ids are unique and both halves
// are the same size give or take one.
import { CORPORA, loadCorpus, type CorpusName } from './corpus.ts';
import { loopQuestions, normalise, type LoopQuestion } from './report.ts';

/** Problems with one corpus's question set (empty when all is well). */
export function questionProblems(corpus: CorpusName): string[] {
  const files = new Map(loadCorpus(corpus).files.map((f) => [f.path, f.text]));
  const qs = loopQuestions(corpus) as (LoopQuestion & { evidence?: string })[];
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const q of qs) {
    if (ids.has(q.id)) problems.push(`${q.id}: duplicate id`);
    ids.add(q.id);
    const text = files.get(q.file);
    if (text === undefined) problems.push(`${q.id}: no file ${q.file} in the ${corpus} corpus`);
    else if (!q.evidence || !text.includes(q.evidence)) problems.push(`${q.id}: evidence not found verbatim in ${q.file}`);
    else if (![q.answer, ...(q.accept ?? [])].some((v) => normalise(q.evidence!).includes(normalise(v))))
      problems.push(`${q.id}: neither the answer nor an accepted form is in the evidence`);
    if (q.half !== 'tune' && q.half !== 'heldout') problems.push(`${q.id}: half must be tune or heldout`);
  }
  const tune = qs.filter((q) => q.half === 'tune').length;
  if (Math.abs(2 * tune - qs.length) > 1) problems.push(`halves uneven: ${tune} tune of ${qs.length}`);
  if (qs.length < 40) problems.push(`only ${qs.length} questions (want 40 or more)`);
  return problems;
}

if (import.meta.main) {
  let bad = 0;
  for (const c of CORPORA) {
    const p = questionProblems(c);
    bad += p.length;
    console.log(
      `${c}: ${loopQuestions(c).length} questions, ${p.length ? `${p.length} problems` : 'all answers found in their documents'}`,
    );
    for (const line of p) console.log(`  ${line}`);
  }
  process.exit(bad ? 1 : 0);
}
