// `bindery measure`: Bindery in-process, @modelcontextprotocol/server-memory over stdio (checked
// against an independent count of its raw tools/list), and commands that are not MCP servers.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { createRegistry, DEFAULT_CONFIG } from '../../core/index.ts';
import type { MeasureReport } from '../../core/footprint/measure.ts';

const root = join(import.meta.dir, '..', '..');
const memoryBin = join(root, 'node_modules', '.bin', 'mcp-server-memory');
const MEMORY_TOOLS = [
  'create_entities',
  'create_relations',
  'add_observations',
  'delete_entities',
  'delete_observations',
  'delete_relations',
  'read_graph',
  'search_nodes',
  'open_nodes',
];
const dir = mkdtempSync(join(tmpdir(), 'bindery-measure-'));
const env = { ...process.env, MEMORY_FILE_PATH: join(dir, 'memory.jsonl') };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function measure(...args: string[]) {
  const started = performance.now();
  const proc = Bun.spawn(['bun', 'adapters/cli.ts', 'measure', ...args], { cwd: root, env, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err, ms: performance.now() - started };
}

/** server-memory's tools/list exactly as it went over the wire, counted by a second tokenizer. */
async function independentMemoryCounts(): Promise<Map<string, number>> {
  const transport = new StdioClientTransport({ command: memoryBin, env: env as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'independent', version: '1' });
  await client.connect(transport);
  const raw: { name: string }[] = [];
  const deliver = transport.onmessage!;
  transport.onmessage = (m: JSONRPCMessage) => {
    const tools = (m as { result?: { tools?: { name: string }[] } }).result?.tools;
    if (tools) raw.push(...tools);
    deliver(m);
  };
  await client.listTools();
  await client.close();
  return new Map(raw.map((t) => [t.name, encode(JSON.stringify(t)).length]));
}

describe('measure another MCP server', () => {
  test('server-memory: its 9 tools with token counts, percentages, total and mode costs', async () => {
    const r = await measure('--', memoryBin);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('# Tool definition footprint: memory-server');
    // Model-visible tokens (name, description, input schema) first, then the whole entry.
    for (const name of MEMORY_TOOLS)
      expect(r.out).toMatch(new RegExp(`\\| ${name} \\| memory-server \\| \\d+ \\| \\d+ \\| \\d+\\.\\d\\d \\|`));
    expect(r.out).toContain('9 tools');
    expect(r.out).toMatch(/\| lazy \| \d+ \| \d+ \| −\d+\.\d% \| search_tools \|/);
    expect(r.out).toMatch(/\| proxy \| [\d,]+ \| [\d,]+ \| [−+]\d+\.\d% \| list_tool_categories, search_tools, invoke_tool \|/);
    expect(r.out).toContain('Largest: ');
  });

  test('--json: counts equal an independent recount of the raw tools/list', async () => {
    const [r, independent] = await Promise.all([measure('--json', '--', memoryBin), independentMemoryCounts()]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as MeasureReport;
    expect(report.toolCount).toBe(9);
    expect(report.tools.map((t) => t.name).sort()).toEqual([...MEMORY_TOOLS].sort());
    for (const t of report.tools) expect(t.tokens).toBe(independent.get(t.name)!);
    expect(report.totalTokens).toBe(report.tools.reduce((n, t) => n + t.tokens, 0));
    expect(report.categories).toEqual([{ category: 'memory-server', tools: 9, tokens: report.totalTokens, percent: 100 }]);
    expect(report.largest[0]!.tokens).toBe(Math.max(...report.tools.map((t) => t.tokens)));
    expect(report.modes.eager.tokens).toBe(report.totalTokens);
    expect(report.modes.lazy.tools).toEqual(['search_tools']);
  });
});

describe('measure Bindery itself (no command)', () => {
  test('every real tool by category; lazy = the always-listed set; proxy = the proxy tools and help', async () => {
    const r = await measure('--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as MeasureReport;
    const real = createRegistry().all.filter((t) => t.category !== 'proxy');
    expect(report.server?.name).toBe('bindery');
    expect(report.tools.map((t) => t.name)).toEqual(real.map((t) => t.name));
    expect(report.categories.reduce((n, c) => n + c.tokens, 0)).toBe(report.totalTokens);
    expect(report.modes.lazy.tools.sort()).toEqual(DEFAULT_CONFIG.alwaysTools.filter((n) => real.some((t) => t.name === n)).sort());
    expect(report.modes.proxy.tools.slice(0, 3)).toEqual(['list_tool_categories', 'search_tools', 'invoke_tool']);
    expect(report.modes.lazy.tokens).toBeLessThan(report.totalTokens / 2);
    const table = await measure();
    expect(table.code).toBe(0);
    expect(table.out).toContain('| binding | 7 |');
  });
});

describe('commands that are not MCP servers', () => {
  test('exits at once after printing text: a clear message, exit 1', async () => {
    const r = await measure('--', 'bun', '-e', 'console.log("hello, not json")');
    expect(r.code).toBe(1);
    expect(r.err).toContain('exited before');
    expect(r.err).toContain('not JSON-RPC');
    expect(r.out).toBe('');
  });

  test('exits with an error: the message carries its stderr', async () => {
    const r = await measure('--', 'bun', '-e', 'console.error("boom: no config"); process.exit(3)');
    expect(r.code).toBe(1);
    expect(r.err).toContain('exited before');
    expect(r.err).toContain('boom: no config');
  });

  test('never answers: a time-out with a clear message', async () => {
    const r = await measure('--timeout', '1', '--', 'sleep', '30');
    expect(r.code).toBe(1);
    expect(r.err).toContain('did not answer within 1 s');
    expect(r.ms).toBeLessThan(8_000);
  });

  test('floods stdout with non-JSON: stopped early as not an MCP server', async () => {
    const r = await measure('--timeout', '10', '--', 'yes');
    expect(r.code).toBe(1);
    expect(r.err).toContain('is not an MCP server');
    expect(r.ms).toBeLessThan(8_000);
  });

  test('a command that does not exist, and bad options', async () => {
    const missing = await measure('--', join(dir, 'no-such-command'));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('no-such-command');
    expect((await measure('--timeout', 'soon')).code).toBe(2);
    expect((await measure('--')).code).toBe(2);
    expect((await measure('--frob')).code).toBe(2);
  });
});
