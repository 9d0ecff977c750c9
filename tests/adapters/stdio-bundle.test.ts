// The pre-built stdio server (scripts/build-stdio.ts → dist/stdio/, what `bindery stdio` runs while it
// matches the sources): built here into a scratch folder, it serves a real client over stdio exactly as
// the sources do (same tools, same answers, the tokenizer's worker included), and says it is pre-built.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BundleManifest, STDIO_BUNDLE } from '../../adapters/stdio-bundle.ts';
import { buildStdioBundle } from '../../scripts/build-stdio.ts';
import { REPO, startStdioServer } from '../stdio-client.ts';

let out: string;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'bindery-stdio-bundle-'));
  await buildStdioBundle(out);
}, 60_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** What a client sees of a server: its tools, a search and a write, with the response token counts. */
async function session(entry?: string, env: Record<string, string> = {}) {
  const server = await startStdioServer({ entry, env });
  try {
    const tools = (await server.client.listTools()).tools.map((t) => ({ name: t.name, description: t.description, input: t.inputSchema }));
    const search = await server.client.callTool({ name: 'search_bindings', arguments: { query: 'getting started' } });
    const made = await server.client.callTool({
      name: 'create_binding',
      arguments: { name: 'Counted', content: 'Budgets decide. '.repeat(40), summary: 'A counted note.' },
    });
    return {
      tools,
      search: search.content,
      tokens: (made.structuredContent as { binding: { contentTokenCount: number } }).binding.contentTokenCount,
      stderr: server.stderr(),
    };
  } finally {
    await server.close();
  }
}

describe('the pre-built stdio server', () => {
  test('the build writes the bundle, its bytecode and a manifest of the repository files it read', () => {
    for (const file of [STDIO_BUNDLE.file, `${STDIO_BUNDLE.file}.jsc`, STDIO_BUNDLE.manifest])
      expect(existsSync(join(out, file))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(out, STDIO_BUNDLE.manifest), 'utf8')) as BundleManifest;
    expect(manifest.bun).toBe(Bun.version);
    expect(manifest.root).toBe(REPO.replace(/\/$/, ''));
    for (const file of ['adapters/stdio.ts', 'core/server.ts', 'db/migrate.ts', 'package.json', 'bun.lock'])
      expect(Object.keys(manifest.files)).toContain(file);
    expect(Object.keys(manifest.files).filter((f) => f.includes('node_modules'))).toEqual([]);
  });

  test('serves the same tools and answers as the sources, with the worker on and off, and says it is pre-built', async () => {
    const sources = await session();
    for (const thread of ['1', '0']) {
      const bundled = await session(join(out, STDIO_BUNDLE.file), { BINDERY_TOKENIZER_THREAD: thread });
      expect(bundled.stderr).toContain('o200k_base, pre-built)');
      expect(bundled.tools).toEqual(sources.tools);
      expect(bundled.search).toEqual(sources.search);
      expect(bundled.tokens).toBe(sources.tokens);
    }
    expect(sources.stderr).not.toContain('pre-built');
  }, 60_000);
});
