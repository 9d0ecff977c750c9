// Mixed load (tests/reliability/multi-process.test.ts is its bounded test): `bun run serve` in its own process on an embedded file, 16 MCP clients over
// HTTP sessions reading and writing for 60 s (BINDERY_BENCH_MIXED_SECONDS), while `bindery import`
// runs beside it on the same file again and again. Errors on either side (goal 0), latency p50/p99,
// the server's RSS before and after.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cli, cliChild, createKey, httpClient, startServer, writeCorpus } from '../support/procs.ts';
import { percentiles, round, type BenchSection } from './types.ts';

const CLIENTS = 16;
const SECONDS = Number(process.env.BINDERY_BENCH_MIXED_SECONDS ?? 60);

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? round(Number(m[1]) / 1024, 1) : NaN;
}

export async function run(): Promise<BenchSection> {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-bench-mixed-'));
  try {
    const env = { BINDERY_DB_URL: `file:${join(dir, 'mixed.db')}`, BINDERY_HTTP_MAX_SESSIONS_PER_KEY: '64' };
    const key = await createKey(env, 'alice');
    const server = await startServer(env);
    const corpus = join(dir, 'corpus');
    writeCorpus(corpus, 1000, 'mixed');
    const rssBefore = rssMiB(server.proc.pid);
    const deadline = Date.now() + SECONDS * 1000;
    const latencies: number[] = [];
    const errors: string[] = [];
    let writes = 0;
    let imports = 0;
    let importErrors = 0;

    const importer = (async () => {
      for (let round = 0; Date.now() < deadline; round++) {
        // Each round re-imports the corpus with a changed file set, so it keeps writing.
        writeCorpus(corpus, 50, `mixed-r${round}`);
        const child = cliChild(['import', corpus], { ...env, BINDERY_USER: 'bob' });
        const [, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
        if ((await child.exited) !== 0 || /BUSY|locked|error/i.test(stderr)) importErrors++;
        imports++;
      }
    })();
    const client = async (c: number) => {
      const mcp = await httpClient(server.url, key, `mixed-${c}`);
      let mine: string | undefined;
      for (let i = 0; Date.now() < deadline; i++) {
        const started = performance.now();
        const write = !mine || i % 4 === 0;
        const args = !mine
          ? { name: 'create_binding', arguments: { name: `client ${c}`, content: `# c${c}\n`, summary: `Client ${c}.` } }
          : write
            ? { name: 'update_binding', arguments: { id: mine, content: `# c${c}\n\nround ${i}\n` } }
            : i % 4 === 1
              ? { name: 'get_binding', arguments: { id: mine, tier: '2' } }
              : i % 4 === 2
                ? { name: 'search_bindings', arguments: { query: 'shared words', limit: 5 } }
                : { name: 'list_bindings', arguments: { limit: 10 } };
        try {
          const r = (await mcp.callTool(args)) as CallToolResult;
          latencies.push(performance.now() - started);
          if (r.isError) errors.push((r.content[0] as { text: string }).text.slice(0, 120));
          if (write) writes++;
          const s = r.structuredContent as { binding?: { id: string } } | undefined;
          if (!mine && s?.binding) mine = s.binding.id;
        } catch (err) {
          errors.push(String(err).slice(0, 120));
        }
      }
      await mcp.close();
    };
    await Promise.all([importer, ...Array.from({ length: CLIENTS }, (_, c) => client(c))]);
    const rssAfter = rssMiB(server.proc.pid);
    const keysOk = (await cli(['keys', 'list'], env)).code === 0;
    await server.stop();
    const p = percentiles(latencies);
    if (errors.length) process.stderr.write(`bench mixed: first errors: ${errors.slice(0, 3).join(' | ')}\n`);
    return {
      title: `mixed load (${CLIENTS} HTTP sessions, ${SECONDS} s, import beside)`,
      rows: [
        { metric: 'tool calls', value: latencies.length },
        { metric: 'of which writes', value: writes },
        { metric: 'import runs beside (each 1,000+ files)', value: imports },
        {
          metric: 'errors (clients + import + CLI)',
          value: errors.length + importErrors + (keysOk ? 0 : 1),
          goal: '0',
          met: errors.length + importErrors === 0 && keysOk,
        },
        { metric: 'latency p50', value: round(p.p50), unit: 'ms' },
        { metric: 'latency p99', value: round(p.p99), unit: 'ms' },
        { metric: 'server RSS before → after', value: `${rssBefore} → ${rssAfter}`, unit: 'MiB' },
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
