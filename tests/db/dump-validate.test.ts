// A dump with one malformed value whose SHA-256 was recomputed (so the trailer
// matches) is refused before anything is committed, with the line, table and field; the database is
// left empty, takes the good dump next, and `serve` starts on it. Item 7's restore path: a version over
// the field limits is refused the same way.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, type Database } from '../../db/index.ts';
import { dumpLines } from '../../db/dump/write.ts';
import { linesOf } from '../../db/dump/read.ts';
import { restoreDump } from '../../db/dump/restore.ts';
import { DumpError } from '../../db/dump/format.ts';
import { restoredRowIssue } from '../../core/services/binding-fields.ts';
import { cli, startServer } from '../../support/procs.ts';
import { buildDumpWorld } from './dump-world.ts';

const dir = mkdtempSync(join(tmpdir(), 'bindery-dump-validate-'));
let dumped = '';
beforeAll(async () => {
  const world = await buildDumpWorld(join(dir, 'source.db'));
  const database = createDatabase({ url: world.url });
  for await (const chunk of dumpLines(database.client)) dumped += chunk;
  database.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The dump with one value of the `nth` row of `table` replaced, and its trailer re-signed (as an attacker or a bad tool would). */
function tampered(table: string, column: string, value: unknown, nth = 0): { text: string; line: number } {
  const lines = dumped.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`{"table":"${table}"`));
  const columns = JSON.parse(lines[start]!).columns as string[];
  const at = start + 1 + nth;
  const row = JSON.parse(lines[at]!) as unknown[];
  row[columns.indexOf(column)] = value;
  lines[at] = JSON.stringify(row);
  const body = `${lines.slice(0, -2).join('\n')}\n`;
  const trailer = JSON.parse(lines[lines.length - 2]!);
  trailer.sha256 = createHash('sha256').update(body).digest('hex');
  return { text: `${body}${JSON.stringify(trailer)}\n`, line: at + 1 };
}

const count = async (database: Database, table: string) =>
  Number((await database.client.execute(`SELECT count(*) FROM ${table}`)).rows[0]![0]);
async function emptyOfData(database: Database): Promise<void> {
  for (const t of ['users', 'spaces', 'bindings', 'versions', 'comments', 'api_keys', 'oauth_clients'])
    expect(await count(database, t)).toBe(0);
}

describe('a dump with one malformed value (checksum recomputed)', () => {
  const cases: [string, () => ReturnType<typeof tampered>, RegExp][] = [
    ['key_points that is not JSON', () => tampered('versions', 'key_points', '["unclosed'), /versions\.key_points must be JSON text/],
    ['key_points that is JSON but not a list of strings', () => tampered('versions', 'key_points', '{"a":1}'), /versions\.key_points/],
    ['text where a number belongs', () => tampered('versions', 'created_at', 'yesterday'), /versions\.created_at must be a whole number/],
    ['an unknown provenance', () => tampered('versions', 'source', 'robot'), /versions\.source must be one of "human", "llm"/],
    ['a NULL in a NOT NULL column', () => tampered('bindings', 'slug', null), /bindings\.slug must not be null/],
    [
      'a version name over the limit (item 7)',
      () => tampered('versions', 'name', 'word '.repeat(6_120)),
      /versions\.name must be at most 200 characters/,
    ],
    [
      'nine key points (item 7)',
      () => tampered('versions', 'key_points', JSON.stringify(Array.from({ length: 9 }, (_, i) => `p${i}`))),
      /versions\.key_points must have at most 8 items/,
    ],
  ];
  for (const [name, make, message] of cases) {
    for (const verifyFirst of [true, false]) {
      test(`${name} (${verifyFirst ? 'a file, checked first' : 'a stream, read once'}): refused with line, table and field; nothing committed; the good dump then restores`, async () => {
        const { text, line } = make();
        const database = createDatabase({ url: ':memory:' });
        const err = await restoreDump(database, () => linesOf([text]), { verifyFirst, checkRow: restoredRowIssue }).catch((e) => e);
        expect(err).toBeInstanceOf(DumpError);
        expect(String(err.message)).toMatch(new RegExp(`^bad value at line ${line} \\(\\w+ row \\d+\\): `));
        expect(String(err.message)).toMatch(message);
        if (verifyFirst) expect(await count(database, 'sqlite_schema')).toBe(0);
        else await emptyOfData(database);
        await restoreDump(database, () => linesOf([dumped]), { verifyFirst, checkRow: restoredRowIssue });
        expect(await count(database, 'bindings')).toBe(7);
        database.close();
      });
    }
  }

  test('the CLI, from stdin: exit 1 naming the row and field, an empty database, `serve` starts on it, and the good dump restores', async () => {
    const { text, line } = tampered('versions', 'key_points', '["unclosed');
    const file = join(dir, 'cli-target.db');
    const env = { BINDERY_DB_URL: `file:${file}` };
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, text);
    const proc = Bun.spawn(['sh', '-c', `bun adapters/cli.ts restore - < '${bad}'`], {
      cwd: join(import.meta.dir, '../..'),
      env: { ...process.env, ...env },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const stderr = await new Response(proc.stderr).text();
    expect(await proc.exited).toBe(1);
    expect(stderr).toMatch(
      new RegExp(`^bindery restore: bad value at line ${line} \\(versions row \\d+\\): versions\\.key_points must be JSON text`),
    );
    const database = createDatabase({ url: env.BINDERY_DB_URL });
    await emptyOfData(database);
    database.close();
    const server = await startServer(env);
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
    const good = join(dir, 'good.jsonl');
    writeFileSync(good, dumped);
    const restored = await cli(['restore', good], env);
    expect([restored.code, restored.stderr]).toEqual([0, expect.stringMatching(/^restored \d+ rows \(7 bindings/)]);
  }, 60_000);
});
