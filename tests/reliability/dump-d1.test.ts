// `bindery dump --sql` on Cloudflare D1 (miniflare): the SQL applied the way `wrangler d1 execute
// --file` applies it locally (split into statements outside quotes and comments, run as one batch),
// then everything read back through the edge handler, authenticated with a key from the source.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createDatabase, migrate } from '../../db/index.ts';
import { createD1Database } from '../../db/client-web.ts';
import { dumpSql } from '../../db/dump/sql.ts';
import { createFetchHandler } from '../../adapters/edge.ts';
import { ok } from '../helpers.ts';
import { independentCount } from '../../support/procs.ts';
import { buildDumpWorld, LONG_CONTENT, type DumpWorld } from '../db/dump-world.ts';

const dir = mkdtempSync(join(tmpdir(), 'bindery-dump-d1-'));
let mf: { dispose(): Promise<void> };
let d1: { prepare(sql: string): unknown; batch(stmts: unknown[]): Promise<unknown> };
let world: DumpWorld;
let text = '';

/** Statements of a SQL file, split at `;` outside quotes and `--` comments (as wrangler splits a --file). */
function splitSql(sql: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote = false;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    if (!quote && ch === '-' && sql[i + 1] === '-' && cur.trim() === '') {
      i = sql.indexOf('\n', i);
      if (i < 0) break;
      continue;
    }
    if (ch === "'") quote = !quote;
    if (!quote && ch === ';') {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

beforeAll(async () => {
  world = await buildDumpWorld(join(dir, 'source.db'));
  const source = createDatabase({ url: world.url });
  for await (const chunk of dumpSql(source.client)) text += chunk;
  source.close();
  const { Miniflare } = await import('miniflare');
  const instance = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response() }',
    d1Databases: ['DB'],
    compatibilityDate: '2025-09-01',
  });
  mf = instance;
  d1 = (await instance.getD1Database('DB')) as never;
}, 60_000);

afterAll(async () => {
  await mf?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('dump --sql on D1', () => {
  test('applies as wrangler applies a file, and the edge handler reads everything back', async () => {
    const db = createD1Database(d1 as never);
    await migrate(db);
    const statements = splitSql(text);
    // D1 caps one statement at 100 KB: long texts were appended in chunks.
    expect(Math.max(...statements.map((s) => new TextEncoder().encode(s).length))).toBeLessThan(100_000);
    expect(statements.some((s) => /^UPDATE "versions" SET "content" = "content" \|\|/.test(s))).toBe(true);
    expect(statements.some((s) => /^(BEGIN|COMMIT)/i.test(s))).toBe(false);
    await d1.batch(statements.map((s) => d1.prepare(s)));

    const handler = createFetchHandler({ env: { BINDERY_PUBLIC_URL: 'http://kb.test', BINDERY_TOOL_MODE: 'eager' }, database: () => db });
    const client = new Client({ name: 'd1-reader', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://kb.test/mcp'), {
        fetch: (url, init) => handler(new Request(url, init)),
        requestInit: { headers: { Authorization: `Bearer ${world.key}` } },
      }),
    );
    const mine = [
      ...(await ok(client, 'list_bindings', { space: '@alice', limit: 50 })).results,
      ...(await ok(client, 'list_bindings', { space: '@team-docs', limit: 50 })).results,
    ];
    expect(mine.map((b: { name: string }) => b.name).sort()).toEqual([
      'Fixture note 1',
      'Fixture note 2',
      'Fixture note 3',
      'Fixture note 4',
      'Fixture note 5',
      'Long document',
    ]);
    // The long text (dozens of appended chunks) is whole: its exact count, a section, the stored row.
    expect((await ok(client, 'get_binding', { id: world.longId, tier: '1' })).binding.contentTokenCount).toBe(
      await independentCount(LONG_CONTENT),
    );
    expect((await ok(client, 'get_binding', { id: world.longId, section: 'part-899' })).binding.section.content).toStartWith('## Part 899');
    const stored = await db.all<{ content: string }>(`SELECT content FROM versions WHERE binding_id = '${world.longId}'` as never);
    expect(stored[0]!.content).toBe(LONG_CONTENT);
    const first = mine.find((b: { name: string }) => b.name === 'Fixture note 1')!;
    expect((await ok(client, 'list_versions', { id: first.id })).versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    expect((await ok(client, 'list_comments', { id: first.id })).comments).toHaveLength(2);
    const sets = (await ok(client, 'list_sets', {})).sets;
    expect((await ok(client, 'get_set', { id: sets[0].id })).items.filter((i: { pinned: boolean }) => i.pinned)).toHaveLength(1);
    // The index was written by the SQL itself: search answers at once, headings included.
    expect((await ok(client, 'search_bindings', { query: 'zebra', limit: 50 })).results.map((r: { name: string }) => r.name)).toContain(
      'Long document',
    );
    expect(
      (await ok(client, 'search_bindings', { query: 'Second version', limit: 50 })).results.map((r: { id: string }) => r.id),
    ).toContain(first.id);
    const fts = (await db.all<{ n: number }>(`SELECT count(*) AS n FROM bindings_fts` as never))[0]!;
    expect(Number(fts.n)).toBe(6);
    await client.close();
  }, 60_000);
});
