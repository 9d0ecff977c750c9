// Several processes on one database file: a running `serve`, `bindery import` and `keys create` beside
// it, CLI commands with other settings, all under read and write load.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createDatabase } from '../../db/index.ts';
import {
  cli,
  cliChild,
  createKey,
  httpClient,
  independentCount,
  parts,
  startServer,
  writeCorpus,
  type ServerProc,
} from '../../support/procs.ts';

const dir = mkdtempSync(join(tmpdir(), 'bindery-multi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// CI runs a bounded version; BINDERY_FAULT_FILES raises it for a longer local run.
const FILES = Number(process.env.BINDERY_FAULT_FILES ?? 2000);

async function callOk(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

describe('one database, many processes', () => {
  let server: ServerProc | undefined;
  afterAll(async () => server?.stop());

  test(`an import of ${FILES} files and keys create beside a serving server under read and write load: 0 errors on either side`, async () => {
    const db = `file:${join(dir, 'shared.db')}`;
    const env = { BINDERY_DB_URL: db, BINDERY_PUBLIC_URL: 'http://127.0.0.1:8787' };
    const key = await createKey(env, 'alice');
    server = await startServer(env);
    const corpus = join(dir, 'corpus');
    writeCorpus(corpus, FILES);

    const errors: string[] = [];
    let calls = 0;
    let importing = true;
    const importer = cliChild(['import', corpus], { ...env, BINDERY_USER: 'bob' });
    const imported = (async () => {
      const [stdout, stderr] = await Promise.all([new Response(importer.stdout).text(), new Response(importer.stderr).text()]);
      const code = await importer.exited;
      importing = false;
      return { code, stdout, stderr };
    })();
    // Four clients read and write until the import ends; three `keys create` run beside them.
    const worker = async (w: number) => {
      const client = await httpClient(server!.url, key, `load-${w}`);
      let mine: string | undefined;
      let version = 0;
      for (let i = 0; importing || i < 5; i++) {
        const r = mine
          ? i % 3 === 0
            ? await callOk(client, 'update_binding', { id: mine, content: `# w${w}\n\nrevision ${i}\n`, expectedVersion: version })
            : await callOk(
                client,
                i % 3 === 1 ? 'get_binding' : 'search_bindings',
                i % 3 === 1 ? { id: mine, tier: '2' } : { query: `worker ${w}` },
              )
          : await callOk(client, 'create_binding', { name: `worker ${w}`, content: `# w${w}\n`, summary: `Worker ${w}.` });
        calls++;
        if (r.isError) errors.push(`${w}: ${(r.content[0] as { text: string }).text.slice(0, 200)}`);
        const s = r.structuredContent as { binding?: { id: string; version: number } } | undefined;
        if (s?.binding && !r.isError) [mine, version] = [s.binding.id, s.binding.version];
      }
      await client.close();
    };
    const keys = Promise.all([1, 2, 3].map((i) => cli(['keys', 'create', '--user', `k${i}`], env)));
    await Promise.all([0, 1, 2, 3].map(worker));
    const imp = await imported;
    const keyRuns = await keys;

    expect(errors).toEqual([]);
    expect(calls).toBeGreaterThan(20);
    expect(imp.stderr).not.toMatch(/BUSY|locked|error/i);
    expect(imp.code).toBe(0);
    expect(imp.stdout).toMatch(new RegExp(`${FILES} (created|new)`));
    for (const k of keyRuns) expect(k.code).toBe(0);
    expect(server.stderr()).not.toMatch(/SQLITE_BUSY|error:/);

    const check = createDatabase({ url: db });
    const bob = (
      await check.client.execute(
        "SELECT count(*) AS n FROM bindings JOIN spaces ON spaces.id = bindings.space_id WHERE spaces.slug = 'bob'",
      )
    ).rows[0]!;
    expect(Number(bob.n)).toBe(FILES);
    expect((await check.client.execute('PRAGMA integrity_check')).rows[0]![0]).toBe('ok');
    check.close();
  }, 240_000);

  test('CLI commands with another public URL or tokenizer beside the server: its counts and budgets stay exact', async () => {
    const db = `file:${join(dir, 'counts.db')}`;
    const env = { BINDERY_DB_URL: db, BINDERY_PUBLIC_URL: 'http://127.0.0.1:8787' };
    const key = await createKey(env, 'alice');
    const srv = await startServer(env);
    try {
      const client = await httpClient(srv.url, key);
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const r = await callOk(client, 'create_binding', {
          name: `doc ${i}`,
          content: `# Doc ${i}\n\n${'A paragraph of words. '.repeat(20 + i)}\n`,
          summary: `Document ${i}, a test of budgets.`,
          keyPoints: ['one', 'two'],
        });
        ids.push((r.structuredContent as { binding: { id: string } }).binding.id);
      }
      const set = (await callOk(client, 'create_set', { name: 'budget', bindingIds: ids })).structuredContent as { set: { id: string } };

      const exact = async () => {
        for (const maxTokens of [300, 900, 2400, 5000]) {
          for (const tier of ['1', '1.5', '2']) {
            const r = await callOk(client, 'get_set_context', { setId: set.set.id, maxTokens, tier });
            const { text, context } = parts(r);
            const real = await independentCount(text);
            expect(real).toBeLessThanOrEqual(maxTokens);
            expect(context.response.tokens).toBe(real);
          }
        }
        const one = parts(await callOk(client, 'get_binding', { id: ids[3], tier: '1' }));
        expect(one.context.response.tokens).toBe(await independentCount(one.text));
        expect(one.text).toContain('http://127.0.0.1:8787/@alice/');
      };
      await exact();
      // Any command with other settings: it reads, and rewrites nothing the server relies on.
      const other = {
        ...env,
        BINDERY_PUBLIC_URL: 'https://a-much-longer-public-address.example.org/knowledge/base',
        BINDERY_TOKENIZER: 'cl100k_base',
      };
      const before = await keysOf(db);
      expect((await cli(['keys', 'list'], other)).code).toBe(0);
      expect(await keysOf(db)).toEqual(before);
      await exact();
      // `bindery migrate` with other settings does recount, on purpose: the server still answers exactly.
      expect((await cli(['migrate'], other)).code).toBe(0);
      expect(await keysOf(db)).not.toEqual(before);
      await exact();
      // Another process writing with those settings: its rows carry its key; the server recounts them.
      const stdio = await cli(['import', join(dir, 'corpus')], { ...other, BINDERY_USER: 'alice' });
      expect(stdio.code).toBe(0);
      const found = parts(await callOk(client, 'search_bindings', { query: 'zqdoc7', tier: '1.5' }));
      expect(found.context.response.tokens).toBe(await independentCount(found.text));
      expect(found.text).toContain('http://127.0.0.1:8787/@alice/');
      await client.close();
    } finally {
      await srv.stop();
    }
  }, 240_000);

  test('budget fuzz while other processes write and recount beside the server: 0 over budget, 0 _meta mismatches', async () => {
    const db = `file:${join(dir, 'fuzz.db')}`;
    const env = { BINDERY_DB_URL: db };
    const key = await createKey(env, 'erin');
    const srv = await startServer(env);
    try {
      const client = await httpClient(srv.url, key);
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const body = `# Fuzz ${i}\n\n${'Ünïcode, 日本語, emoji 🦓 and words. '.repeat(5 + ((i * 7) % 60))}\n`;
        const r = await callOk(client, 'create_binding', {
          name: `fuzz ${i}`,
          content: body,
          summary: `Fuzz document ${i}.`,
          keyPoints: [`kp ${i}`],
        });
        ids.push((r.structuredContent as { binding: { id: string } }).binding.id);
      }
      const set = ((await callOk(client, 'create_set', { name: 'fuzz', bindingIds: ids })).structuredContent as { set: { id: string } }).set
        .id;
      let beside = true;
      // Beside the server: upkeep under other settings, and an import writing with them, in turns.
      const others = (async () => {
        const configs = [
          { BINDERY_TOKENIZER: 'cl100k_base', BINDERY_PUBLIC_URL: 'https://elsewhere.example/kb' },
          { BINDERY_TOKENIZER: 'o200k_base', BINDERY_PUBLIC_URL: 'http://x.example' },
        ];
        for (let i = 0; beside; i++) {
          await cli(['migrate'], { ...env, ...configs[i % 2]! });
          await cli(['import', join(dir, 'corpus')], { ...env, ...configs[(i + 1) % 2]!, BINDERY_USER: 'erin' });
        }
      })();
      let over = 0;
      let mismatches = 0;
      let calls = 0;
      const until = Date.now() + 12_000;
      for (let i = 0; Date.now() < until; i++) {
        const maxTokens = 60 + Math.floor(Math.random() * 6000);
        const tier = ['1', '1.5', '2'][i % 3]!;
        const call =
          i % 3 === 0
            ? callOk(client, 'get_set_context', { setId: set, maxTokens, tier, strategy: i % 2 ? 'fill' : 'ordered' })
            : i % 3 === 1
              ? callOk(client, 'get_bindings', { ids: ids.slice(i % 20, (i % 20) + 15), maxTokens, tier })
              : callOk(client, 'search_bindings', { query: 'words', maxTokens, tier, limit: 20 });
        const r = await call;
        if (r.isError) continue; // a budget below one card is refused with a clear error: no answer to check
        const { text, context } = parts(r);
        const real = await independentCount(text);
        calls++;
        if (real > maxTokens) over++;
        if (context.response.tokens !== real) mismatches++;
      }
      beside = false;
      await others;
      expect(calls).toBeGreaterThan(30);
      expect({ over, mismatches }).toEqual({ over: 0, mismatches: 0 });
      await client.close();
    } finally {
      await srv.stop();
    }
  }, 120_000);
});

async function keysOf(url: string): Promise<string[]> {
  const d = createDatabase({ url });
  const rows = (await d.client.execute('SELECT DISTINCT counts_key AS k FROM versions ORDER BY k')).rows.map((r) => String(r.k));
  d.close();
  return rows;
}
