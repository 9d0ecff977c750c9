// `bindery sync` in-process: a real folder and a real libSQL file, an assistant editing over MCP.
// Both directions, renames, deletions (restorable), conflicts keeping both sides, links and paths
// leading out of the folder refused, oversized files refused, and a pass cut short after each kind
// of write finished by the next one.
import { afterEach, describe, expect, test } from 'bun:test';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { restoreBinding } from '../../core/services/restore.ts';
import { importFolder } from '../../adapters/cli/import.ts';
import { main as syncMain } from '../../adapters/cli/sync.ts';
import { err, ok } from '../helpers.ts';
import { createSyncWorld, type SyncWorld } from './sync-world.ts';

let w: SyncWorld;
afterEach(() => w?.close());

const write = (rel: string, text: string) => {
  mkdirSync(join(w.dir, rel, '..'), { recursive: true });
  writeFileSync(join(w.dir, rel), text);
};
const read = (rel: string) => readFileSync(join(w.dir, rel), 'utf8');
/** Live bindings of the personal space: id → current content and version. */
async function live(): Promise<Map<string, { content: string; version: number; source: string; sourcePath: string | null }>> {
  const rows = await w.deps.db.all<{ id: string; content: string; version: number; source: string; sourcePath: string | null }>(
    sql`SELECT b.id, v.content, v.number AS version, v.source, b.source_path AS sourcePath FROM bindings b JOIN versions v ON v.binding_id = b.id AND v.number = b.current_version WHERE b.deleted_at IS NULL`,
  );
  return new Map(rows.map((r) => [r.id, r]));
}
const idOf = async (content: string) => [...(await live())].find(([, b]) => b.content === content)?.[0];

describe('folder → Bindery', () => {
  test('new files become bindings (source human); a second pass reads nothing', async () => {
    w = await createSyncWorld();
    write('a.md', '# Alpha\n\nThe first note.\n');
    write('deep/b.md', '# Beta\n\nThe second note.\n');
    const first = await w.pass();
    expect(first.counts.created).toBe(2);
    const bindings = [...(await live()).values()];
    expect(bindings.map((b) => b.content).sort()).toEqual(['# Alpha\n\nThe first note.\n', '# Beta\n\nThe second note.\n']);
    expect(bindings.every((b) => b.source === 'human' && b.version === 1)).toBe(true);
    expect(bindings.map((b) => b.sourcePath).sort()).toEqual(['a.md', 'deep/b.md']);
    const second = await w.pass();
    expect(second.reads).toBe(0);
    expect(Object.values(second.counts).every((n) => n === 0)).toBe(true);
  });

  test('a changed file becomes a new version, and only that file is read', async () => {
    w = await createSyncWorld();
    for (let i = 0; i < 20; i++) write(`n${i}.md`, `# Note ${i}\n\nText ${i}.\n`);
    await w.pass();
    const id = await idOf('# Note 7\n\nText 7.\n');
    write('n7.md', '# Note 7\n\nText 7, edited by hand.\n');
    const { counts, reads } = await w.pass();
    expect(counts.updated).toBe(1);
    expect(reads).toBe(1);
    const b = (await live()).get(id!)!;
    expect(b).toMatchObject({ content: '# Note 7\n\nText 7, edited by hand.\n', version: 2, source: 'human' });
  });

  test('a file touched without a change is read once, then not again; no version is made', async () => {
    w = await createSyncWorld();
    write('a.md', '# A\n\nSame.\n');
    await w.pass();
    const later = new Date(Date.now() + 5000);
    utimesSync(join(w.dir, 'a.md'), later, later);
    const touched = await w.pass();
    expect(touched.reads).toBe(1);
    expect(touched.counts.updated).toBe(0);
    expect((await w.pass()).reads).toBe(0);
    expect([...(await live()).values()][0]!.version).toBe(1);
  });

  test('a renamed file keeps its binding (same content: by hash; export form: by the id in its front matter, even edited)', async () => {
    w = await createSyncWorld();
    write('a.md', '# Plain\n\nPlain text.\n');
    const created = (
      await ok(w.mcp, 'create_binding', { name: 'Exported', summary: 'Hand-written summary.', content: 'Body of the exported one.\n' })
    ).binding;
    await w.pass();
    const exportedPath = readdirSync(w.dir).find((f) => f !== 'a.md')!;
    expect(read(exportedPath)).toContain(`id: ${created.id}`);
    const plainId = await idOf('# Plain\n\nPlain text.\n');
    mkdirSync(join(w.dir, 'moved'));
    renameSync(join(w.dir, 'a.md'), join(w.dir, 'moved/renamed.md'));
    writeFileSync(
      join(w.dir, 'exported-renamed.md'),
      read(exportedPath).replace('Body of the exported one.', 'Body, edited while renamed.'),
    );
    unlinkSync(join(w.dir, exportedPath));
    const { counts, events } = await w.pass();
    expect(counts).toMatchObject({ renamed: 2, created: 0, deleted: 0, updated: 1 });
    expect(
      events
        .filter((e) => e.kind === 'renamed')
        .map((e) => e.id)
        .sort(),
    ).toEqual([plainId, created.id].sort());
    const all = await live();
    expect(all.size).toBe(2);
    expect(all.get(plainId!)).toMatchObject({ version: 1, sourcePath: 'moved/renamed.md' });
    expect(all.get(created.id)!.content).toBe('Body, edited while renamed.\n');
    const got = (await ok(w.mcp, 'get_binding', { id: created.id })).binding;
    expect(got.summary).toBe('Hand-written summary.');
  });

  test('a deleted file deletes its binding, which stays restorable; restored, its file comes back', async () => {
    w = await createSyncWorld();
    write('gone.md', '# Gone\n\nSoon deleted.\n');
    await w.pass();
    const id = (await idOf('# Gone\n\nSoon deleted.\n'))!;
    unlinkSync(join(w.dir, 'gone.md'));
    expect((await w.pass()).counts.deleted).toBe(1);
    expect(await err(w.mcp, 'get_binding', { id })).toContain('not found');
    await restoreBinding(w.deps, w.caller, id);
    const back = await w.pass();
    expect(back.counts.written).toBe(1);
    expect(read('gone.md')).toBe('# Gone\n\nSoon deleted.\n');
    expect((await w.pass()).counts.created).toBe(0);
  });
});

