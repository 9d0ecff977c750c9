import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, JSONRPCMessage, Tool } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'bun:test';
import { createDatabase, migrate } from '../db/index.ts';
import { createBinderyServer, parseConfig, type BinderyConfig, type ToolMode } from '../core/index.ts';
import { ensureCaller } from '../core/services/prepare.ts';
import type { TokenCounter } from '../core/tokens/counter.ts';
import { testCounter } from '../support/tokens.ts';

export { testCounter };

export interface TestWorld {
  db: ReturnType<typeof createDatabase>['db'];
  config: BinderyConfig;
  tokens: TokenCounter;
  /** Connects a new MCP client session as `handle` (created on first use). */
  connect(handle?: string, opts?: { mode?: ToolMode; clientName?: string }): Promise<Client>;
  close(): void;
}

/** A real in-memory libSQL database, migrated, with a server factory wired over InMemoryTransport. */
export async function createTestWorld(env: Record<string, string> = {}): Promise<TestWorld> {
  const config = parseConfig({ BINDERY_DB_URL: ':memory:', BINDERY_TOOL_MODE: 'eager', ...env });
  const database = createDatabase({ url: config.dbUrl });
  await migrate(database.db);
  const tokens = await testCounter();
  const deps = { db: database.db, tokens, config, now: () => Date.now() };
  const clients: Client[] = [];
  return {
    db: database.db,
    config,
    tokens,
    async connect(handle = 'local', opts = {}) {
      const caller = await ensureCaller(deps, handle);
      const server = createBinderyServer(deps, { caller, mode: opts.mode });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: opts.clientName ?? 'bindery-tests', version: '1.0.0' });
      await client.connect(clientSide);
      clients.push(client);
      return client;
    },
    close() {
      for (const c of clients) void c.close();
      database.close();
    },
  };
}

/** Text of a tool result's single text block. */
export function textOf(result: CallToolResult | Record<string, unknown>): string {
  const content = (result as CallToolResult).content;
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  return (content[0] as { text: string }).text;
}

/** `_meta.context` of a result. */
export function contextOf(result: CallToolResult | Record<string, unknown>): Record<string, any> {
  return ((result as CallToolResult)._meta as { context: Record<string, any> }).context;
}

/**
 * Calls a tool and checks the invariants every result must keep: one text block, `_meta.context`
 * present, and `response.tokens` equal to an independent js-tiktoken count of the text.
 */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = textOf(result);
  const { Tiktoken } = await import('js-tiktoken/lite');
  const ranks = (await import('js-tiktoken/ranks/o200k_base')).default;
  independent ??= new Tiktoken(ranks);
  expect(contextOf(result).response.tokens).toBe(independent.encode(text, [], []).length);
  return result;
}
let independent: import('js-tiktoken/lite').Tiktoken | undefined;

/** Calls a tool that must succeed; returns its structured content. */
export async function ok<T = any>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T & { _result: CallToolResult }> {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return { ...(result.structuredContent as T), _result: result };
}

/** The error message a request (not a tool call) fails with; fails the test when it succeeds. */
export async function rejection(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected the request to fail');
}

/** Calls a tool that must fail; returns the error text. */
export async function err(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await call(client, name, args);
  expect(result.isError).toBe(true);
  return textOf(result);
}

/** A plausible binding for tests. */
export function sampleBinding(n = 1, extra: Record<string, unknown> = {}) {
  return {
    name: `Sample note ${n}`,
    content: `# Sample ${n}\n\nThis note talks about topic${n} and shared words like zebra.\n`,
    summary: `Summary of sample ${n}.`,
    keyPoints: [`point ${n}`],
    ...extra,
  };
}

/**
 * The tools/list results exactly as they came over the wire, before the SDK client parses them: call
 * on the client side of an in-memory pair before connecting or after; `listed()` lists again and
 * returns what the server sent.
 */
export function wireToolLists(client: Client, clientSide: InMemoryTransport): { listed: () => Promise<Tool[]> } {
  const raw: Tool[][] = [];
  const deliver = clientSide.onmessage!;
  clientSide.onmessage = (m: JSONRPCMessage) => {
    const result = (m as { result?: { tools?: Tool[] } }).result;
    if (result?.tools) raw.push(JSON.parse(JSON.stringify(result.tools)));
    deliver(m);
  };
  return {
    listed: async () => {
      await client.listTools();
      return raw[raw.length - 1]!;
    },
  };
}
