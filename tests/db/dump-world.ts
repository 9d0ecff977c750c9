// A database holding every kind of row Bindery keeps, for the dump/restore suites: the v0.3.0 fixture
// (written by that release), migrated, plus what it lacks — a long binding (beyond one SQL chunk, with
// astral characters at the seams), an API key whose plaintext the test knows, a web session, a login
// link and an OAuth client with a token.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createDatabase, migrate } from '../../db/index.ts';
import { createBinderyServer, parseConfig } from '../../core/index.ts';
import { createApiKey } from '../../core/http/auth.ts';
import { ensureCaller, ensureCountsCurrent } from '../../core/services/prepare.ts';
import { ensureCommentCounts } from '../../core/services/comments.ts';
import { ensureHelpTopics } from '../../core/services/help.ts';
import { ok, testCounter } from '../helpers.ts';

export const LONG_CONTENT = `# Long\n\n${Array.from({ length: 900 }, (_, i) => `## Part ${i}\n\nÜber 🦓 'quoted' text ${i}; semicolons;\nand -- dashes.\n`).join('\n')}`;

export interface DumpWorld {
  url: string;
  key: string;
  longId: string;
}

/** Writes the world into `file` (a copy of the v0.3.0 fixture, migrated and kept current). */
export async function buildDumpWorld(file: string, env: Record<string, string> = {}): Promise<DumpWorld> {
  copyFileSync(join(import.meta.dir, '../fixtures/db/v0.3.0.db'), file);
  const url = `file:${file}`;
  const config = parseConfig({ BINDERY_DB_URL: url, BINDERY_TOOL_MODE: 'eager', ...env });
  const database = createDatabase({ url });
  await migrate(database.db);
  const deps = { db: database.db, tokens: await testCounter(), config, now: () => Date.now() };
  await ensureCountsCurrent(deps);
  await ensureCommentCounts(deps);
  await ensureHelpTopics(deps);
  const alice = await ensureCaller(deps, 'alice');
  const server = createBinderyServer(deps, { caller: alice });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: 'dump-world', version: '1.0.0' });
  await client.connect(a);
  const long = await ok(client, 'create_binding', {
    name: 'Long document',
    content: LONG_CONTENT,
    summary: 'A long one.',
    keyPoints: ['many parts', 'zebra'],
  });
  await client.close();
  const { key } = await createApiKey(database.db, alice.id, 1_800_000_000_000, 'dump key');
  const c = database.client;
  await c.execute({
    sql: `INSERT INTO web_sessions (id, token_hash, user_id, csrf_secret, created_at, last_seen_at, expires_at) VALUES ('wss_1', ?, ?, 'csrf', 1, 2, 9999999999999)`,
    args: ['a'.repeat(64), alice.id],
  });
  await c.execute({
    sql: `INSERT INTO login_links (id, token_hash, user_id, created_at, expires_at) VALUES ('lnk_1', ?, ?, 1, 2)`,
    args: ['b'.repeat(64), alice.id],
  });
  await c.execute(
    `INSERT INTO oauth_clients (id, name, redirect_uris, metadata, created_at) VALUES ('cli_1', 'A client', '["https://app.example/cb"]', '{}', 3)`,
  );
  // An embedding (db/schema/vectors.ts), an F32_BLOB: the one blob a dump carries.
  await c.execute({
    sql: `INSERT INTO binding_vectors (binding_id, version_id, model, dims, vector, created_at) SELECT id, ?, 'stand-in', 3, vector32('[0.25, -1.5, 3e-7]'), 5 FROM bindings WHERE id = ?`,
    args: [long.binding.versionId ?? 'ver_x', long.binding.id],
  });
  await c.execute({
    sql: `INSERT INTO oauth_tokens (id, token_hash, kind, family_id, client_id, user_id, resource, created_at, expires_at) VALUES ('tok_1', ?, 'refresh', 'fam_1', 'cli_1', ?, 'https://kb.example/mcp', 4, 9999999999999)`,
    args: ['c'.repeat(64), alice.id],
  });
  // A folder kept in step by `bindery sync`: its pairing and one file's state.
  await c.execute({
    sql: `INSERT INTO sync_roots (id, path, space_id, created_at) SELECT 'syr_1', '/home/alice/notes', space_id, 6 FROM bindings WHERE id = ?`,
    args: [long.binding.id],
  });
  await c.execute({
    sql: `INSERT INTO sync_files (root_id, path, binding_id, version, hash, size, mtime_ms, format, synced_at) VALUES ('syr_1', 'long.md', ?, 1, ?, 12, 1759276800123, 'export', 7)`,
    args: [long.binding.id, 'd'.repeat(64)],
  });
  database.close();
  return { url, key, longId: long.binding.id };
}
