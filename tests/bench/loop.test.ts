// The model-in-the-loop harness (bench/loop, its question sets hold up against their
// documents, its grading, and its two commands run as an agent runs them (a real process, a real log).
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTiktokenCounter } from '../../core/index.ts';
import { questionProblems } from '../../bench/loop/check-questions.ts';
import { isRight, loopQuestions, type LoopQuestion } from '../../bench/loop/report.ts';
import { CACHE_DIR } from '../../bench/loop/corpus.ts';

const root = join(import.meta.dir, '..', '..');
const tokens = createTiktokenCounter('o200k_base');
await tokens.load();
/** Building the private corpus's database on first use takes seconds on a shared machine. */
const SLOW = 60_000;

function run(script: string, args: string[], log: string, env: Record<string, string> = {}) {
  const p = Bun.spawnSync(['bun', join(root, 'bench', 'loop', script), ...args], {
    cwd: root,
    env: { ...process.env, LOOP_CORPUS: 'private', LOOP_LOG: log, ...env },
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}
const entries = (log: string) =>
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('question sets', () => {
  test('every answer is in the passage its question names, in both corpora, 40 or more questions each', () => {
    for (const corpus of ['thirdparty', 'private'] as const) {
      expect(questionProblems(corpus)).toEqual([]);
      expect(loopQuestions(corpus).length).toBeGreaterThanOrEqual(40);
    }
  });

  test('grading takes the fact in everyday spelling and refuses a different number', () => {
    const q: LoopQuestion = { id: 'x', half: 'tune', question: '', answer: '1150', accept: [], file: '' };
    expect(isRight(q, '€1,150 per month')).toBe(true);
    expect(isRight(q, '€11,500')).toBe(false);
    expect(isRight({ ...q, answer: '27' }, '27 working days.')).toBe(true);
    expect(isRight({ ...q, answer: '27' }, '127 days')).toBe(false);
    expect(isRight({ ...q, answer: '9.60' }, '€9.60 a day')).toBe(true);
    expect(isRight(q, undefined)).toBe(false);
  });
});

describe('the agents’ commands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loop-test-'));
  const session = `test-${process.pid}`;

  test('grep-read prints matching files and logs the exact tokens of what it printed, under the question id', () => {
    const log = join(dir, 'grep.jsonl');
    const r = run('grep-read.ts', ['grep', 'Kalaranna', '--files'], log, { QID: 'pv-01' });
    expect(r.code).toBe(0);
    expect(r.out).toBe('facilities-tallinn-office.md\nhandbook-welcome.md\n');
    const [e] = entries(log);
    expect(e).toMatchObject({
      agent: 'grep',
      corpus: 'private',
      qid: 'pv-01',
      kind: 'call',
      tool: 'grep',
      args: { pattern: 'Kalaranna', files: true },
    });
    expect(e.responseTokens).toBe(tokens.count(r.out.trimEnd()));
    expect(e.argsTokens).toBe(tokens.count(JSON.stringify({ pattern: 'Kalaranna', files: true })));
    const read = run('grep-read.ts', ['read', 'policy-leave.md', '7', '7'], log, { QID: 'pv-01' });
    expect(read.out).toContain('7:Every full-time employee has **27 working days**');
  });

  test(
    'bindery-call lists the lazy tools with their model-visible cost, and tools a search enabled stay listed in the session',
    () => {
      const log = join(dir, 'bindery.jsonl');
      const list = run('bindery-call.ts', ['--list-tools'], log);
      expect(list.code).toBe(0);
      const lines = list.out.trimEnd().split('\n');
      const defs = lines.slice(0, -1);
      expect(defs.map((l) => JSON.parse(l).name)).toContain('search_bindings');
      const total = defs.reduce((n, l) => n + tokens.count(l), 0);
      expect(lines.at(-1)).toBe(`# ${defs.length} tools, ${total} model-visible tokens (o200k_base)`);
      expect(entries(log)[0]).toMatchObject({ kind: 'definitions', definitionsTokens: total });

      const env = { QID: 'pv-02', LOOP_SESSION: session };
      const first = run('bindery-call.ts', ['search_tools', '{"query":"list the versions of a binding"}'], log, env);
      expect(first.code).toBe(0);
      expect(first.out).toContain('[tools/list changed: now also listed]');
      const again = run('bindery-call.ts', ['search_tools', '{"query":"list the versions of a binding"}'], log, env);
      expect(again.out).not.toContain('[tools/list changed');
      const calls = entries(log).filter((e) => e.kind === 'call');
      expect(calls[0].listedTokens).toBeGreaterThan(0);
      expect(calls[1].listedTokens).toBe(0);
      expect(calls[1].responseTokens).toBe(tokens.count(again.out.trimEnd()));

      // An always-listed tool listed lean: a search shows it in full, counted as the tokens that adds, and it stays so.
      const lean = defs.map((l) => JSON.parse(l)).find((t) => t.name === 'search_bindings');
      const fuller = run('bindery-call.ts', ['search_tools', '{"query":"page through search results","limit":1}'], log, env);
      expect(fuller.out).toContain('[tools/list changed: now listed in full]');
      const full = JSON.parse(fuller.out.trimEnd().split('\n').at(-1)!);
      expect(full.name).toBe('search_bindings');
      expect(Object.keys(full.inputSchema.properties)).toEqual(
        expect.arrayContaining([...Object.keys(lean.inputSchema.properties), 'tier']),
      );
      const third = entries(log).filter((e) => e.kind === 'call')[2];
      expect(third.listedTokens).toBe(tokens.count(JSON.stringify(full)) - tokens.count(JSON.stringify(lean)));
      const later = run('bindery-call.ts', ['search_bindings', '{"query":"recovery leave","tier":"0"}'], log, env);
      expect(later.out).not.toContain('[tools/list changed');
      expect(entries(log).filter((e) => e.kind === 'call')[3].listedTokens).toBe(0);
      rmSync(join(CACHE_DIR, 'sessions', `private-${session}.json`), { force: true });
    },
    SLOW,
  );
});
