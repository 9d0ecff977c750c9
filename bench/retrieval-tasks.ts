// Retrieval tasks for the retrieval benchmark (bench/retrieval.bench.ts), built from third-party Markdown only (nothing we wrote):
// a distinctive phrase from the second half of one long document, unique in the whole corpus, and a
// keyword query an agent would type for it (its content words, not the phrase itself).
import { markdownCorpus } from './corpus.ts';

export interface CorpusDoc {
  path: string;
  text: string;
}

export interface RetrievalTask {
  /** Index of the document in the corpus it was built from. */
  doc: number;
  path: string;
  /** Six words exactly as written on one line of the document. */
  phrase: string;
  /** 3–5 content words of the phrase, in its order. */
  query: string;
  docTokens: number;
  /** Where the phrase starts, as a fraction of the document's tokens (≥ 0.5). */
  depth: number;
}

/** Tokenizer as the builder needs it (js-tiktoken's encode/decode). */
export interface Encoder {
  encode(text: string, allowed?: string[], disallowed?: string[]): number[];
  decode(tokens: number[]): string;
}

const STOP = new Set(
  'a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its may might more most must no not of on one or our she should so some such than that the their them then there these they this those to too up us use used using was we were what when where which while who will with would you your also any all each other only over same very just like make makes'.split(
    ' ',
  ),
);

// Six words of letters on one line, single-spaced: it survives Markdown rendering, JSON escaping and
// whitespace folding unchanged, so "the phrase appears in what the agent loaded" is a plain test.
const PHRASE = /(?<![\p{L}\p{N}_`'.\/-])(?:[A-Za-z]{2,} ){5}[A-Za-z]{2,}(?![\p{L}\p{N}_`'\/-])/gu;

/** Lower-case, whitespace folded: the form phrases are compared in. */
export function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ');
}

/** The query for a phrase: its content words (no stop words, 3+ letters), deduplicated, at most five. */
export function queryFor(phrase: string): string | null {
  const words = [...new Set(phrase.split(' ').filter((w) => w.length >= 3 && !STOP.has(w.toLowerCase())))].slice(0, 5);
  return words.length >= 3 ? words.join(' ') : null;
}

/** Prose lines with their offsets: fenced code, headings, tables, HTML/JSX and MDX imports are left out. */
function proseLines(text: string): { at: number; line: string }[] {
  const out: { at: number; line: string }[] = [];
  let fence: string | null = null;
  let at = 0;
  for (const line of text.split('\n')) {
    const start = at;
    at += line.length + 1;
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence[0]) fence = null;
      continue;
    }
    if (f) {
      fence = f[1]!;
      continue;
    }
    if (/^\s*(#|\||<|>|import |export |    |\t)/.test(line)) continue;
    out.push({ at: start, line });
  }
  return out;
}

// FNV-1a: a stable spread of picks across candidates, the same on every run, machine and checkout.
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function occurrences(haystack: string, needle: string, stopAt: number): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0 && n < stopAt; i = haystack.indexOf(needle, i + 1)) n++;
  return n;
}

/** In how many documents each lower-cased word occurs. */
function documentFrequency(texts: string[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const text of texts) for (const w of new Set(text.match(/[a-z]+/g) ?? [])) df.set(w, (df.get(w) ?? 0) + 1);
  return df;
}

/**
 * Builds up to `count` tasks from `docs` (documents of at least `minTokens`, picked evenly across the
 * eligible ones in path order); each phrase occurs exactly once across `universe` (default: `docs`) and
 * is distinctive: at least two of its query words occur in at most 2 % of the universe's documents.
 */
export function buildRetrievalTasks(
  docs: CorpusDoc[],
  enc: Encoder,
  opts: { count: number; minTokens: number; universe?: CorpusDoc[] },
): RetrievalTask[] {
  const universe = (opts.universe ?? docs).map((d) => normalize(d.text));
  const df = documentFrequency(universe);
  const rare = Math.max(2, Math.floor(universe.length * 0.02));
  const eligible: RetrievalTask[] = [];
  docs.forEach((d, doc) => {
    if (d.text.length < opts.minTokens * 2) return; // cheap pre-filter: fewer than 2 chars per token never happens in prose
    const tokens = enc.encode(d.text, [], []);
    if (tokens.length < opts.minTokens) return;
    const half = enc.decode(tokens.slice(0, Math.ceil(tokens.length / 2))).length;
    const candidates: { at: number; phrase: string }[] = [];
    for (const { at, line } of proseLines(d.text)) {
      if (at + line.length < half) continue;
      for (const m of line.matchAll(PHRASE)) {
        // Inside inline code (an odd number of backticks before it) the words are not prose.
        if (at + m.index! >= half && (line.slice(0, m.index).split('`').length - 1) % 2 === 0)
          candidates.push({ at: at + m.index!, phrase: m[0] });
      }
    }
    // Hashed from node_modules down, not the absolute path: a checkout elsewhere picks the same tasks.
    const under = d.path.indexOf('node_modules/');
    const first = candidates.length ? hash(under < 0 ? d.path : d.path.slice(under)) % candidates.length : 0;
    for (let k = 0; k < candidates.length; k++) {
      const c = candidates[(first + k) % candidates.length]!;
      const query = queryFor(c.phrase);
      if (!query || query.split(' ').filter((w) => (df.get(w.toLowerCase()) ?? 0) <= rare).length < 2) continue;
      const needle = normalize(c.phrase);
      let total = 0;
      for (const text of universe) if ((total += occurrences(text, needle, 2)) > 1) break;
      if (total !== 1) continue;
      const depth = enc.encode(d.text.slice(0, c.at), [], []).length / tokens.length;
      eligible.push({ doc, path: d.path, phrase: c.phrase, query, docTokens: tokens.length, depth });
      break;
    }
  });
  const n = Math.min(opts.count, eligible.length);
  return Array.from({ length: n }, (_, i) => eligible[Math.floor((i * eligible.length) / n)]!);
}

/** The benchmark's documents: third-party .md files (the agents' corpus) and .mdx pages evenly picked to pad it to `total`. */
export function retrievalCorpus(total: number): { docs: CorpusDoc[]; padding: CorpusDoc[] } {
  const docs = markdownCorpus({ skipBoilerplate: true });
  const known = new Set(docs.map((d) => d.text));
  const extra = markdownCorpus({ skipBoilerplate: true, mdx: true }).filter((d) => !known.has(d.text));
  const want = Math.max(0, Math.min(extra.length, total - docs.length));
  const padding = Array.from({ length: want }, (_, i) => extra[Math.floor((i * extra.length) / want)]!);
  return { docs, padding };
}
