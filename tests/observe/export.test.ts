// `bindery export` → `bindery import --space` round trips: hostile content comes back byte for byte,
// fields exactly, deleted bindings stay out, and importing again adds no versions. Files are written
// without following links planted in the export folder.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { parseConfig } from '../../core/index.ts';
import { createBinding, deleteBinding, updateBinding, type CoreDeps } from '../../core/services/bindings.ts';
import { createSpace } from '../../core/services/spaces.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { parseExport, renderExport } from '../../core/services/export-format.ts';
import type { Caller } from '../../core/context.ts';
import { createDatabase, migrate, type Database } from '../../db/index.ts';
import { exportFolder } from '../../adapters/cli/export.ts';
import { importFolder } from '../../adapters/cli/import.ts';
import { testCounter } from '../helpers.ts';
import { cli } from '../../support/procs.ts';

const HUMAN = { source: 'human' as const, model: null };
const quiet = { write: () => true, isTTY: false };
const HOSTILE: { name: string; summary: string; keyPoints: string[]; content: string }[] = [
  {
    name: 'Own front matter',
    summary: 'Has its own.',
    keyPoints: ['a'],
    content: '---\ntitle: Mine\nbindery: export/1\nname: forged\n---\n# Body\n\ntext\n',
  },
  { name: 'Dashes', summary: 'Rules everywhere.', keyPoints: [], content: '---\n---\n\n---\n...\ntext\n---' },
  { name: 'CRLF', summary: 'Windows\r\nlines', keyPoints: ['x\r\ny'], content: 'a\r\nb\r\n---\r\nc\r\n' },
  {
    name: 'Unicode ☃ ✓ שלום',
    summary: 'Zero\u200bwidth, e\u0301, 🧪, line\u2028sep, tab\there',
    keyPoints: ['日本語', '🙂'],
    content: '# 🧪\n\nשלום עולם\u2029\nnaïve café\n',
  },
  // Content cannot be empty on any write path: a lone newline is the least there is.
  { name: 'Empty', summary: 'Nothing inside.', keyPoints: [], content: '\n' },
  { name: 'Hello World', summary: 'first', keyPoints: [], content: 'one' },
  { name: 'hello world!', summary: 'second', keyPoints: [], content: 'two' },
  { name: 'HELLO-WORLD', summary: 'third', keyPoints: [], content: 'three' },
  {
    name: '  null  ',
    summary: 'key: value # not a comment\n---\n- item',
    keyPoints: ['---', ': colon', '\'quoted"', '- dash', 'yes'],
    content: 'no newline at end',
  },
  { name: '---', summary: '...', keyPoints: ['...'], content: '---' },
  { name: 'Trailing', summary: ' spaces ', keyPoints: ['  lead'], content: '\n\n\ntrailing blank lines\n\n\n' },
];

let database: Database;
let deps: CoreDeps;
let alice: Caller;
let root: string;
const made: { id: string; slug: string; input: (typeof HOSTILE)[number] }[] = [];
let deletedSlug: string;

