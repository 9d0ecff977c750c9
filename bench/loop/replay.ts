// Replays the first search of each question from model-in-the-loop logs (bench/loop/log.ts writes
// them) against the current code, in process, and grades whether that one call shows the answer, as
// `bun run bench loop` grades its fixed calls. The queries are the ones models wrote, so a change to
// search can be judged on real first calls between model runs (the logs are not committed: pass their
// paths). Usage: bun bench/loop/replay.ts [--verbose] [--half tune|heldout] <log.jsonl>...
import { readFileSync } from 'node:fs';
import { importDocument } from '../../core/services/import.ts';
import { shortId } from '../../core/ids.ts';
import { benchWorld } from '../world.ts';
import { loadCorpus, type CorpusName } from './corpus.ts';
import { isRight, loopQuestions } from './report.ts';

interface Logged {
  kind: string;
  corpus: CorpusName;
  qid: string | null;
  tool?: string;
  args?: Record<string, unknown>;
}

const argv = process.argv.slice(2);
const verbose = argv.includes('--verbose');
const halfAt = argv.indexOf('--half');
const half = halfAt >= 0 ? argv[halfAt + 1] : undefined;
const paths = argv.filter((a, i) => !a.startsWith('--') && (halfAt < 0 || i !== halfAt + 1));

/** First search per question and log, deduplicated by corpus, question and arguments. */
const firsts = new Map<string, { corpus: CorpusName; qid: string; args: Record<string, unknown> }>();
for (const path of paths) {
  const seen = new Set<string>();
  for (const l of readFileSync(path, 'utf8').trim().split('\n')) {
    const e = JSON.parse(l) as Logged;
    if (e.kind !== 'call' || !e.qid || seen.has(e.qid)) continue;
    seen.add(e.qid);
    if (e.tool !== 'search_bindings' || !e.args) continue;
    const key = `${e.corpus}\t${e.qid}\t${JSON.stringify(e.args)}`;
    firsts.set(key, { corpus: e.corpus, qid: e.qid, args: e.args });
  }
}

for (const corpus of ['thirdparty', 'private'] as CorpusName[]) {
  const asked = [...firsts.values()].filter((f) => f.corpus === corpus);
  if (!asked.length) continue;
  const questions = new Map(loopQuestions(corpus).map((q) => [q.id, q]));
  const { deps, tokens, caller, connect, close } = await benchWorld({ BINDERY_TOOL_MODE: 'lazy' });
  const ids = new Map<string, string>();
  for (const f of loadCorpus(corpus).files) {
    const out = await importDocument(deps, caller, { sourcePath: f.path, bytes: new TextEncoder().encode(f.text) });
    if (out.status !== 'skipped') ids.set(f.path, out.id);
  }
  const client = await connect('replay', 'lazy');
  const tally = { tune: [0, 0, 0], heldout: [0, 0, 0] } as Record<string, number[]>;
  for (const a of asked.sort((x, y) => x.qid.localeCompare(y.qid))) {
    const q = questions.get(a.qid);
    if (!q || (half && q.half !== half)) continue;
    const r = (await client.callTool({ name: 'search_bindings', arguments: a.args })) as { content?: { type: string; text?: string }[] };
    const text = (r.content ?? []).map((c) => c.text ?? '').join('\n');
    const target = ids.get(q.file);
    const ok = !!target && text.includes(shortId(target)) && isRight(q, text);
    const t = tally[q.half]!;
    t[0]!++;
    if (ok) t[1]!++;
    t[2]! += tokens.count(JSON.stringify(a.args)) + tokens.count(text);
    if (verbose && !ok)
      console.log(
        `MISS ${a.qid} ${JSON.stringify(a.args)}\n  want ${q.answer} in ${q.file} (${target && text.includes(shortId(target)) ? 'shown, other passage' : 'not shown'})\n  ${text.trim().replace(/\n/g, '\n  ')}`,
      );
  }
  for (const [h, [n, ok, tok]] of Object.entries(tally)) {
    if (n)
      console.log(
        `${corpus} ${h}: ${ok}/${n} first calls show the answer (${((100 * ok!) / n!).toFixed(1)} %), ${(tok! / n!).toFixed(0)} tokens a call`,
      );
  }
  await client.close();
  close();
}
