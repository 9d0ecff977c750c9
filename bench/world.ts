// The world most benchmarks start from: an in-memory Bindery, migrated, with the real tokenizer
// loaded, a caller, and a factory for MCP sessions over InMemoryTransport.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createDatabase, migrate } from '../db/index.ts';
import { createBinderyServer, createTiktokenCounter, parseConfig, type ToolMode } from '../core/index.ts';
import { ensureCaller } from '../core/services/prepare.ts';
import type { CoreDeps } from '../core/services/bindings.ts';

/** A fresh in-memory world; `env` overrides the configuration (e.g. embeddings, tool mode). */
export async function benchWorld(env: Record<string, string | undefined> = {}) {
  const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager', ...env });
  const database = createDatabase({ url: config.dbUrl });
  await migrate(database.db);
  const tokens = createTiktokenCounter(config.tokenizer);
  await tokens.load();
  const deps: CoreDeps = { db: database.db, tokens, config, now: () => Date.now() };
  const caller = await ensureCaller(deps, 'bench');
  /** A new MCP session as the bench caller, in the given tool mode. */
  const connect = async (name: string, mode: ToolMode = config.toolMode) => {
    const server = createBinderyServer(deps, { caller, mode });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(a);
    return client;
  };
  return { deps, tokens, caller, connect, close: () => database.close() };
}