async function versions(): Promise<number> {
  return Number((await database.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM versions`))!.n);
}

async function current(spaceSlug: string) {
  return database.db.all<{ slug: string; name: string; summary: string; keyPoints: string; content: string; id: string }>(sql`
    SELECT b.slug AS slug, b.id AS id, v.name AS name, v.summary AS summary, v.key_points AS keyPoints, v.content AS content
    FROM bindings b JOIN versions v ON v.binding_id = b.id AND v.number = b.current_version JOIN spaces s ON s.id = b.space_id
    WHERE s.slug = ${spaceSlug} AND b.deleted_at IS NULL ORDER BY b.slug`);
}

beforeAll(async () => {
  database = createDatabase({ url: ':memory:' });
  await migrate(database.db);
  deps = { db: database.db, tokens: await testCounter(), config: parseConfig({ BINDERY_DB_URL: ':memory:' }), now: () => Date.now() };
  alice = await ensureCaller(deps, 'alice');
  await createSpace(deps, alice, { slug: 'notes', name: 'Notes' });
  for (const input of HOSTILE) {
    const row = await createBinding(deps, alice, { ...input, space: 'notes' }, HUMAN);
    made.push({ id: row.bindingId, slug: row.bindingSlug, input });
  }
  // One binding at version 3, one deleted.
  await updateBinding(deps, alice, made[0]!.id, { summary: 'Has its own (v2).' }, HUMAN);
  made[0]!.input = { ...made[0]!.input, summary: 'Has its own (v3).' };
  await updateBinding(deps, alice, made[0]!.id, { summary: 'Has its own (v3).' }, HUMAN);
  const gone = await createBinding(deps, alice, { space: 'notes', name: 'Gone', summary: 'deleted', content: 'gone' }, HUMAN);
  deletedSlug = gone.bindingSlug;
  await deleteBinding(deps, alice, gone.bindingId);
  root = mkdtempSync(join(tmpdir(), 'bindery-export-'));
});

afterAll(() => {
  database.close();
  rmSync(root, { recursive: true, force: true });
});

describe('export format', () => {
  test('every hostile binding renders and parses back exactly', () => {
    for (const { input } of made) {
      const b = { id: 'bnd_x', ...input, version: 1, source: 'llm' as const, model: 'm', updatedAt: '2026-01-01T00:00:00.000Z' };
      const text = renderExport(b);
      expect(text.startsWith('---\nbindery: export/1\n') || text.startsWith('---\n{"bindery":"export/1"')).toBe(true);
      expect(parseExport(text)).toEqual(b);
    }
  });

  test('ordinary Markdown front matter is not ours; a wrong marker is refused', () => {
    expect(parseExport('---\ntitle: x\n---\nbody')).toBeNull();
    expect(parseExport('# no front matter')).toBeNull();
    expect(parseExport('---\nbindery: export/9\nname: x\n---\n')).toEqual({ error: expect.stringContaining('unknown export format') });
    expect(parseExport('---\nbindery: export/1\nname: 3\nsummary: s\n---\n')).toEqual({ error: expect.stringContaining('name') });
  });
});

describe('round trip', () => {
  test('export writes one file per live binding, named by slug; deleted ones stay out', async () => {
    const counts = await exportFolder(deps, alice, root, { space: 'notes', sink: quiet, summarySink: quiet });
    expect(counts).toEqual({ spaces: 1, bindings: HOSTILE.length });
    const files = readdirSync(join(root, 'notes')).sort();
    expect(files).toEqual(made.map((m) => `${m.slug}.md`).sort());
    expect(files).not.toContain(`${deletedSlug}.md`);
    expect(new Set(made.map((m) => m.slug)).size).toBe(HOSTILE.length);
    const v3 = readFileSync(join(root, 'notes', `${made[0]!.slug}.md`), 'utf8');
    expect(v3).toContain('version: 3');
    expect(v3.endsWith(made[0]!.input.content)).toBe(true);
  });

  test('import into another space reproduces name, summary, key points and content exactly', async () => {
    await createSpace(deps, alice, { slug: 'copy', name: 'Copy' });
    const counts = await importFolder(deps, alice, join(root, 'notes'), () => {}, undefined, { space: 'copy' });
    expect(counts).toEqual({ created: HOSTILE.length, updated: 0, unchanged: 0, skipped: 0 });
    const copied = await current('copy');
    expect(copied.length).toBe(HOSTILE.length);
    const byName = new Map(copied.map((c) => [c.name, c]));
    for (const { input } of made) {
      const c = byName.get(input.name)!;
      expect(c).toBeDefined();
      expect({ name: c.name, summary: c.summary, keyPoints: JSON.parse(c.keyPoints), content: c.content }).toEqual(input);
    }
  });

  test('importing again, into the copy or back into the original, adds no versions', async () => {
    const before = await versions();
    expect(await importFolder(deps, alice, join(root, 'notes'), () => {}, undefined, { space: 'copy' })).toEqual({
      created: 0,
      updated: 0,
      unchanged: HOSTILE.length,
      skipped: 0,
    });
    expect(await importFolder(deps, alice, join(root, 'notes'), () => {}, undefined, { space: 'notes' })).toEqual({
      created: 0,
      updated: 0,
      unchanged: HOSTILE.length,
      skipped: 0,
    });
    expect(await versions()).toBe(before);
    const orig = await current('notes');
    expect(orig.length).toBe(HOSTILE.length);
  });

  test('an edited field in an exported file updates exactly that binding', async () => {
    const file = join(root, 'notes', `${made[5]!.slug}.md`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('summary: first', 'summary: first, edited'));
    const before = await versions();
    expect(await importFolder(deps, alice, join(root, 'notes'), () => {}, undefined, { space: 'notes' })).toEqual({
      created: 0,
      updated: 1,
      unchanged: HOSTILE.length - 1,
      skipped: 0,
    });
    expect(await versions()).toBe(before + 1);
    expect((await current('notes')).find((r) => r.id === made[5]!.id)!.summary).toBe('first, edited');
  });
});

describe('access', () => {
  test("another user's private space cannot be exported, and is not among theirs", async () => {
    const bob = await ensureCaller(deps, 'bob');
    const dir = mkdtempSync(join(tmpdir(), 'bindery-export-bob-'));
    await expect(exportFolder(deps, bob, dir, { space: 'notes', sink: quiet, summarySink: quiet })).rejects.toThrow(
      /not found|NOT_FOUND|no space/i,
    );
    expect(await exportFolder(deps, bob, dir, { sink: quiet, summarySink: quiet })).toEqual({ spaces: 1, bindings: 0 });
    expect(readdirSync(dir)).toEqual(['bob']);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('safe writes', () => {
  test('a link planted at a file name is replaced, never written through', async () => {
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'untouched');
    const target = join(root, 'notes', `${made[6]!.slug}.md`);
    rmSync(target);
    symlinkSync(outside, target);
    await exportFolder(deps, alice, root, { space: 'notes', sink: quiet, summarySink: quiet });
    expect(readFileSync(outside, 'utf8')).toBe('untouched');
    expect(lstatSync(target).isSymbolicLink()).toBe(false);
    expect(readFileSync(target, 'utf8')).toContain('summary: second');
  });

  test('a space folder that is a link stops the export; nothing lands outside', async () => {
    const other = mkdtempSync(join(tmpdir(), 'bindery-export-victim-'));
    const root2 = mkdtempSync(join(tmpdir(), 'bindery-export2-'));
    symlinkSync(other, join(root2, 'notes'));
    await expect(exportFolder(deps, alice, root2, { space: 'notes', sink: quiet, summarySink: quiet })).rejects.toThrow(
      /not a plain folder/,
    );
    expect(readdirSync(other)).toEqual([]);
    rmSync(other, { recursive: true, force: true });
    rmSync(root2, { recursive: true, force: true });
  });
});

describe('the CLI', () => {
  test('bindery export, then import --space of that folder: same fields, and a second import changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bindery-export-cli-'));
    const env = { BINDERY_DB_URL: `file:${join(dir, 'b.db')}`, BINDERY_USER: 'cli' };
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'a.md'), '---\ntitle: Alpha\n---\n# Alpha\r\n\r\nBody ✓\r\n');
    writeFileSync(join(dir, 'src', 'b.md'), '# Beta\n\n---\n\nafter a rule\n');
    expect((await cli(['import', join(dir, 'src')], env)).code).toBe(0);
    const out = join(dir, 'out');
    const exp = await cli(['export', out], env);
    expect(exp.code).toBe(0);
    expect(exp.stdout.trim()).toBe(`exported 2 bindings from 1 space into ${out}`);
    expect(exp.stderr).toBe('');
    expect(readdirSync(join(out, 'cli')).sort()).toEqual(['alpha.md', 'beta.md']);
    expect(readFileSync(join(out, 'cli', 'alpha.md'), 'utf8').endsWith('---\ntitle: Alpha\n---\n# Alpha\r\n\r\nBody ✓\r\n')).toBe(true);
    const env2 = { ...env, BINDERY_USER: 'cli2' };
    expect((await cli(['import', join(dir, 'src')], env2)).code).toBe(0);
    const bad = await cli(['import', join(out, 'cli'), '--space', 'nope'], env2);
    expect(bad.code).not.toBe(0);
    const first = await cli(['import', join(out, 'cli'), '--space', 'cli2'], env2);
    expect(first.stdout.trim()).toBe(`imported ${join(out, 'cli')} into @cli2: 2 created, 0 updated, 0 unchanged, 0 skipped`);
    const again = await cli(['import', join(out, 'cli'), '--space', 'cli2'], env2);
    expect(again.stdout.trim()).toBe(`imported ${join(out, 'cli')} into @cli2: 0 created, 0 updated, 2 unchanged, 0 skipped`);
    expect(existsSync(join(dir, 'b.db'))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
