// 10(a): `bindery export` then `bindery import` into a fresh database file gives every
// binding back under its own slug (two names that slugify alike used to swap URLs) with its provenance
// (source and model used to come back `human`), and every exported file says what it does not carry.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { parseConfig } from '../../core/index.ts';
import { createBinding, type CoreDeps } from '../../core/services/bindings.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { NOT_CARRIED } from '../../core/services/export-format.ts';
import { createDatabase, migrate, type Database } from '../../db/index.ts';
import { exportFolder } from '../../adapters/cli/export.ts';
import { importFolder } from '../../adapters/cli/import.ts';
import type { ImportOutcome } from '../../core/services/import.ts';
import { testCounter } from '../helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'bindery-roundtrip-'));
const quiet = { write: () => true, isTTY: false };
const opened: Database[] = [];
afterAll(() => {
  for (const d of opened) d.close();
  rmSync(dir, { recursive: true, force: true });
});

async function world(file: string): Promise<{ database: Database; deps: CoreDeps }> {
  const url = `file:${join(dir, file)}`;
  const database = createDatabase({ url });
  opened.push(database);
  await migrate(database.db);
  return {
    database,
    deps: { db: database.db, tokens: await testCounter(), config: parseConfig({ BINDERY_DB_URL: url }), now: () => Date.now() },
  };
}

const rows = (database: Database) =>
  database.db.all<{ slug: string; content: string; source: string; model: string | null }>(sql`
    SELECT b.slug AS slug, v.content AS content, v.source AS source, v.model AS model
    FROM bindings b JOIN versions v ON v.binding_id = b.id AND v.number = b.current_version WHERE b.deleted_at IS NULL ORDER BY b.slug`);

describe('export → import round trip', () => {
  test('same slugs for names that slugify alike, same source and model', async () => {
    const source = await world('source.db');
    const alice = await ensureCaller(source.deps, 'alice');
    await createBinding(
      source.deps,
      alice,
      { name: 'base64-js', summary: 'First.', content: 'the first one' },
      { source: 'human', model: null },
    );
    await createBinding(
      source.deps,
      alice,
      { name: 'base64-js', summary: 'Second.', content: 'the second one' },
      { source: 'llm', model: 'claude-test-1' },
    );
    await createBinding(
      source.deps,
      alice,
      { name: 'Base64 JS', summary: 'Third.', content: 'the third one' },
      { source: 'llm', model: null },
    );
    const before = await rows(source.database);
    expect(before.map((r) => r.slug)).toEqual(['base64-js', 'base64-js-2', 'base64-js-3']);

    const folder = join(dir, 'out');
    await exportFolder(source.deps, alice, folder, { space: 'alice', sink: quiet, summarySink: quiet });
    const text = readFileSync(join(folder, 'alice', 'base64-js-2.md'), 'utf8');
    expect(text).toContain(NOT_CARRIED);
    expect(text).toContain('slug: base64-js-2');

    const target = await world('target.db');
    const bob = await ensureCaller(target.deps, 'alice');
    expect(await importFolder(target.deps, bob, join(folder, 'alice'), () => {})).toEqual({
      created: 3,
      updated: 0,
      unchanged: 0,
      skipped: 0,
    });
    expect(await rows(target.database)).toEqual(before);
  });

  test('a slug taken in the target space by another binding: the next free one, and the import says so', async () => {
    const target = await world('taken.db');
    const alice = await ensureCaller(target.deps, 'alice');
    await createBinding(
      target.deps,
      alice,
      { name: 'Base64 js 2', summary: 'Already here.', content: 'other' },
      { source: 'human', model: null },
    );
    const outcomes: [string, ImportOutcome][] = [];
    await importFolder(target.deps, alice, join(dir, 'out', 'alice'), (path, outcome) => outcomes.push([path, outcome]));
    const second = outcomes.find(([path]) => path === 'base64-js-2.md')![1];
    expect(second.status === 'created' && second.warnings).toEqual([
      'slug base64-js-2 is taken in @alice; this binding is at base64-js-2-2',
    ]);
    expect((await rows(target.database)).map((r) => r.slug)).toEqual(['base64-js', 'base64-js-2', 'base64-js-2-2', 'base64-js-3']);
  });
});
