import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createDatabase, migrate, type BinderyDb } from '../../db/index.ts';
import { createBinderyServer, parseConfig } from '../../core/index.ts';
import { ensureCaller } from '../../core/services/prepare.ts';
import { afterAll } from 'bun:test';
import { createTestWorld, testCounter, type TestWorld } from '../helpers.ts';

/** The error code of a tool result (`_meta.context.error.code`), or `OK`. */
export function codeOf(result: CallToolResult): string {
  if (!result.isError) return 'OK';
  return (result._meta as { context: { error: { code: string } } }).context.error.code;
}

/** Runs `fn` after `ticks` turns of the event loop, so racing calls start in varied orders. */
export async function after<T>(ticks: number, fn: () => Promise<T>): Promise<T> {
  for (let i = 0; i < ticks; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  return fn();
}

/** Runs `fn` after `n` microtask turns: finer than `after`, to land between two awaits of one call. */
export async function afterMicrotasks<T>(n: number, fn: () => Promise<T>): Promise<T> {
  for (let i = 0; i < n; i++) await Promise.resolve();
  return fn();
}

/** 0, 1, …, n-1. */
/** A fresh in-memory world, closed when the test file ends. */
export async function world(): Promise<TestWorld> {
  return track(await createTestWorld());
}

/** Closes `w` when the test file ends. */
export function track<T extends { close(): void }>(w: T): T {
  worlds.push(w);
  return w;
}
const worlds: { close(): void }[] = [];
afterAll(() => worlds.forEach((w) => w.close()));

export const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** One number from a `SELECT count(*) AS n …`. */
export async function countOf(db: BinderyDb, query: ReturnType<typeof sql>): Promise<number> {
  const row = await db.get<{ n: number }>(query);
  return Number(row?.n ?? 0);
}

/** An MCP client acting as `handle` (created on first use), served by a fresh server over `db`. */
export async function connectOn(db: BinderyDb, handle: string, clients: Client[] = []): Promise<Client> {
  const deps = { db, tokens: await testCounter(), config: parseConfig({ BINDERY_TOOL_MODE: 'eager' }), now: () => Date.now() };
  const caller = await ensureCaller(deps, handle);
  const server = createBinderyServer(deps, { caller, mode: 'eager' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bindery-races', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

export interface TwoHandleWorld {
  /** Two database handles (two libSQL connections) on one file. */
  dbs: [BinderyDb, BinderyDb];
  /** An MCP client acting as `handle`, served over database handle `which`. */
  connect(which: 0 | 1, handle: string): Promise<Client>;
  close(): void;
}

/**
 * Two separate database handles opened on one temporary file, each with its own MCP servers: the
 * races between them are real races between connections, not interleavings on one.
 */
export async function createTwoHandleWorld(): Promise<TwoHandleWorld> {
  const path = join(tmpdir(), `bindery-races-${crypto.randomUUID()}.db`);
  const url = `file:${path}`;
  const first = createDatabase({ url });
  await migrate(first.db);
  const second = createDatabase({ url });
  const clients: Client[] = [];
  return {
    dbs: [first.db, second.db],
    connect: (which, handle) => connectOn([first, second][which]!.db, handle, clients),
    close() {
      for (const c of clients) void c.close();
      first.close();
      second.close();
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
    },
  };
}
