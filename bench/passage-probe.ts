// A look at search as a model sees it: ten everyday questions of our own, asked through a
// real MCP Client against the third-party READMEs the everyday bench imports. For each question it
// prints the default (passage) response with its exact token count, the tier-1 response's count for
// comparison, and the section read a model would make next (get_binding {id, section}) with its count.
// Read the outputs and judge whether they answer. Run: bun bench/passage-probe.ts [--tier1] (prints tier-1 text too).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { everydayWorld } from './everyday.bench.ts';

/** Written before any output was read; the package whose README answers, for the "target shown" column. */
const QUESTIONS: [question: string, pkg: string][] = [
  ['how do I make text bold red in the terminal', 'chalk'],
  ['allow requests from another website origin to my express server', 'cors'],
  ['limit how many requests one IP address can make', 'express-rate-limit'],
  ['turn on debug logging output for just one module', 'debug'],
  ['watch a folder for file changes and get notified', 'chokidar'],
  ['add a command line option with a default value', 'commander'],
  ['parse a cookie header string into an object', 'cookie'],
  ['escape special characters before putting a string in a regular expression', 'escape-string-regexp'],
  ['compare two strings line by line and show what changed', 'diff'],
  ['validate email and date formats in a JSON schema', 'ajv-formats'],
];

const world = await everydayWorld();
const client = await world.client();
const showTier1 = process.argv.includes('--tier1');
const byId = new Map([...world.ids].map(([path, id]) => [id, path]));

async function run(name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  const tokens = (r._meta as { context: { response: { tokens: number } } }).context.response.tokens;
  return { r, text, tokens };
}

const totals = { passage: 0, tier1: 0, read: 0, shown: 0 };
for (const [question, pkg] of QUESTIONS) {
  const p = await run('search_bindings', { query: question });
  const t1 = await run('search_bindings', { query: question, tier: '1', limit: 5 });
  const hits = (p.r.structuredContent as { results: { id: string; match?: { section: string } }[] }).results ?? [];
  const shown = hits.some(
    (h) =>
      (byId.get(h.id) ?? '')
        .split('/')
        .slice(0, pkg.startsWith('@') ? 2 : 1)
        .join('/') === pkg,
  );
  totals.passage += p.tokens;
  totals.tier1 += t1.tokens;
  totals.shown += shown ? 1 : 0;
  console.log(`\n=== ${question}  [${pkg}${shown ? ', shown' : ', NOT shown'}]`);
  console.log(`--- passage (default): ${p.tokens} tokens`);
  console.log(p.text.trimEnd());
  console.log(`--- tier 1 limit 5: ${t1.tokens} tokens`);
  if (showTier1) console.log(t1.text.trimEnd());
  const top = hits[0];
  if (top?.match) {
    const read = await run('get_binding', { id: top.id, section: top.match.section });
    totals.read += read.tokens;
    console.log(`--- get_binding {id, section: "${top.match.section}"}: ${read.tokens} tokens`);
  }
}
const n = QUESTIONS.length;
console.log(
  `\nmean per question: passage ${Math.round(totals.passage / n)} tokens, tier 1 (limit 5) ${Math.round(totals.tier1 / n)}, section read of the first hit ${Math.round(totals.read / n)}; target shown by the passage call ${totals.shown}/${n}`,
);
await client.close();
world.close();
