// Spawns the real stdio server (`bun adapters/stdio.ts`) on a temp file DB and connects the SDK Client
// to it, collecting stderr and any transport error (a stray non-MCP line on stdout is one).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const REPO = join(import.meta.dir, '..');

export interface StdioServer {
  client: Client;
  dir: string;
  dbUrl: string;
  stderr(): string;
  /** Errors the client transport saw (unparseable stdout lines, broken pipes). */
  transportErrors: Error[];
  close(): Promise<void>;
}

/** Starts `bun adapters/stdio.ts` (or `entry`) with a fresh DB under a temp dir (or the given one). */
export async function startStdioServer(
  opts: { env?: Record<string, string>; clientName?: string; clientVersion?: string; dir?: string; entry?: string } = {},
): Promise<StdioServer> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'bindery-stdio-'));
  const dbUrl = `file:${join(dir, 'data', 'bindery.db')}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    BINDERY_DB_URL: dbUrl,
    BINDERY_TOOL_MODE: 'eager',
    ...opts.env,
  };
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [opts.entry ?? join(REPO, 'adapters', 'stdio.ts')],
    env,
    cwd: dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const transportErrors: Error[] = [];
  const client = new Client({ name: opts.clientName ?? 'e2e-client', version: opts.clientVersion ?? '2.3.4' });
  client.onerror = (e) => transportErrors.push(e);
  await client.connect(transport);
  return {
    client,
    dir,
    dbUrl,
    stderr: () => stderr,
    transportErrors,
    async close() {
      await client.close();
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
