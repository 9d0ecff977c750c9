// The scripted stand-in for the model-in-the-loop harness (bench/loop): no model, one fixed
// call per question. Each corpus of bench/loop is imported as `bindery import` does into an in-memory
// Bindery; a lazy-mode MCP client reads the always-listed definitions once (model-visible tokens, as the
// lock counts them), then asks every question of questions-<corpus>.json with one `search_bindings
// {query}` in default arguments. A question counts as answered by the first call when its expected
// answer (or an accepted form) is in the response text, graded as bench/loop/report.ts grades a model.
// (It must also name the answer's document: a bare "5" is in most responses.)
// Figures per corpus and half: first call shows the answer, tokens of that call (arguments + response),
// all-in for a one-question conversation whose first call answers (definitions + that call).
import { importDocument } from '../core/services/import.ts';
import { shortId } from '../core/ids.ts';
import { modelJson } from '../core/footprint/definition.ts';
import { benchWorld } from './world.ts';
import { round, type BenchRow, type BenchSection } from './types.ts';
import { CORPORA, loadCorpus, type CorpusName } from './loop/corpus.ts';
import { isRight, loopQuestions } from './loop/report.ts';

interface Asked {
  id: string;
  half: 'tune' | 'heldout';
  answered: boolean;
  tokens: number;
}

async function measure(corpus: CorpusName) {
  const { deps, tokens, caller, connect, close } = await benchWorld({ BINDERY_TOOL_MODE: 'lazy' });
  try {
    const ids = new Map<string, string>();
    for (const f of loadCorpus(corpus).files) {
      const out = await importDocument(deps, caller, { sourcePath: f.path, bytes: new TextEncoder().encode(f.text) });
      if (out.status !== 'skipped') ids.set(f.path, out.id);
    }
    const client = await connect(`bench-loop-${corpus}`, 'lazy');
    const listed = (await client.listTools()).tools;
    const definitions = listed.reduce((n, t) => n + tokens.count(modelJson(t)), 0);
    const asked: Asked[] = [];
    for (const q of loopQuestions(corpus)) {
      const args = { query: q.question };
      const r = (await client.callTool({ name: 'search_bindings', arguments: args })) as { content?: { type: string; text?: string }[] };
      const text = (r.content ?? [])
        .filter((c) => c.type === 'text')
        .map((c) => c.text ?? '')
        .join('\n');
      // The answer's words, in a response that names the document they come from (a bare "5" is everywhere).
      const target = ids.get(q.file);
      asked.push({
        id: q.id,
        half: q.half,
        answered: !!target && text.includes(shortId(target)) && isRight(q, text),
        tokens: tokens.count(JSON.stringify(args)) + tokens.count(text),
      });
    }
    await client.close();
    return { definitions, listed: listed.map((t) => t.name), asked };
  } finally {
    close();
  }
}

const pct = (x: number) => `${round(x * 100, 1)} %`;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export async function run(): Promise<BenchSection> {
  const rows: BenchRow[] = [];
  const answered: string[] = [];
  for (const corpus of CORPORA) {
    const m = await measure(corpus);
    answered.push(...m.asked.filter((a) => a.answered).map((a) => a.id));
    rows.push({
      metric: `${corpus}: corpus / always-listed definitions (lazy)`,
      value: `${loadCorpus(corpus).files.length} docs, ${m.asked.length} questions; ${m.listed.join(', ')} = ${m.definitions} model-visible tokens`,
    });
    for (const [label, xs] of [
      ['all', m.asked],
      ['tuning half', m.asked.filter((a) => a.half === 'tune')],
      ['held-out half', m.asked.filter((a) => a.half === 'heldout')],
    ] as const) {
      const shown = xs.filter((a) => a.answered).length / (xs.length || 1);
      const call = mean(xs.map((a) => a.tokens));
      rows.push({
        metric: `${corpus}, ${label}: one search_bindings {query} shows the answer; tokens of that call; all-in (definitions + call)`,
        value: `${pct(shown)}; ${Math.round(call)}; ${Math.round(m.definitions + call)}`,
        ...(label === 'all' ? { goal: 'shown ≥ 80 %, all-in ≤ 500', met: shown >= 0.8 && m.definitions + call <= 500 } : {}),
      });
    }
  }
  return { title: 'model-in-the-loop stand-in', rows, extra: { answered } };
}
