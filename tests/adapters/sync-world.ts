// A real folder in a temporary directory and a real libSQL file, paired by `bindery sync`'s engine,
// with an MCP client (the SDK's Client over InMemoryTransport) acting as an assistant on the same
// database. Shared by the sync tests and the sync benchmark.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createDatabase, migrate } from '../../db/index.ts';
import { createBinderyServer, parseConfig } from '../../core/index.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import type { CoreDeps } from '../../core/services/bindings.ts';
import type { SyncCounts, SyncEvent, SyncHooks, SyncSession } from '../../core/services/sync.ts';
import { syncPass } from '../../core/services/sync-pass.ts';
import type { Caller } from '../../core/context.ts';
import { openSyncSession } from '../../adapters/cli/sync.ts';
import { testCounter } from '../helpers.ts';

export interface SyncWorld {
  base: string;
  /** The synced folder. */
  dir: string;
  url: string;
  deps: CoreDeps;
  caller: Caller;
  /** An assistant on the same database (writes are `source: llm`). */
  mcp: Client;
  /** Runs one pass; `events` are this pass's, `reads` how many files it read. */
  pass(opts?: { hooks?: SyncHooks; space?: string; only?: string[] }): Promise<{ counts: SyncCounts; events: SyncEvent[]; reads: number }>;
  close(): void;
}

/** A fresh folder and database; `env` adds configuration (BINDERY_MAX_CONTENT_BYTES…). */
export async function createSyncWorld(env: Record<string, string> = {}): Promise<SyncWorld> {
  const base = mkdtempSync(join(tmpdir(), 'bindery-sync-'));
  const dir = join(base, 'notes');
  mkdirSync(dir);
  const url = `file:${join(base, 'bindery.db')}`;
  const config = parseConfig({ BINDERY_DB_URL: url, BINDERY_TOOL_MODE: 'eager', ...env });
  const database = createDatabase({ url });
  await migrate(database.db);
  const deps: CoreDeps = { db: database.db, tokens: await testCounter(), config, now: () => Date.now() };
  const caller = await ensureCaller(deps, 'local');
  const server = createBinderyServer(deps, { caller });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const mcp = new Client({ name: 'assistant', version: '1.0.0' });
  await mcp.connect(a);
  let session: SyncSession | undefined;
  return {
    base,
    dir,
    url,
    deps,
    caller,
    mcp,
    async pass(opts = {}) {
      const events: SyncEvent[] = [];
      let reads = 0;
      const report = (e: SyncEvent) => events.push(e);
      if (!session || opts.space) session = await openSyncSession(deps, caller, dir, { space: opts.space, report });
      const folder = session.folder;
      const counted = { ...folder, read: (p: string, max: number) => (reads++, folder.read(p, max)) };
      const counts = await syncPass({ ...session, folder: counted, report, hooks: opts.hooks }, opts.only && new Set(opts.only));
      return { counts, events, reads };
    },
    close() {
      void mcp.close();
      database.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}
