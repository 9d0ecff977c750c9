// `bindery sync` at scale: a first sync of a folder of 10,000 Markdown files into an empty
// space (BINDERY_BENCH_SYNC_FILES changes the count), a pass with nothing changed, a pass after one
// file changed (it should cost about one file, not 10,000: the ratio is reported), one after an
// assistant's edit is written back, and `--watch` reacting to an edit in the folder and to one made
// in Bindery (latency, median of a few). In-process engine on a real libSQL file and a real folder.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createDatabase, migrate } from '../db/index.ts';
import { createTiktokenCounter, parseConfig } from '../core/index.ts';
import { ensureCaller } from '../core/services/prepare.ts';
import { updateBinding, type CoreDeps } from '../core/services/bindings.ts';
import { syncPass } from '../core/services/sync-pass.ts';
import { spaceFingerprint } from '../db/store/sync.ts';
import { openSyncSession } from '../adapters/cli/sync.ts';
import { watchFolder } from '../adapters/cli/sync-watch.ts';
import { percentiles, round, type BenchSection } from './types.ts';

const FILES = Number(process.env.BINDERY_BENCH_SYNC_FILES ?? 10_000);

/** A note like people keep: a title, a paragraph, a section or two. */
function note(i: number, edit = ''): string {
  return `# Note ${i}\n\nA note about topic zq${i}, kept in a folder of Markdown${edit}.\n\n## Details\n\n${'Some detail text. '.repeat(1 + (i % 7))}\n`;
}

const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const out = await fn();
  return [out, performance.now() - t];
};

async function until(probe: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error('sync bench: gave up waiting');
    await Bun.sleep(2);
  }
}

export async function run(): Promise<BenchSection> {
  const base = mkdtempSync(join(tmpdir(), 'bindery-bench-sync-'));
  const dir = join(base, 'notes');
  for (let i = 0; i < FILES; i++) {
    const sub = join(dir, `part-${i % 50}`);
    if (i < 50) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `note-${i}.md`), note(i));
  }
  const url = `file:${join(base, 'bindery.db')}`;
  const database = createDatabase({ url });
  try {
    await migrate(database.db);
    const config = parseConfig({ BINDERY_DB_URL: url });
    const tokens = createTiktokenCounter(config.tokenizer);
    await tokens.load();
    const deps: CoreDeps = { db: database.db, tokens, config, now: () => Date.now() };
    const caller = await ensureCaller(deps, 'local');
    let reads = 0;
    const session = await openSyncSession(deps, caller, dir, { report: () => undefined });
    const folder = session.folder;
    session.folder = { ...folder, read: (p, max) => (reads++, folder.read(p, max)) };
    const pass = (only?: ReadonlySet<string>) => syncPass(session, only);

    const [first, firstMs] = await time(() => pass());
    if (first.created !== FILES) throw new Error(`sync bench: ${first.created} of ${FILES} files became bindings`);
    reads = 0;
    const [, idleMs] = await time(() => pass());
    const idleReads = reads;
    writeFileSync(join(dir, 'part-7', 'note-7.md'), note(7, ', edited by hand'));
    reads = 0;
    const [one, oneMs] = await time(() => pass());
    if (one.updated !== 1 || reads !== 1) throw new Error(`sync bench: one changed file gave ${one.updated} updates from ${reads} reads`);
    const id = String((await database.client.execute("SELECT binding_id FROM sync_files WHERE path = 'part-9/note-9.md'")).rows[0]![0]);
    await updateBinding(deps, caller, id, { content: note(9, ', edited by an assistant') }, { source: 'llm', model: 'bench' });
    const [back, backMs] = await time(() => pass());
    if (back.written !== 1) throw new Error('sync bench: the assistant edit was not written back');

    // --watch: an edit in the folder → a new version; an edit in Bindery → the file. Median of 5 each.
    const stop = new AbortController();
    const quiet = { isTTY: false, write: () => true };
    let ready!: () => void;
    const started = new Promise<void>((resolve) => (ready = resolve));
    const watching = watchFolder(session.root.path, {
      pass,
      fingerprint: () => spaceFingerprint(deps.db, session.space.id),
      err: quiet,
      label: 'bench',
      signal: stop.signal,
      onReady: ready,
    });
    await started;
    const folderMs: number[] = [];
    const binderyMs: number[] = [];
    const versionOf = async (path: string) =>
      Number(
        (
          await database.client.execute({
            sql: 'SELECT b.current_version FROM sync_files f JOIN bindings b ON b.id = f.binding_id WHERE f.path = ?',
            args: [path],
          })
        ).rows[0]?.[0] ?? 0,
      );
    for (let k = 0; k < 5; k++) {
      const path = `part-11/note-${11 + 50 * k}.md`;
      const before = await versionOf(path);
      const t = performance.now();
      writeFileSync(join(dir, path), note(11 + 50 * k, `, watched edit ${k}`));
      await until(async () => (await versionOf(path)) > before);
      folderMs.push(performance.now() - t);
      await Bun.sleep(300);
      const target = `part-13/note-${13 + 50 * k}.md`;
      const bid = String(
        (await database.client.execute({ sql: 'SELECT binding_id FROM sync_files WHERE path = ?', args: [target] })).rows[0]![0],
      );
      const text = note(13 + 50 * k, `, assistant edit ${k}`);
      const t2 = performance.now();
      await updateBinding(deps, caller, bid, { content: text }, { source: 'llm', model: 'bench' });
      await until(() => readFileSync(join(dir, target), 'utf8') === text);
      binderyMs.push(performance.now() - t2);
      await Bun.sleep(300);
    }
    stop.abort();
    await watching;
    const versions = Number((await database.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM versions`))!.n);

    const perFile = firstMs / FILES;
    const f = percentiles(folderMs);
    const b = percentiles(binderyMs);
    return {
      title: 'Folder sync',
      rows: [
        { metric: `first sync of ${FILES.toLocaleString('en-US')} files (all new)`, value: round(firstMs / 1000, 1), unit: 's' },
        { metric: 'first sync, per file', value: round(perFile, 2), unit: 'ms' },
        { metric: 'pass with nothing changed (files read)', value: `${round(idleMs, 0)} ms (${idleReads})` },
        { metric: 'pass after 1 file changed', value: round(oneMs, 0), unit: 'ms' },
        {
          metric: '1 changed file ÷ first sync',
          value: `${round((oneMs / firstMs) * 100, 2)} % (≈ ${round(oneMs / perFile, 1)} files' worth)`,
          goal: `≪ 100 % (about one file, not ${FILES})`,
          met: oneMs < firstMs / 20,
        },
        { metric: 'pass writing back 1 assistant edit', value: round(backMs, 0), unit: 'ms' },
        { metric: '--watch: folder edit → new version (p50 / max of 5)', value: `${round(f.p50, 0)} / ${round(f.max, 0)} ms` },
        { metric: '--watch: Bindery edit → file (p50 / max of 5)', value: `${round(b.p50, 0)} / ${round(b.max, 0)} ms` },
      ],
      extra: { files: FILES, firstMs, idleMs, idleReads, oneMs, backMs, folderMs, binderyMs, versions },
    };
  } finally {
    database.close();
    rmSync(base, { recursive: true, force: true });
  }
}
