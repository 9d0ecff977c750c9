// Sums a model-in-the-loop log: `bun bench/loop/report.ts <log.jsonl> [--verbose] [--json]`.
// Per agent and corpus, on the tuning half, the held-out half and both: questions, right answers (graded
// against questions-<corpus>.json: an accepted variant appears in the answer, case and punctuation aside),
// definitions tokens (the tool list the agent read), call tokens per question and per right answer
// (arguments + responses + definitions a call newly listed), the share answered right in one call, and
// the all-in cost of a one-question conversation (definitions + mean call tokens per question).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOOP_DIR, type CorpusName } from './corpus.ts';
import type { LogEntry } from './log.ts';

export interface LoopQuestion {
  id: string;
  half: 'tune' | 'heldout';
  question: string;
  answer: string;
  /** Other spellings accepted as right. */
  accept?: string[];
  file: string;
}

/** A corpus's question set. */
export function loopQuestions(corpus: CorpusName): LoopQuestion[] {
  return (JSON.parse(readFileSync(join(LOOP_DIR, `questions-${corpus}.json`), 'utf8')) as { questions: LoopQuestion[] }).questions;
}

/** Lower case, digits' thousands separators dropped, every run of other characters one space. */
export function normalise(s: string): string {
  return ` ${s
    .toLowerCase()
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/[^\p{L}\p{N}.]+/gu, ' ')
    .replace(/\.(?!\d)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()} `;
}

/** Right when one accepted form appears in the answer as whole words. */
export function isRight(q: LoopQuestion, answer: string | undefined): boolean {
  if (!answer) return false;
  const a = normalise(answer);
  return [q.answer, ...(q.accept ?? [])].some((v) => a.includes(normalise(v)));
}

interface PerQuestion {
  q: LoopQuestion;
  calls: number;
  tokens: number;
  answer?: string;
  right: boolean;
}

function summarise(rows: PerQuestion[], definitions: number | undefined) {
  const n = rows.length;
  const right = rows.filter((r) => r.right).length;
  const tokens = rows.reduce((s, r) => s + r.tokens, 0);
  const perQuestion = n ? tokens / n : 0;
  return {
    questions: n,
    right,
    rightPct: n ? (100 * right) / n : 0,
    definitions,
    callsPerQuestion: n ? rows.reduce((s, r) => s + r.calls, 0) / n : 0,
    firstCallRightPct: n ? (100 * rows.filter((r) => r.right && r.calls <= 1).length) / n : 0,
    tokensPerQuestion: Math.round(perQuestion),
    tokensPerRightAnswer: right ? Math.round(tokens / right) : null,
    allInOneQuestion: definitions === undefined ? null : Math.round(definitions + perQuestion),
  };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) {
    process.stderr.write('usage: bun bench/loop/report.ts <log.jsonl> [--verbose] [--json]\n');
    process.exit(2);
  }
  const entries = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LogEntry);
  const groups = new Map<string, LogEntry[]>();
  for (const e of entries) {
    const k = `${e.agent}/${e.corpus}`;
    groups.set(k, [...(groups.get(k) ?? []), e]);
  }
  const out: Record<string, unknown> = {};
  const lines = [
    '| agent / corpus | half | questions | right | definitions | calls / q | first call right | tokens / q | tokens / right answer | all-in, one question |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const detail: string[] = [];
  for (const [key, es] of [...groups].sort()) {
    const corpus = es[0]!.corpus;
    const questions = new Map(loopQuestions(corpus).map((q) => [q.id, q]));
    const defs = es.filter((e) => e.kind === 'definitions').at(-1)?.definitionsTokens;
    const byQ = new Map<string, PerQuestion>();
    for (const e of es) {
      if (e.kind === 'definitions' || !e.qid) continue;
      const q = questions.get(e.qid);
      if (!q) {
        process.stderr.write(`warning: ${key}: no question ${e.qid} in questions-${corpus}.json\n`);
        continue;
      }
      const r = byQ.get(q.id) ?? { q, calls: 0, tokens: 0, right: false };
      if (e.kind === 'call') {
        r.calls++;
        r.tokens += (e.argsTokens ?? 0) + (e.responseTokens ?? 0) + (e.listedTokens ?? 0);
      } else if (e.kind === 'answer') r.answer = e.answer;
      byQ.set(q.id, r);
    }
    for (const r of byQ.values()) r.right = isRight(r.q, r.answer);
    if (defs === undefined) process.stderr.write(`warning: ${key}: no --list-tools in the log, definitions unknown\n`);
    const all = [...byQ.values()].sort((a, b) => (a.q.id < b.q.id ? -1 : 1));
    const missing = [...questions.keys()].filter((id) => !byQ.has(id));
    if (missing.length)
      process.stderr.write(
        `warning: ${key}: ${missing.length} of ${questions.size} questions not attempted (left out of the figures): ${missing.join(', ')}\n`,
      );
    const unanswered = all.filter((r) => r.answer === undefined).map((r) => r.q.id);
    if (unanswered.length) process.stderr.write(`warning: ${key}: no answer recorded for ${unanswered.join(', ')} (counted wrong)\n`);
    for (const [half, rows] of [
      ['tune', all.filter((r) => r.q.half === 'tune')],
      ['heldout', all.filter((r) => r.q.half === 'heldout')],
      ['all', all],
    ] as const) {
      const s = summarise(rows, defs);
      out[`${key}/${half}`] = s;
      lines.push(
        `| ${key} | ${half} | ${s.questions} | ${s.right} (${s.rightPct.toFixed(1)} %) | ${s.definitions ?? '?'} | ${s.callsPerQuestion.toFixed(2)} | ${s.firstCallRightPct.toFixed(1)} % | ${s.tokensPerQuestion} | ${s.tokensPerRightAnswer ?? '-'} | ${s.allInOneQuestion ?? '?'} |`,
      );
    }
    for (const r of all)
      detail.push(
        `${key} ${r.q.id} ${r.q.half} ${r.right ? 'RIGHT' : 'WRONG'} calls ${r.calls} tokens ${r.tokens}: ${JSON.stringify(r.answer ?? null)} (expected ${JSON.stringify(r.q.answer)})`,
      );
  }
  if (args.includes('--json')) console.log(JSON.stringify(out, null, 2));
  else {
    console.log(lines.join('\n'));
    if (args.includes('--verbose')) console.log(`\n${detail.join('\n')}`);
  }
}
