// Every tool's listed input and output schema uses only forms portable clients accept: MCP Inspector
// `--strict` warns about a `type` array (zod's nullable) and an empty `additionalProperties: {}` (or
// any schema that constrains nothing). The walk is over what `tools/list` sends; then the Inspector
// CLI itself (a devDependency) is run in --strict mode against the real stdio server.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_TOOLS } from '../../core/tools/registry.ts';
import { leanListEntry, toolListEntry } from '../../core/tools/listing.ts';
import { REPO } from '../stdio-client.ts';

/** Paths of non-portable forms in a JSON Schema. */
function problems(node: unknown, path: string, out: string[]): string[] {
  if (Array.isArray(node)) {
    node.forEach((n, i) => problems(n, `${path}[${i}]`, out));
    return out;
  }
  if (!node || typeof node !== 'object') return out;
  const schema = node as Record<string, unknown>;
  if (Array.isArray(schema.type)) out.push(`${path}.type is an array`);
  for (const [key, value] of Object.entries(schema)) {
    // Keyword maps (properties, definitions) hold schemas under any name; everything else is walked as is.
    if (key === 'properties' || key === '$defs' || key === 'definitions') {
      for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
        if (sub && typeof sub === 'object' && Object.keys(sub).length === 0) out.push(`${path}.${key}.${name} is {}`);
        problems(sub, `${path}.${key}.${name}`, out);
      }
      continue;
    }
    if (key === 'additionalProperties' && value && typeof value === 'object' && Object.keys(value).length === 0)
      out.push(`${path}.additionalProperties is {}`);
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
    problems(value, `${path}.${key}`, out);
  }
  return out;
}

describe('listed schemas are portable', () => {
  test('no type arrays and no empty schemas in any input or output schema', () => {
    expect(ALL_TOOLS.length).toBeGreaterThanOrEqual(31);
    const found: string[] = [];
    for (const tool of ALL_TOOLS) {
      const entry = toolListEntry(tool);
      problems(entry.inputSchema, `${tool.name}.inputSchema`, found);
      problems(entry.outputSchema, `${tool.name}.outputSchema`, found);
      // The lean listing lazy mode shows for an always-listed tool.
      problems(leanListEntry(tool).inputSchema, `${tool.name}.inputSchema (lean)`, found);
    }
    expect(found).toEqual([]);
  });

  test('the walker does find both forms (it is not vacuous)', () => {
    expect(problems({ type: 'object', properties: { a: { type: ['string', 'null'] }, b: {} }, additionalProperties: {} }, 's', [])).toEqual(
      ['s.properties.a.type is an array', 's.properties.b is {}', 's.additionalProperties is {}'],
    );
  });

  test.each([
    ['eager', 29],
    ['lazy', 3],
  ])(
    'MCP Inspector CLI --strict reports 0 warnings against the stdio server (%s)',
    async (mode, count) => {
      const dir = mkdtempSync(join(tmpdir(), 'bindery-inspector-'));
      try {
        const bin = join(REPO, 'node_modules', '.bin', 'mcp-inspector');
        const proc = Bun.spawn(
          [
            bin,
            '--cli',
            '--strict',
            '--method',
            'tools/list',
            '-e',
            `BINDERY_DB_URL=file:${join(dir, 'x.db')}`,
            '-e',
            `BINDERY_TOOL_MODE=${mode}`,
            '--cwd',
            REPO,
            process.execPath,
            'adapters/stdio.ts',
          ],
          { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir }, stdout: 'pipe', stderr: 'pipe' },
        );
        const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
        expect({ code, stderr: stderr.split('\n').filter((l) => !l.startsWith('[bindery]') && l.trim()) }).toEqual({ code: 0, stderr: [] });
        const listed = JSON.parse(stdout) as { tools: { name: string }[] };
        expect(listed.tools).toHaveLength(count);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