describe('Bindery → folder', () => {
  test("an assistant's edit over MCP is written back to its file", async () => {
    w = await createSyncWorld();
    write('doc.md', '# Doc\n\nOriginal.\n');
    await w.pass();
    const id = (await idOf('# Doc\n\nOriginal.\n'))!;
    await ok(w.mcp, 'update_binding', { id, content: '# Doc\n\nRewritten by the assistant.\n' });
    const { counts } = await w.pass();
    expect(counts.written).toBe(1);
    expect(read('doc.md')).toBe('# Doc\n\nRewritten by the assistant.\n');
    const again = await w.pass();
    expect(again.reads).toBe(0);
    expect(Object.values(again.counts).every((n) => n === 0)).toBe(true);
  });

  test('a binding made in Bindery gets a file; one deleted in Bindery loses its file', async () => {
    w = await createSyncWorld();
    await w.pass();
    const made = (
      await ok(w.mcp, 'create_binding', {
        name: 'From the assistant',
        summary: 'Made over MCP.',
        content: '# From the assistant\n\nBody.\n',
      })
    ).binding;
    expect((await w.pass()).counts.written).toBe(1);
    const file = readdirSync(w.dir).find((f) => f.endsWith('.md'))!;
    expect(read(file)).toContain('Body.');
    expect((await w.pass()).counts.created).toBe(0);
    await ok(w.mcp, 'delete_binding', { id: made.id });
    expect((await w.pass()).counts.removed).toBe(1);
    expect(existsSync(join(w.dir, file))).toBe(false);
  });

  test('both sides changed: the folder wins the file, Bindery’s version is kept beside it, and in history', async () => {
    w = await createSyncWorld();
    write('both.md', '# Both\n\nBase.\n');
    await w.pass();
    const id = (await idOf('# Both\n\nBase.\n'))!;
    await ok(w.mcp, 'update_binding', { id, content: '# Both\n\nThe assistant’s edit.\n' });
    write('both.md', '# Both\n\nMy edit by hand.\n');
    const { counts, events } = await w.pass();
    expect(counts.conflict).toBe(1);
    const c = events.find((e) => e.kind === 'conflict')!;
    expect(c).toMatchObject({ path: 'both.md', id });
    expect(read('both.md')).toBe('# Both\n\nMy edit by hand.\n');
    expect(read('both.bindery-conflict-v2.md')).toBe('# Both\n\nThe assistant’s edit.\n');
    expect((await live()).get(id)).toMatchObject({ content: '# Both\n\nMy edit by hand.\n', version: 3, source: 'human' });
    const v2 = await ok(w.mcp, 'get_version', { id, version: 2, tier: '2' });
    expect(v2.binding.content).toBe('# Both\n\nThe assistant’s edit.\n');
    // The conflict copy is not synced itself.
    expect((await w.pass()).counts.created).toBe(0);
  });

  test('deleted in the folder but changed in Bindery: the file is written back', async () => {
    w = await createSyncWorld();
    write('keep.md', '# Keep\n\nBase.\n');
    await w.pass();
    const id = (await idOf('# Keep\n\nBase.\n'))!;
    await ok(w.mcp, 'update_binding', { id, content: '# Keep\n\nEdited in Bindery.\n' });
    unlinkSync(join(w.dir, 'keep.md'));
    const { counts } = await w.pass();
    expect(counts).toMatchObject({ conflict: 1, deleted: 0 });
    expect(read('keep.md')).toBe('# Keep\n\nEdited in Bindery.\n');
    expect((await live()).has(id)).toBe(true);
  });
});

