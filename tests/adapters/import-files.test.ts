// `bindery import` against a folder that changes under it: between listing and opening a file is
// swapped for a link to a secret outside the folder, a folder is swapped for a link, a swap is undone
// right after the open; none of them may import the secret, and each is reported as skipped.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { importFolder } from '../../adapters/cli/import.ts';
import type { ReadHooks } from '../../adapters/cli/import-files.ts';
import type { ImportOutcome } from '../../core/services/import.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { createTestWorld, type TestWorld } from '../helpers.ts';

const SECRET = '-----BEGIN OPENSSH PRIVATE KEY----- hunter2secret';

let world: TestWorld;
let base: string;
let docs: string;
let home: string;
let run = 0;

beforeAll(async () => {
  world = await createTestWorld({ BINDERY_MAX_CONTENT_BYTES: '1000' });
});
afterAll(() => world.close());

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'bindery-import-race-'));
  docs = join(base, 'docs');
  home = join(base, 'home');
  mkdirSync(join(docs, 'sub'), { recursive: true });
  mkdirSync(join(home, 'sub'), { recursive: true });
  writeFileSync(join(docs, 'a.md'), '# A\n\nInside the folder.\n');
  writeFileSync(join(docs, 'b.md'), '# B\n\nInside too.\n');
  writeFileSync(join(docs, 'sub', 'c.md'), '# C\n\nIn a subfolder.\n');
  writeFileSync(join(home, 'id_rsa'), SECRET);
  writeFileSync(join(home, 'sub', 'c.md'), SECRET);
});

/** Imports `docs` as a fresh user; the outcome of each file by relative path, and whether the secret got in. */
async function importWith(hooks?: ReadHooks) {
  const deps = { db: world.db, tokens: world.tokens, config: world.config, now: () => Date.now() };
  const caller = await ensureCaller(deps, `importer${++run}`);
  const outcomes: Record<string, ImportOutcome> = {};
  const counts = await importFolder(deps, caller, docs, (path, outcome) => (outcomes[path] = outcome), hooks);
  const leaked = await world.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM versions WHERE content LIKE ${'%hunter2secret%'}`);
  rmSync(base, { recursive: true, force: true });
  return { outcomes, counts, leaked: Number(leaked?.n) };
}

/** A hook that runs `swap` once, for the listed file whose path ends with `suffix`. */
const onFile = (suffix: string, swap: () => void) => (path: string) => {
  if (path.endsWith(suffix)) swap();
};

describe('import reads what it listed, never what a link points at', () => {
  test('a file swapped for a symlink to a secret between listing and opening is skipped, not followed', async () => {
    const { outcomes, counts, leaked } = await importWith({
      beforeOpen: onFile('a.md', () => {
        unlinkSync(join(docs, 'a.md'));
        symlinkSync(join(home, 'id_rsa'), join(docs, 'a.md'));
      }),
    });
    expect(leaked).toBe(0);
    expect(outcomes['a.md']).toEqual({ status: 'skipped', reason: 'became a symbolic link after it was listed; links are not followed' });
    expect(outcomes['b.md']!.status).toBe('created');
    expect(counts).toEqual({ created: 2, updated: 0, unchanged: 0, skipped: 1 });
  });

  test('a folder swapped for a symlink to a folder outside is caught after opening', async () => {
    const { outcomes, leaked } = await importWith({
      beforeOpen: onFile('c.md', () => {
        renameSync(join(docs, 'sub'), join(base, 'moved'));
        symlinkSync(join(home, 'sub'), join(docs, 'sub'));
      }),
    });
    expect(leaked).toBe(0);
    expect(outcomes['sub/c.md']).toEqual({ status: 'skipped', reason: 'its folder became a symbolic link after it was listed; not read' });
    expect(outcomes['a.md']!.status).toBe('created');
  });

  test('a folder swap undone right after the open is caught by the handle’s device and inode', async () => {
    const { outcomes, leaked } = await importWith({
      beforeOpen: onFile('c.md', () => {
        renameSync(join(docs, 'sub'), join(base, 'moved'));
        symlinkSync(join(home, 'sub'), join(docs, 'sub'));
      }),
      afterOpen: onFile('c.md', () => {
        unlinkSync(join(docs, 'sub'));
        renameSync(join(base, 'moved'), join(docs, 'sub'));
      }),
    });
    expect(leaked).toBe(0);
    expect(outcomes['sub/c.md']).toEqual({ status: 'skipped', reason: 'it was replaced while being opened; not read' });
  });

  test('links present at listing time are named as skipped: to a file (inside or out) and to a folder', async () => {
    symlinkSync(join(docs, 'b.md'), join(docs, 'alias.md'));
    symlinkSync(join(home, 'id_rsa'), join(docs, 'notes.md'));
    symlinkSync(join(home, 'sub'), join(docs, 'linked'));
    const { outcomes, counts, leaked } = await importWith();
    expect(leaked).toBe(0);
    expect(outcomes['alias.md']).toEqual({ status: 'skipped', reason: 'a symbolic link; links are not followed' });
    expect(outcomes['notes.md']).toEqual({ status: 'skipped', reason: 'a symbolic link; links are not followed' });
    expect(outcomes['linked']).toEqual({ status: 'skipped', reason: 'a symbolic link to a folder; links are not followed' });
    expect(counts).toEqual({ created: 3, updated: 0, unchanged: 0, skipped: 3 });
  });

  test('a file swapped for a FIFO or grown past the size limit is skipped without hanging or reading it all', async () => {
    const { outcomes } = await importWith({
      beforeOpen(path) {
        if (path.endsWith('a.md')) {
          unlinkSync(path);
          Bun.spawnSync(['mkfifo', path]);
        }
        if (path.endsWith('b.md')) writeFileSync(path, `# B\n\n${'x'.repeat(2000)}\n`);
      },
    });
    expect(outcomes['a.md']).toEqual({ status: 'skipped', reason: 'not a regular file' });
    expect(outcomes['b.md']).toEqual({ status: 'skipped', reason: 'is 2006 bytes; the limit is 1000 bytes (BINDERY_MAX_CONTENT_BYTES)' });
    expect(outcomes['sub/c.md']!.status).toBe('created');
  });
});
