// Three MCP clients nobody here wrote, behind one small interface so the matrix runs the same steps
// through each: the SDK's own `Client`, the Vercel AI SDK's `createMCPClient`, and the MCP Inspector
// CLI (spawned once per operation, headless, as a CI job would use it).
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../targets.ts';
import type { Endpoint } from './harness.ts';

export type ClientName = 'sdk-client' | 'ai-sdk' | 'inspector-cli';
export const CLIENTS: readonly ClientName[] = ['sdk-client', 'ai-sdk', 'inspector-cli'];

export interface Session {
  serverName: string;
  capabilities: Record<string, unknown>;
  /** The tools as the server listed them, after the client itself accepted them (throws when it did not). */
  listTools(): Promise<Tool[]>;
  /** Calls a tool the way this client's users do; a client-side rejection throws. */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  listResources(): Promise<{ uri: string; name: string }[]>;
  close(): Promise<void>;
}

/** Opens a session of `client` on `endpoint` (initialize included). */
export function openSession(client: ClientName, endpoint: Endpoint): Promise<Session> {
  if (client === 'sdk-client') return sdkSession(endpoint);
  if (client === 'ai-sdk') return aiSdkSession(endpoint);
  return inspectorSession(endpoint);
}

const authHeaders = (e: Endpoint) => ({ Authorization: `Bearer ${e.key}` });

async function sdkSession(endpoint: Endpoint): Promise<Session> {
  const client = new Client({ name: 'bindery-matrix-sdk', version: '1.0.0' });
  const transport = endpoint.stdio
    ? new StdioClientTransport({ command: endpoint.stdio.command, args: endpoint.stdio.args, env: endpoint.stdio.env, stderr: 'ignore' })
    : new StreamableHTTPClientTransport(new URL(endpoint.mcpUrl!), { requestInit: { headers: authHeaders(endpoint) } });
  await client.connect(transport);
  return {
    serverName: client.getServerVersion()?.name ?? '',
    capabilities: (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
    // listTools caches each outputSchema; callTool then validates structuredContent against it.
    listTools: async () => (await client.listTools()).tools,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    listResources: async () => (await client.listResources()).resources,
    close: () => client.close(),
  };
}

async function aiSdkSession(endpoint: Endpoint): Promise<Session> {
  const transport = endpoint.stdio
    ? new Experimental_StdioMCPTransport({
        command: endpoint.stdio.command,
        args: endpoint.stdio.args,
        env: endpoint.stdio.env,
        stderr: 'ignore',
      })
    : ({ type: 'http', url: endpoint.mcpUrl!, headers: authHeaders(endpoint) } as const);
  const client = await createMCPClient({ transport, clientName: 'bindery-matrix-ai-sdk' });
  // What generateText would be handed: the AI SDK's own tool set built from the listed definitions.
  let toolSet: Awaited<ReturnType<typeof client.tools>> | undefined;
  return {
    serverName: client.serverInfo?.name ?? '',
    capabilities: (client.initializeResult?.capabilities ?? {}) as Record<string, unknown>,
    async listTools() {
      const defs = await client.listTools();
      toolSet = client.toolsFromDefinitions(defs);
      for (const t of defs.tools) {
        const schema = (toolSet[t.name] as { inputSchema?: { jsonSchema?: { type?: unknown } } } | undefined)?.inputSchema?.jsonSchema;
        if (schema?.type !== 'object') throw new Error(`AI SDK built no object input schema for ${t.name}`);
      }
      return defs.tools as Tool[];
    },
    async call(name, args) {
      const t = toolSet?.[name] as { execute?: (a: unknown, o: unknown) => Promise<unknown> } | undefined;
      // Through the tool set, as a model's tool call runs; falls back to callTool before tools/list.
      const result = t?.execute
        ? await t.execute(args, { toolCallId: `call-${name}`, messages: [] })
        : await client.callTool({ name, arguments: args });
      return result as CallToolResult;
    },
    listResources: async () => (await client.listResources()).resources,
    close: () => client.close(),
  };
}

const INSPECTOR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');

/** Runs the Inspector CLI once; its JSON result, or an Error with its envelope and exit code. */
async function inspector(endpoint: Endpoint, home: string, args: string[]): Promise<{ result: any; stderr: string }> {
  const target = endpoint.stdio
    ? [
        ...Object.entries(endpoint.stdio.env)
          .filter(([k]) => k.startsWith('BINDERY_'))
          .flatMap(([k, v]) => ['-e', `${k}=${v}`]),
        process.execPath,
        ...endpoint.stdio.args,
      ]
    : [endpoint.mcpUrl!, '--header', `Authorization: Bearer ${endpoint.key}`];
  // Under Bun: the Inspector asks for Node ≥ 22.19. HOME is a temp dir so its catalog and secrets
  // store never touch the user's.
  const proc = Bun.spawn([process.execPath, INSPECTOR, '--cli', ...target, '--format', 'json', ...args], {
    cwd: home,
    env: { ...process.env, HOME: home, NO_COLOR: '1' },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const timer = setTimeout(() => proc.kill(), 30_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  let parsed: any;
  try {
    parsed = JSON.parse(stdout);
  } catch {}
  // A tool result with isError exits non-zero but still prints the result; keep it.
  if (parsed?.result !== undefined) return { result: parsed.result, stderr };
  throw new Error(`inspector ${args.join(' ')} exited ${code}: ${(stderr || stdout).trim().slice(0, 400)}`);
}

async function inspectorSession(endpoint: Endpoint): Promise<Session> {
  const home = mkdtempSync(join(tmpdir(), 'bindery-inspector-'));
  const init = (await inspector(endpoint, home, ['--method', 'initialize'])).result;
  return {
    serverName: init.serverInfo?.name ?? '',
    capabilities: init.capabilities ?? {},
    async listTools() {
      // --strict: schema portability problems of error severity exit 6 (warnings are printed only).
      const { result, stderr } = await inspector(endpoint, home, ['--method', 'tools/list', '--strict']);
      const warnings = (stderr.match(/^Warning: /gm) ?? []).length;
      if (warnings) inspectorWarnings.set(endpoint.transport, warnings);
      return result.tools as Tool[];
    },
    async call(name, args) {
      return (await inspector(endpoint, home, ['--method', 'tools/call', '--tool-name', name, '--tool-args-json', JSON.stringify(args)]))
        .result as CallToolResult;
    },
    listResources: async () => (await inspector(endpoint, home, ['--method', 'resources/list'])).result.resources,
    close: async () => rmSync(home, { recursive: true, force: true }),
  };
}

/** Schema-portability warnings `--strict` printed, per transport (not failures: legal JSON Schema). */
export const inspectorWarnings = new Map<string, number>();
