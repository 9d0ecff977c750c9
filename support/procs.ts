// Real processes on one database file for the fault suite (and the mixed-load benchmark): a
// `bun run serve` child, CLI commands beside it, MCP clients over HTTP, and an independent counter.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Tiktoken } from 'js-tiktoken/lite';

export const ROOT = join(import.meta.dir, '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `bindery <args>` as its own process and waits for it. */
export async function cli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const proc = Bun.spawn(['bun', 'adapters/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, stdout, stderr };
}

/** Starts `bindery cli <args>` without waiting (to kill it, or to run beside other work). */
export function cliChild(args: string[], env: Record<string, string>): Subprocess<'ignore', 'pipe', 'pipe'> {
  return Bun.spawn(['bun', 'adapters/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
}

export interface ServerProc {
  url: string;
  proc: Subprocess<'ignore', 'pipe', 'pipe'>;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `bun run serve` as a child on a free port and waits for its ready line. */
export async function startServer(env: Record<string, string>): Promise<ServerProc> {
  const proc = Bun.spawn(['bun', 'adapters/bun-http.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let err = '';
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  const ready = new Promise<string>((resolve, reject) => {
    const pump = async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return reject(new Error(`server exited before it was ready:\n${err}`));
        err += decoder.decode(value);
        const m = /HTTP ready on (http:\/\/[^\s/]+)\/mcp/.exec(err);
        if (m) resolve(m[1]!);
      }
    };
    void pump();
  });
  const url = await Promise.race([ready, Bun.sleep(20_000).then(() => Promise.reject(new Error(`server not ready in 20 s:\n${err}`)))]);
  return {
    url,
    proc,
    stderr: () => err,
    async stop() {
      proc.kill('SIGTERM');
      await Promise.race([proc.exited, Bun.sleep(5_000).then(() => proc.kill('SIGKILL'))]);
    },
  };
}

/** Creates a user's key with the CLI (as a person would) and returns it. */
export async function createKey(env: Record<string, string>, user: string): Promise<string> {
  const r = await cli(['keys', 'create', '--user', user], env);
  if (r.code !== 0) throw new Error(`keys create failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** An MCP client session over Streamable HTTP with a bearer key. */
export async function httpClient(url: string, key: string, name = 'reliability'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  return client;
}

const encoders = new Map<string, Tiktoken>();
/** An independent count of a text (js-tiktoken's own encoder, not Bindery's counter). */
export async function independentCount(text: string, encoding: 'o200k_base' | 'cl100k_base' = 'o200k_base'): Promise<number> {
  let enc = encoders.get(encoding);
  if (!enc) {
    const ranks =
      encoding === 'o200k_base'
        ? (await import('js-tiktoken/ranks/o200k_base')).default
        : (await import('js-tiktoken/ranks/cl100k_base')).default;
    encoders.set(encoding, (enc = new Tiktoken(ranks)));
  }
  return enc.encode(text, [], []).length;
}

/** The text block and `_meta.context` of a tool result. */
export function parts(result: CallToolResult): { text: string; context: Record<string, any> } {
  const text = (result.content[0] as { text: string }).text;
  return { text, context: (result._meta as { context: Record<string, any> }).context };
}

/** Writes `n` small Markdown files (with a few headings and a unique word each) under `dir`. */
export function writeCorpus(dir: string, n: number, seed = 'doc'): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) {
    const sub = join(dir, `part-${i % 20}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(
      join(sub, `${seed}-${i}.md`),
      `# ${seed} ${i}\n\nA note about zq${seed}${i} and shared words.\n\n## Details\n\n${'Some detail text. '.repeat(1 + (i % 7))}\n`,
    );
  }
}
