/**
 * Writes a fixture database with the release checked out: every kind of row Bindery keeps (users,
 * keys, spaces, bindings with several versions, sets with pins, shares, comments, help topics).
 * Run once per schema-changing release, before its first migration:
 *   bun scripts/make-fixture-db.ts tests/fixtures/db/<release>.db
 * tests/db/upgrade.test.ts migrates each fixture with the current code and reads everything back.
 */
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createDatabase, migrate } from '../db/index.ts';
import { createBinderyServer, createTiktokenCounter, parseConfig } from '../core/index.ts';
import { createApiKey } from '../core/http/auth.ts';
import { ensureCaller, ensureCountsCurrent } from '../core/services/prepare.ts';
import { ensureHelpTopics } from '../core/services/help.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: bun scripts/make-fixture-db.ts <file.db>');
rmSync(file, { force: true });
const config = parseConfig({ BINDERY_DB_URL: `file:${file}`, BINDERY_TOOL_MODE: 'eager' });
const database = createDatabase({ url: config.dbUrl });
await migrate(database.db);
const tokens = createTiktokenCounter(config.tokenizer);
await tokens.load();
let clock = Date.UTC(2026, 9, 1);
const deps = { db: database.db, tokens, config, now: () => (clock += 1000) };
await ensureCountsCurrent(deps);
await ensureHelpTopics(deps);

async function connect(handle: string, clientName = 'fixture-writer'): Promise<Client> {
  const caller = await ensureCaller(deps, handle);
  const server = createBinderyServer(deps, { caller });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(a);
  return client;
}
async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  return r.structuredContent;
}

const alice = await connect('alice');
const bob = await connect('bob');
await createApiKey(deps.db, (await ensureCaller(deps, 'alice')).id, deps.now(), 'fixture key');
await ok(alice, 'create_space', { slug: 'team-docs', name: 'Team docs', visibility: 'public' });
const long = Array.from({ length: 120 }, (_, i) => `## Part ${i}\n\nParagraph ${i} about caching, retries and the zebra protocol.\n`).join(
  '\n',
);
const ids: string[] = [];
for (let i = 1; i <= 6; i++) {
  const b = await ok(alice, 'create_binding', {
    space: i % 2 ? '@alice' : '@team-docs',
    name: `Fixture note ${i}`,
    content: i === 3 ? long : `# Note ${i}\n\nBody of note ${i} with ünïcödé, 日本語 and emoji 🦓.\n`,
    summary: `Summary ${i}.`,
    keyPoints: [`point ${i}a`, `point ${i}b`],
    model: i % 2 ? 'fixture-model-1' : undefined,
  });
  ids.push(b.binding.id);
}
await ok(alice, 'update_binding', { id: ids[0], content: '# Note 1\n\nSecond version.\n', expectedVersion: 1 });
await ok(alice, 'update_binding', { id: ids[0], summary: 'Summary 1, third version.', expectedVersion: 2 });
await ok(alice, 'delete_binding', { id: ids[5] });
const set = (await ok(alice, 'create_set', { name: 'Fixture set', bindingIds: ids.slice(0, 4) })).set;
await ok(alice, 'edit_set_items', { id: set.id, add: [{ bindingId: ids[4], version: 1 }] });
const toBob = await ok(alice, 'create_share', { target: ids[0], user: 'bob', permission: 'comment' });
// Releases with share acceptance: bob accepts, so the share is in his default scope as in 0.1.0.
if (toBob.share?.accepted === false) await ok(bob, 'create_share', { accept: toBob.share.id });
await ok(alice, 'create_share', { target: ids[2], public: true, permission: 'read' });
await ok(alice, 'add_comment', { id: ids[0], body: 'An LLM comment on the first note.' });
await ok(bob, 'add_comment', { id: ids[0], body: 'Bob was here.', version: 2 });
await alice.close();
await bob.close();
const counts = await database.client.execute(
  'SELECT (SELECT count(*) FROM versions) v, (SELECT count(*) FROM shares) s, (SELECT count(*) FROM comments) c, (SELECT count(*) FROM set_items) i, (SELECT count(*) FROM api_keys) k',
);
console.log(JSON.stringify(counts.rows[0]));
database.close();
