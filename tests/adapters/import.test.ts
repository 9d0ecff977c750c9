// `bindery import <dir>`: Markdown parsing (front matter, headings, first paragraph), importing real
// READMEs from node_modules in-process, round trips through the MCP tools, re-import semantics, and
// the real CLI on a file DB.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createDatabase } from '../../db/index.ts';
import { createBinderyServer, createTiktokenCounter, parseConfig } from '../../core/index.ts';
import { countVersions, ensureCaller } from '../../core/services/prepare.ts';
import { cutAtWord, decodeUtf8, parseMarkdownDoc, type ImportOutcome } from '../../core/services/import.ts';
import { importFolder } from '../../adapters/cli/import.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createTestWorld, ok, type TestWorld } from '../helpers.ts';
import { REPO } from '../stdio-client.ts';

/** Copies up to `n` distinct README.md files from node_modules into `dir` as <package>.md. */
function copyReadmes(dir: string, n: number): string[] {
  const modules = join(REPO, 'node_modules');
  const packages = readdirSync(modules).flatMap((p) => (p.startsWith('@') ? readdirSync(join(modules, p)).map((s) => `${p}/${s}`) : [p]));
  const copied: string[] = [];
  for (const pkg of packages.sort()) {
    const file = ['README.md', 'readme.md', 'Readme.md']
      .map((f) => join(modules, pkg, f))
      .find((f) => statSync(f, { throwIfNoEntry: false })?.isFile());
    if (!file || statSync(file).size < 200) continue;
    const name = `${pkg.replace('/', '__')}.md`;
    copyFileSync(file, join(dir, name));
    copied.push(name);
    if (copied.length === n) break;
  }
  return copied;
}

describe('parseMarkdownDoc', () => {
  test('front matter title, summary and keyPoints win', () => {
    const text =
      '---\ntitle: Release checklist\nsummary: What to check before tagging a release.\nkeyPoints:\n  - Run the tests\n  - Bump the version\n---\n# Ignored heading\n\nIgnored paragraph.\n';
    const doc = parseMarkdownDoc(text, 'docs/release.md');
    expect(doc).toMatchObject({
      name: 'Release checklist',
      summary: 'What to check before tagging a release.',
      keyPoints: ['Run the tests', 'Bump the version'],
      content: text,
    });
    expect(doc.warnings).toEqual([]);
  });

  test('key_points is accepted too, and long front matter fields are cut to the limits', () => {
    const points = Array.from({ length: 10 }, (_, i) => `point ${i} ${'word '.repeat(40)}`);
    const text = `---\ntitle: T\nsummary: "${'lorem ipsum '.repeat(80)}"\nkey_points: ${JSON.stringify(points)}\n---\nBody\n`;
    const doc = parseMarkdownDoc(text, 'x.md');
    expect(doc.summary.length).toBeLessThanOrEqual(600);
    expect(doc.summary.endsWith('…')).toBe(true);
    expect(doc.summary).not.toMatch(/ipsu…$|lore…$/);
    expect(doc.keyPoints).toHaveLength(8);
    for (const k of doc.keyPoints) expect(k.length).toBeLessThanOrEqual(160);
  });

  test('without front matter: first heading names it, first paragraph summarises it, the main sections are key points (install left out, a section of sub-headings lists them)', () => {
    const text = [
      '<p align="center"><img src="logo.png"></p>',
      '',
      '# Widget',
      '',
      '[![npm](https://img.shields.io/npm/v/widget.svg)](https://npm.im/widget)',
      '',
      'A **small** library for [widgets](https://example.com) and `gadgets`.',
      'It has two lines.',
      '',
      '```sh',
      '# not a heading',
      'npm i widget',
      '```',
      '',
      '## Install',
      'text',
      '## Usage',
      '### Details are not key points',
      'Setext heading',
      '--------------',
    ].join('\n');
    const doc = parseMarkdownDoc(text, 'widget.md');
    expect(doc.name).toBe('Widget');
    expect(doc.summary).toBe('A small library for widgets and gadgets. It has two lines.');
    expect(doc.keyPoints).toEqual(['Usage: Details are not key points', 'Setext heading']);
  });

  test('several first-level headings are the key points; with no heading the file name is the name', () => {
    const many = parseMarkdownDoc('# One\n\nIntro text here.\n\n# Two\n\n# Three\n', 'a.md');
    expect(many.name).toBe('One');
    expect(many.keyPoints).toEqual(['Two', 'Three']);
    const bare = parseMarkdownDoc('Just a paragraph of text.\n', 'notes/meeting-2024.md');
    expect(bare).toMatchObject({ name: 'meeting-2024', summary: 'Just a paragraph of text.', keyPoints: [] });
  });

  test('broken front matter is ignored with a warning', () => {
    const doc = parseMarkdownDoc('---\ntitle: [unclosed\n---\n# Real title\n\nBody.\n', 'b.md');
    expect(doc.name).toBe('Real title');
    expect(doc.warnings[0]).toContain('front matter');
  });

  test('summaries over 600 characters are cut at a word boundary', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const doc = parseMarkdownDoc(`# T\n\n${words}\n`, 'c.md');
    expect(doc.summary.length).toBeLessThanOrEqual(600);
    const kept = doc.summary.slice(0, -1).split(' ');
    expect(words.split(' ').slice(0, kept.length)).toEqual(kept);
    expect(cutAtWord('short', 600)).toBe('short');
  });

  test('decodeUtf8 refuses bytes that are not UTF-8', () => {
    expect(decodeUtf8(new Uint8Array([0xff, 0xfe, 0x41]))).toBeNull();
    expect(decodeUtf8(new TextEncoder().encode('héllo'))).toBe('héllo');
  });
});

