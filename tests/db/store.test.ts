import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { versionsTable } from '../../db/schema/index.ts';
import { createDatabase, migrate, migrationsCurrent } from '../../db/index.ts';
import { migrations } from '../../db/migrations/bundle.ts';
import { appendVersion, softDeleteBinding } from '../../db/store/binding-writes.ts';
import { ftsQuery, searchBindingRows } from '../../db/store/search.ts';
import { createBinding } from '../../core/services/bindings.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { parseConfig } from '../../core/index.ts';
import { testCounter } from '../helpers.ts';

const DIR = join(import.meta.dir, '..', '..', 'db', 'migrations');

async function freshStore() {
  const config = parseConfig({ BINDERY_DB_URL: ':memory:' });
  const database = createDatabase({ url: config.dbUrl });
  await migrate(database.db);
  const deps = { db: database.db, tokens: await testCounter(), config, now: () => Date.now() };
  return { ...database, deps, caller: await ensureCaller(deps, 'store') };
}

describe('migrations', () => {
  test('the bundled migrations are exactly the drizzle-kit files, in journal order', () => {
    const journal = JSON.parse(readFileSync(join(DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    expect(migrations.map((m) => m.tag)).toEqual(journal.entries.map((e) => e.tag));
    for (const m of migrations) {
      const file = readFileSync(join(DIR, `${m.tag}.sql`), 'utf8');
      const statements = file
        .split('--> statement-breakpoint')
        .map((s) => s.trim())
        .filter(Boolean);
      expect(m.statements).toEqual(statements);
    }
  });

  test('apply once, are idempotent, and report current', async () => {
    const { db, close } = createDatabase({ url: ':memory:' });
    expect(await migrationsCurrent(db)).toBe(false);
    expect(await migrate(db)).toEqual(migrations.map((m) => m.tag));
    expect(await migrate(db)).toEqual([]);
    expect(await migrationsCurrent(db)).toBe(true);
    close();
  });
});

describe('store invariants', () => {
  test('the unique (binding, number) index refuses a second version with the same number', async () => {
    const { deps, caller, close } = await freshStore();
    const row = await createBinding(deps, caller, { name: 'Race', content: 'one', summary: 's' }, { source: 'human', model: null });
    const version = (await deps.db.select().from(versionsTable).where(eq(versionsTable.bindingId, row.bindingId)).get())!;
    const next = { ...version, id: 'ver_next', number: 2 };
    expect(await appendVersion(deps.db, row.bindingId, next, Date.now())).toBe(true);
    // A writer that read version 1 too now collides on (binding, 2): refused, nothing half-written.
    expect(await appendVersion(deps.db, row.bindingId, { ...next, id: 'ver_late' }, Date.now())).toBe(false);
    const numbers = await deps.db.all<{ number: number }>(
      sql`SELECT number FROM versions WHERE binding_id = ${row.bindingId} ORDER BY number`,
    );
    expect(numbers.map((n) => n.number)).toEqual([1, 2]);
    close();
  });

  test('the search index follows writes and deletes in the same batch', async () => {
    const { deps, caller, close } = await freshStore();
    const row = await createBinding(
      deps,
      caller,
      { name: 'Quokka habits', content: 'Quokkas smile.', summary: 'About quokkas.' },
      { source: 'human', model: null },
    );
    const find = async (q: string) =>
      (await searchBindingRows(deps.db, ftsQuery(q)!, { userId: caller.id, offset: 0, limit: 10 })).rows.map((r) => r.bindingId);
    expect(await find('quokka')).toEqual([row.bindingId]);
    await softDeleteBinding(deps.db, row.bindingId, Date.now());
    expect(await find('quokka')).toEqual([]);
    const fts = await deps.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM bindings_fts`);
    expect(Number(fts?.n)).toBe(0);
    close();
  });
});