describe('safety', () => {
  test('links are never followed: a linked file or folder pointing out is skipped with a line, and nothing outside is read or written', async () => {
    w = await createSyncWorld();
    const outside = join(w.base, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.md'), '# Secret\n\nOutside the folder.\n');
    symlinkSync(join(outside, 'secret.md'), join(w.dir, 'link.md'));
    symlinkSync(outside, join(w.dir, 'linked-folder'));
    symlinkSync('user@host.1234', join(w.dir, '.#lockfile.md'));
    write('.hidden.md', '# Hidden\n\nNot synced.\n');
    write('sub/tracked.md', '# Tracked\n\nIn a subfolder.\n');
    const { counts, events } = await w.pass();
    expect(counts.created).toBe(1);
    expect(
      events
        .filter((e) => e.kind === 'skipped')
        .map((e) => (e as { path: string }).path)
        .sort(),
    ).toEqual(['link.md', 'linked-folder']);
    expect([...(await live()).values()].some((b) => b.content.includes('Outside'))).toBe(false);
    // The tracked file's folder swapped for a link out: a write-back there is refused, and the
    // binding is not deleted for it.
    const id = (await idOf('# Tracked\n\nIn a subfolder.\n'))!;
    rmSync(join(w.dir, 'sub'), { recursive: true });
    writeFileSync(join(outside, 'tracked.md'), 'outside copy\n');
    symlinkSync(outside, join(w.dir, 'sub'));
    await ok(w.mcp, 'update_binding', { id, content: '# Tracked\n\nEdited.\n' });
    const after = await w.pass();
    expect(after.counts.written).toBe(0);
    expect(readFileSync(join(outside, 'tracked.md'), 'utf8')).toBe('outside copy\n');
    expect(readdirSync(outside).sort()).toEqual(['secret.md', 'tracked.md']);
    expect((await live()).has(id)).toBe(true);
  });

  test('a file over the size limit is refused with a line naming the limit', async () => {
    w = await createSyncWorld({ BINDERY_MAX_CONTENT_BYTES: '2000' });
    write('big.md', `# Big\n\n${'x'.repeat(100_000)}\n`);
    write('small.md', '# Small\n\nFits.\n');
    const { counts, events } = await w.pass();
    expect(counts).toMatchObject({ created: 1, skipped: 1 });
    const line = events.find((e) => e.kind === 'skipped') as { path: string; reason: string };
    expect(line.path).toBe('big.md');
    expect(line.reason).toMatch(/bytes; the limit is 2000 bytes \(BINDERY_MAX_CONTENT_BYTES\)/);
    // Told once while it stays so.
    expect((await w.pass()).counts.skipped).toBe(0);
  });

  test('a folder paired with one space refuses another', async () => {
    w = await createSyncWorld();
    await ok(w.mcp, 'create_space', { slug: 'other', name: 'Other' });
    await w.pass();
    await expect(w.pass({ space: 'other' })).rejects.toThrow(/is synced with @local, not @other/);
  });
});

describe('a pass cut short is finished by the next', () => {
  /** Runs a pass that "crashes" right after the first write of `step`, then a full pass. */
  async function cutThenFinish(step: string) {
    let fired = false;
    const hooks = {
      afterWrite(s: string) {
        if (s === step && !fired) {
          fired = true;
          throw new Error(`crash after ${s}`);
        }
      },
    };
    await expect(w.pass({ hooks })).rejects.toThrow(`crash after ${step}`);
    expect(fired).toBe(true);
    return w.pass();
  }
  /** Every file and every live binding pair up one to one, with equal content. */
  async function expectInStep(files: Record<string, string>) {
    const bindings = await live();
    expect(bindings.size).toBe(Object.keys(files).length);
    for (const [rel, text] of Object.entries(files)) {
      expect(read(rel)).toBe(text);
      expect([...bindings.values()].filter((b) => b.content === text)).toHaveLength(1);
    }
    const quiet = await w.pass();
    expect(Object.values(quiet.counts).every((n) => n === 0)).toBe(true);
  }

  test('after creating a binding', async () => {
    w = await createSyncWorld();
    write('a.md', '# A\n\nOne.\n');
    write('b.md', '# B\n\nTwo.\n');
    await cutThenFinish('create');
    await expectInStep({ 'a.md': '# A\n\nOne.\n', 'b.md': '# B\n\nTwo.\n' });
  });

  test('after a new version from a file', async () => {
    w = await createSyncWorld();
    write('a.md', '# A\n\nOne.\n');
    await w.pass();
    write('a.md', '# A\n\nOne, changed.\n');
    const { counts } = await cutThenFinish('update');
    expect(counts.conflict).toBe(0);
    await expectInStep({ 'a.md': '# A\n\nOne, changed.\n' });
  });

  test('after writing a file back', async () => {
    w = await createSyncWorld();
    write('a.md', '# A\n\nOne.\n');
    await w.pass();
    await ok(w.mcp, 'update_binding', { id: (await idOf('# A\n\nOne.\n'))!, content: '# A\n\nFrom Bindery.\n' });
    const { counts } = await cutThenFinish('write');
    expect(counts.conflict).toBe(0);
    await expectInStep({ 'a.md': '# A\n\nFrom Bindery.\n' });
  });

  test("after writing a new binding's file", async () => {
    w = await createSyncWorld();
    await w.pass();
    await ok(w.mcp, 'create_binding', { name: 'New one', summary: 'Made in Bindery.', content: 'New body.\n' });
    await cutThenFinish('write');
    const files = readdirSync(w.dir).filter((f) => f.endsWith('.md'));
    expect(files).toHaveLength(1);
    expect((await live()).size).toBe(1);
    expect(Object.values((await w.pass()).counts).every((n) => n === 0)).toBe(true);
  });

  test('after deleting a binding, removing a file, and resolving a conflict', async () => {
    w = await createSyncWorld();
    write('del.md', '# Del\n\nx\n');
    write('rem.md', '# Rem\n\ny\n');
    write('con.md', '# Con\n\nz\n');
    await w.pass();
    unlinkSync(join(w.dir, 'del.md'));
    await cutThenFinish('delete');
    await ok(w.mcp, 'delete_binding', { id: (await idOf('# Rem\n\ny\n'))! });
    await cutThenFinish('remove');
    await ok(w.mcp, 'update_binding', { id: (await idOf('# Con\n\nz\n'))!, content: '# Con\n\nBindery.\n' });
    write('con.md', '# Con\n\nFolder.\n');
    const { counts } = await cutThenFinish('conflict');
    expect(counts.conflict).toBe(0);
    await expectInStep({ 'con.md': '# Con\n\nFolder.\n' });
    expect(read('con.bindery-conflict-v2.md')).toBe('# Con\n\nBindery.\n');
  });
});

describe("a watcher's pass", () => {
  test('looks only at the paths it is given (a rename named by both paths keeps its binding); none: Bindery’s side alone', async () => {
    w = await createSyncWorld();
    write('a.md', '# A\n\nOne.\n');
    write('b.md', '# B\n\nTwo.\n');
    write('c.md', '# C\n\nThree.\n');
    await w.pass();
    const cId = (await idOf('# C\n\nThree.\n'))!;
    write('a.md', '# A\n\nOne, edited.\n');
    write('b.md', '# B\n\nTwo, edited.\n');
    const narrow = await w.pass({ only: ['a.md', 'nothing-here.md', 'not-markdown.txt'] });
    expect(narrow.counts).toMatchObject({ updated: 1, deleted: 0, created: 0 });
    expect(narrow.reads).toBe(1);
    expect(await idOf('# B\n\nTwo.\n')).toBeDefined();
    renameSync(join(w.dir, 'c.md'), join(w.dir, 'c2.md'));
    const moved = await w.pass({ only: ['c.md', 'c2.md'] });
    expect(moved.counts).toMatchObject({ renamed: 1, deleted: 0, created: 0 });
    expect((await live()).get(cId)!.sourcePath).toBe('c2.md');
    await ok(w.mcp, 'update_binding', { id: cId, content: '# C\n\nFrom Bindery.\n' });
    const dbOnly = await w.pass({ only: [] });
    expect(dbOnly.reads).toBe(0);
    expect(dbOnly.counts).toMatchObject({ written: 1, updated: 0 });
    expect(read('c2.md')).toBe('# C\n\nFrom Bindery.\n');
    expect((await w.pass()).counts.updated).toBe(1);
  });
});

describe('the command', () => {
  test('a folder imported before is picked up by its first sync: no binding made twice', async () => {
    w = await createSyncWorld();
    write('a.md', '# A\n\nImported first.\n');
    write('b/c.md', '# C\n\nImported too.\n');
    await importFolder(w.deps, w.caller, w.dir, () => undefined);
    write('a.md', '# A\n\nImported first, then edited.\n');
    const { counts } = await w.pass();
    expect(counts).toMatchObject({ created: 0, adopted: 2 });
    expect((await live()).size).toBe(2);
    expect(await idOf('# A\n\nImported first, then edited.\n')).toBeDefined();
  });

  test('on a terminal, a progress line is drawn on stderr; the summary goes to stdout; a bad --space exits 2 naming it', async () => {
    w = await createSyncWorld();
    for (let i = 0; i < 5; i++) write(`n${i}.md`, `# N${i}\n\nText.\n`);
    let err = '';
    let out = '';
    const saved = process.env.BINDERY_DB_URL;
    process.env.BINDERY_DB_URL = w.url;
    try {
      const code = await syncMain([w.dir], {
        err: { isTTY: true, write: (t: string) => (err += t) },
        out: { write: (t: string) => (out += t) },
      });
      expect(code).toBe(0);
      expect(err).toMatch(/\r\d+ files/);
      expect(out).toMatch(
        /^synced .* with @local: 5 created, 0 updated, 0 renamed, 0 deleted, 0 written to the folder, 0 removed from the folder, 0 conflicts, 0 skipped\n$/,
      );
      err = '';
      expect(await syncMain([w.dir, '--space', 'nope'], { err: { write: (t: string) => (err += t) }, out: { write: () => true } })).toBe(2);
      expect(err).toContain('no space "nope"');
    } finally {
      process.env.BINDERY_DB_URL = saved;
    }
  });
});