describe('import of real READMEs (in-process)', () => {
  let world: TestWorld;
  let dir: string;
  let files: string[];
  const deps = () => ({ db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() });

  beforeAll(async () => {
    world = await createTestWorld();
    dir = mkdtempSync(join(tmpdir(), 'bindery-import-'));
    files = copyReadmes(dir, 30);
  });
  afterAll(() => {
    world.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function importAll() {
    const caller = await ensureCaller(deps(), 'importer');
    const outcomes: ({ sourcePath: string } & ImportOutcome)[] = [];
    await importFolder(deps(), caller, dir, (sourcePath, outcome) => outcomes.push({ sourcePath, ...outcome }));
    return outcomes;
  }

  test('every README becomes a human binding whose tier-2 content is the file', async () => {
    expect(files).toHaveLength(30);
    const outcomes = await importAll();
    expect(outcomes.map((o) => o.status)).toEqual(files.map(() => 'created'));
    const client = await world.connect('importer');
    const listed = await ok(client, 'list_bindings', { limit: 100 });
    expect(listed.pagination.total).toBe(30);
    for (const o of outcomes) {
      if (o.status !== 'created') continue;
      const file = readFileSync(join(dir, o.sourcePath), 'utf8');
      const got = await ok(client, 'get_binding', { id: o.id, tier: '2' });
      const b = got.binding;
      expect(b.content).toBe(file);
      expect(b).toMatchObject({ source: 'human', model: null, version: 1 });
      expect(b.contentTokenCount).toBe(world.tokens.count(file));
      expect(b.name.length).toBeGreaterThan(0);
      expect(b.name.length).toBeLessThanOrEqual(200);
      expect(b.summary.length).toBeGreaterThan(0);
      expect(b.summary.length).toBeLessThanOrEqual(600);
      expect(b.keyPoints.length).toBeLessThanOrEqual(8);
      for (const k of b.keyPoints) expect(k.length).toBeLessThanOrEqual(160);
      // A README that opens with a plain "# Title" line is named by it.
      const plainTitle = /^# ([\w .-]+)\n/.exec(file);
      if (plainTitle) expect(b.name).toBe(plainTitle[1]!.trim());
    }
  });

  test('importing again without changes makes no new version', async () => {
    const before = await countVersions(world);
    const outcomes = await importAll();
    expect(outcomes.every((o) => o.status === 'unchanged')).toBe(true);
    expect(await countVersions(world)).toBe(before);
  });

  test('changing one file makes exactly one new version of that binding', async () => {
    const before = await countVersions(world);
    const target = files[4]!;
    appendFileSync(join(dir, target), '\n## Added section\n\nA new paragraph.\n');
    const outcomes = await importAll();
    const changed = outcomes.filter((o) => o.status === 'updated');
    expect(changed.map((o) => o.sourcePath)).toEqual([target]);
    expect(outcomes.filter((o) => o.status === 'unchanged')).toHaveLength(29);
    expect(await countVersions(world)).toBe(before + 1);
    const client = await world.connect('importer');
    const b = (await ok(client, 'get_binding', { id: (changed[0] as { id: string }).id, tier: '2' })).binding;
    expect(b.version).toBe(2);
    expect(b.content).toBe(readFileSync(join(dir, target), 'utf8'));
    expect(b.source).toBe('human');
  });

  test('empty and non-UTF-8 files are skipped and nothing is written for them', async () => {
    writeFileSync(join(dir, 'empty.md'), '  \n');
    writeFileSync(join(dir, 'latin1.md'), new Uint8Array([0x23, 0x20, 0xe9, 0x74, 0xe9, 0x0a]));
    const before = await countVersions(world);
    const outcomes = await importAll();
    expect(outcomes.find((o) => o.sourcePath === 'empty.md')).toMatchObject({ status: 'skipped', reason: 'empty' });
    expect(outcomes.find((o) => o.sourcePath === 'latin1.md')).toMatchObject({ status: 'skipped', reason: 'not valid UTF-8' });
    expect(await countVersions(world)).toBe(before);
  });
});

describe('bindery import through the real CLI', () => {
  let dir: string;
  let docs: string;
  let dbUrl: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bindery-cli-import-'));
    docs = join(dir, 'docs');
    mkdirSync(join(docs, 'nested', 'deeper'), { recursive: true });
    mkdirSync(join(docs, '.hidden'));
    copyReadmes(docs, 12);
    writeFileSync(
      join(docs, 'nested', 'deeper', 'guide.md'),
      '---\ntitle: Nested guide\nsummary: A guide two folders down.\n---\n# Heading\n\nBody.\n',
    );
    writeFileSync(join(docs, '.hidden', 'secret.md'), '# Not imported\n');
    writeFileSync(join(docs, 'nested', 'notes.txt'), 'not markdown');
    writeFileSync(join(docs, 'empty.md'), '');
    writeFileSync(join(docs, 'bad.md'), new Uint8Array([0xc3, 0x28]));
    dbUrl = `file:${join(dir, 'data', 'bindery.db')}`;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function runImport() {
    const proc = Bun.spawnSync([process.execPath, join(REPO, 'adapters', 'cli.ts'), 'import', docs], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', BINDERY_DB_URL: dbUrl, BINDERY_USER: 'cli-user' },
    });
    return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
  }

  test('imports, reports a summary line, skips with messages, and re-imports idempotently', async () => {
    const first = runImport();
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe(`imported ${docs} into @cli-user: 13 created, 0 updated, 0 unchanged, 2 skipped`);
    expect(first.stderr).toContain('skipped empty.md: empty');
    expect(first.stderr).toContain('skipped bad.md: not valid UTF-8');

    const second = runImport();
    expect(second.stdout).toContain('0 created, 0 updated, 13 unchanged, 2 skipped');

    appendFileSync(join(docs, 'nested', 'deeper', 'guide.md'), '\nMore.\n');
    const third = runImport();
    expect(third.stdout).toContain('0 created, 1 updated, 12 unchanged, 2 skipped');

    // Read the result back through the MCP server on the same file.
    const database = createDatabase({ url: dbUrl });
    try {
      const config = parseConfig({ BINDERY_DB_URL: dbUrl, BINDERY_TOOL_MODE: 'eager' });
      const tokens = createTiktokenCounter(config.tokenizer);
      const deps = { db: database.db, tokens, config, now: () => Date.now() };
      const caller = await ensureCaller(deps, 'cli-user');
      const server = createBinderyServer(deps, { caller });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(b);
      const client = new Client({ name: 'check', version: '1' });
      await client.connect(a);
      const found = await ok(client, 'search_bindings', { query: 'guide two folders' });
      const guide = found.results.find((r: { name: string }) => r.name === 'Nested guide');
      expect(guide).toMatchObject({ summary: 'A guide two folders down.', version: 2, source: 'human', model: null });
      const full = await ok(client, 'get_binding', { id: guide.id, tier: '2' });
      expect(full.binding.content).toBe(readFileSync(join(docs, 'nested', 'deeper', 'guide.md'), 'utf8'));
      const paths = await database.db.all<{ source_path: string }>(sql`SELECT source_path FROM bindings ORDER BY source_path`);
      expect(paths.map((p) => p.source_path)).toContain('nested/deeper/guide.md');
      expect(paths.map((p) => p.source_path)).not.toContain('.hidden/secret.md');
      await client.close();
    } finally {
      database.close();
    }
  }, 60_000);
});

describe('bindery import --space (real CLI)', () => {
  let dir: string;
  let docs: string;
  let dbUrl: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bindery-cli-import-space-'));
    docs = join(dir, 'docs');
    mkdirSync(docs);
    writeFileSync(join(docs, 'runbook.md'), '# Runbook\n\nRestart the flux capacitor.\n');
    dbUrl = `file:${join(dir, 'bindery.db')}`;
    const database = createDatabase({ url: dbUrl });
    const { migrate } = await import('../../db/index.ts');
    await migrate(database.db);
    const deps = {
      db: database.db,
      tokens: createTiktokenCounter('o200k_base'),
      config: parseConfig({ BINDERY_DB_URL: dbUrl }),
      now: () => Date.now(),
    };
    const { createSpace } = await import('../../core/services/spaces.ts');
    await createSpace(deps, await ensureCaller(deps, 'writer'), { slug: 'team-docs', name: 'Team docs' });
    await createSpace(deps, await ensureCaller(deps, 'someone-else'), { slug: 'their-public', name: 'Theirs', visibility: 'public' });
    database.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function runImport(...extra: string[]) {
    const proc = Bun.spawnSync([process.execPath, join(REPO, 'adapters', 'cli.ts'), 'import', docs, ...extra], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', BINDERY_DB_URL: dbUrl, BINDERY_USER: 'writer' },
    });
    return { code: proc.exitCode, stdout: proc.stdout.toString(), stderr: proc.stderr.toString() };
  }

  async function spacesOfBindings(): Promise<string[]> {
    const database = createDatabase({ url: dbUrl });
    try {
      const rows = await database.db.all<{ slug: string }>(
        sql`SELECT s.slug FROM bindings b JOIN spaces s ON s.id = b.space_id ORDER BY s.slug`,
      );
      return rows.map((r) => r.slug);
    } finally {
      database.close();
    }
  }

  test('an unknown space is an error naming it, and nothing is imported', async () => {
    const r = runImport('--space', 'no-such-space');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no space "no-such-space" that @writer can see; nothing was imported');
    expect(r.stdout).toBe('');
    expect(await spacesOfBindings()).toEqual([]);
  });

  test("a space the user does not own (public, someone else's) is refused", async () => {
    const r = runImport('--space', '@their-public');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('space @their-public is not yours');
    expect(await spacesOfBindings()).toEqual([]);
  });

  test('--space without a slug is a usage error', () => {
    const r = runImport('--space');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--space needs a space slug');
  });

  test('files land in the named space, and the summary says where', async () => {
    const r = runImport('--space', 'team-docs');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(`imported ${docs} into @team-docs (as @writer): 1 created, 0 updated, 0 unchanged, 0 skipped`);
    expect(await spacesOfBindings()).toEqual(['team-docs']);
    // Re-importing into the same space is idempotent; the personal space is a separate target.
    expect(runImport('--space', '@team-docs').stdout).toContain('0 created, 0 updated, 1 unchanged');
    expect(runImport().stdout.trim()).toBe(`imported ${docs} into @writer: 1 created, 0 updated, 0 unchanged, 0 skipped`);
    expect(await spacesOfBindings()).toEqual(['team-docs', 'writer']);
  });
});
