// The grep agent's one command, over the same corpus files as Bindery's:
//   bun bench/loop/grep-read.ts --list-tools                  the two tool definitions (fixed text, counted)
//   bun bench/loop/grep-read.ts grep '<regex>' [--files]      matching lines as file:line:text, or file names
//   bun bench/loop/grep-read.ts read <file> <start> <end>     lines start..end of a file as line:text
//   bun bench/loop/grep-read.ts --answer '<text>'             records the final answer (not counted)
// Flags or env as bindery-call.ts: --corpus|LOOP_CORPUS, --log|LOOP_LOG, --qid|QID.
import { loadCorpus } from './corpus.ts';
import { main, parseOptions, recordAnswer, tokenCounter, writeLog } from './log.ts';

/** What the grep agent is given, in the form a client lists tools (name, description, input schema). */
export const GREP_READ_TOOLS = [
  {
    name: 'grep',
    description:
      'Case-insensitive regex search over all files. Prints file:line:text (50 lines, 200 chars each), or file names only with files.',
    inputSchema: { type: 'object', properties: { pattern: { type: 'string' }, files: { type: 'boolean' } }, required: ['pattern'] },
  },
  {
    name: 'read',
    description: 'Print lines start..end (1-based, ≤ 300) of a file as line:text.',
    inputSchema: {
      type: 'object',
      properties: { file: { type: 'string' }, start: { type: 'integer' }, end: { type: 'integer' } },
      required: ['file', 'start', 'end'],
    },
  },
];

const LINE_CHARS = 200;
const MAX_LINES = 50;
const MAX_FILES = 100;
const MAX_READ = 300;

function grep(files: { path: string; text: string }[], pattern: string, namesOnly: boolean): string {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'i');
  } catch (e) {
    return `error: pattern is not a valid regex (${e instanceof Error ? e.message : e})`;
  }
  const out: string[] = [];
  let lines = 0;
  let matchedFiles = 0;
  for (const f of files) {
    let hit = false;
    f.text.split('\n').forEach((text, i) => {
      if (!re.test(text)) return;
      hit = true;
      lines++;
      if (!namesOnly && lines <= MAX_LINES)
        out.push(`${f.path}:${i + 1}:${text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)}…` : text}`);
    });
    if (hit) {
      matchedFiles++;
      if (namesOnly && matchedFiles <= MAX_FILES) out.push(f.path);
    }
  }
  if (!matchedFiles) return '(no matches)';
  if (namesOnly && matchedFiles > MAX_FILES) out.push(`… ${matchedFiles - MAX_FILES} more files`);
  if (!namesOnly && lines > MAX_LINES) out.push(`… ${lines - MAX_LINES} more matching lines (${matchedFiles} files in all)`);
  return out.join('\n');
}

function read(files: { path: string; text: string }[], file: string, start: number, end: number): string {
  const f = files.find((x) => x.path === file.replace(/^\.\//, ''));
  if (!f) return `error: no file ${JSON.stringify(file)} (paths as grep prints them)`;
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start)
    return 'error: start and end must be whole numbers with 1 ≤ start ≤ end';
  const all = f.text.split('\n');
  const last = Math.min(end, all.length, start + MAX_READ - 1);
  if (start > all.length) return `error: ${file} has ${all.length} lines`;
  return (
    all
      .slice(start - 1, last)
      .map((t, i) => `${start + i}:${t}`)
      .join('\n') + (last < Math.min(end, all.length) ? `\n… cut at ${MAX_READ} lines` : '')
  );
}

main(async () => {
  const opts = parseOptions(process.argv.slice(2));
  const tokens = await tokenCounter();
  const [cmd, ...rest] = opts.rest;
  if (cmd === '--answer') return recordAnswer(opts, 'grep', rest.join(' '));
  if (cmd === '--list-tools') {
    const lines = GREP_READ_TOOLS.map((t) => JSON.stringify(t));
    const total = lines.reduce((n, l) => n + tokens.count(l), 0);
    process.stdout.write(`${lines.join('\n')}\n# 2 tools, ${total} model-visible tokens (o200k_base)\n`);
    writeLog(opts, 'grep', { kind: 'definitions', definitionsTokens: total, tool: 'grep,read' });
    return;
  }
  const corpus = loadCorpus(opts.corpus);
  let args: Record<string, unknown>;
  let text: string;
  if (cmd === 'grep') {
    const namesOnly = rest.includes('--files');
    const pattern = rest.filter((r) => r !== '--files')[0];
    if (pattern === undefined) throw new Error("usage: grep-read.ts grep '<regex>' [--files]");
    args = namesOnly ? { pattern, files: true } : { pattern };
    text = grep(corpus.files, pattern, namesOnly);
  } else if (cmd === 'read') {
    const [file, start, end] = rest;
    if (file === undefined || start === undefined || end === undefined) throw new Error('usage: grep-read.ts read <file> <start> <end>');
    args = { file, start: Number(start), end: Number(end) };
    text = read(corpus.files, file, Number(start), Number(end));
  } else throw new Error("usage: grep-read.ts --list-tools | grep '<regex>' [--files] | read <file> <start> <end>");
  process.stdout.write(`${text}\n`);
  writeLog(opts, 'grep', {
    kind: 'call',
    tool: cmd,
    args,
    argsTokens: tokens.count(JSON.stringify(args)),
    responseTokens: tokens.count(text),
    isError: text.startsWith('error:'),
  });
});
