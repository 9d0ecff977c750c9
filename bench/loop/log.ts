// What both agents' commands share: their flags (--corpus, --log, --qid, --session, or the env vars
// LOOP_CORPUS, LOOP_LOG, QID, LOOP_SESSION), the o200k_base counter the repo counts with, and the
// JSONL log that bench/loop/report.ts sums.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createTiktokenCounter, type TokenCounter } from '../../core/index.ts';
import { corpusName, type CorpusName } from './corpus.ts';

export type Agent = 'bindery' | 'grep';

/** One line of the log. `kind` "call": one tool call; "definitions": the tool list the agent read; "answer": its final answer. */
export interface LogEntry {
  at: string;
  agent: Agent;
  corpus: CorpusName;
  qid: string | null;
  session: string;
  kind: 'call' | 'definitions' | 'answer';
  tool?: string;
  args?: unknown;
  /** Tokens of the arguments as the model writes them (compact JSON of the argument object). */
  argsTokens?: number;
  /** Tokens of the text the model reads back. */
  responseTokens?: number;
  /** Definitions of tools a call newly listed (lazy mode: search_tools enabled them); the model reads these too. */
  listedTokens?: number;
  definitionsTokens?: number;
  isError?: boolean;
  answer?: string;
}

export interface LoopOptions {
  corpus: CorpusName;
  log: string | null;
  qid: string | null;
  session: string;
  rest: string[];
}

/** Splits `--corpus x --log y --qid z --session s` (anywhere) from the positional arguments. */
export function parseOptions(argv: string[]): LoopOptions {
  const flags: Record<string, string> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--(corpus|log|qid|session)(?:=(.*))?$/.exec(a);
    if (m) {
      const value = m[2] ?? argv[++i];
      if (value === undefined) throw new Error(`--${m[1]} needs a value`);
      flags[m[1]!] = value;
    } else rest.push(a);
  }
  const qid = flags.qid ?? process.env.QID ?? null;
  const log = flags.log ?? process.env.LOOP_LOG ?? null;
  return {
    corpus: corpusName(flags.corpus ?? process.env.LOOP_CORPUS),
    log: log ? resolve(log) : null,
    qid,
    session: flags.session ?? process.env.LOOP_SESSION ?? qid ?? 'default',
    rest,
  };
}

let counter: TokenCounter | undefined;
/** The repo's exact o200k_base counter, loaded once. */
export async function tokenCounter(): Promise<TokenCounter> {
  if (!counter) {
    counter = createTiktokenCounter('o200k_base');
    await counter.load();
  }
  return counter;
}

/** Appends one entry to the log (when one is configured; a warning on stderr otherwise). */
export function writeLog(opts: LoopOptions, agent: Agent, entry: Omit<LogEntry, 'at' | 'agent' | 'corpus' | 'qid' | 'session'>): void {
  if (!opts.log) {
    process.stderr.write('warning: no log (set LOOP_LOG or --log); nothing recorded\n');
    return;
  }
  if (entry.kind !== 'definitions' && !opts.qid) process.stderr.write('warning: no question id (set QID or --qid)\n');
  const full: LogEntry = { at: new Date().toISOString(), agent, corpus: opts.corpus, qid: opts.qid, session: opts.session, ...entry };
  mkdirSync(dirname(opts.log), { recursive: true });
  appendFileSync(opts.log, JSON.stringify(full) + '\n');
}

/** Runs a command's main, printing a failure as one line on stderr with exit code 2. */
export function main(run: () => Promise<void>): void {
  run().catch((e) => {
    process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  });
}

/** `--answer '<text>'`: records the agent's final answer for the question (not counted as tokens). */
export function recordAnswer(opts: LoopOptions, agent: Agent, answer: string | undefined): void {
  if (!answer?.trim()) throw new Error("usage: --answer '<your final answer>'");
  if (!opts.qid) throw new Error('an answer needs the question id (set QID or --qid)');
  writeLog(opts, agent, { kind: 'answer', answer: answer.trim() });
  process.stdout.write('recorded\n');
}
