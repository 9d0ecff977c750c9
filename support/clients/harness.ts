// Shared by the outside-client suites (conformance.test.ts, matrix.test.ts, scripts/client-matrix.ts):
// the real servers of support/targets.ts behind one name each, a loopback proxy that adds the
// bearer key for clients that cannot send one, and a runner for the official conformance CLI.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bunHttpTarget, denoTarget, denoUnavailable, ROOT, seededFile, workerdTarget, type Target } from '../targets.ts';

export type TransportName = 'stdio' | 'http-sessions' | 'http-stateless' | 'deno-edge' | 'workerd-edge';
export const HTTP_TRANSPORTS: readonly TransportName[] = ['http-sessions', 'http-stateless', 'deno-edge', 'workerd-edge'];

/** How a client reaches one transport: a URL and a key, or a command to spawn. */
export interface Endpoint {
  transport: TransportName;
  /** `…/mcp` of an HTTP transport. */
  mcpUrl?: string;
  key?: string;
  /** The stdio server: command, arguments and environment. */
  stdio?: { command: string; args: string[]; env: Record<string, string> };
  stop(): Promise<void>;
}

/** Starts one transport on a fresh seeded database (alice's key is the one clients use). */
export async function startTransport(name: TransportName): Promise<Endpoint> {
  if (name === 'stdio') {
    const publicUrl = 'http://127.0.0.1:1';
    const { dir, dbUrl } = await seededFile(publicUrl);
    const env = {
      ...(process.env as Record<string, string>),
      BINDERY_DB_URL: dbUrl,
      BINDERY_PUBLIC_URL: publicUrl,
      BINDERY_TOOL_MODE: 'eager',
      BINDERY_USER: 'alice',
    };
    return {
      transport: name,
      stdio: { command: 'bun', args: [join(ROOT, 'adapters/stdio.ts')], env },
      stop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  let target: Target;
  if (name === 'http-sessions') target = await bunHttpTarget({}, name);
  else if (name === 'http-stateless') target = await bunHttpTarget({ BINDERY_HTTP_STATELESS: '1' }, name);
  else if (name === 'deno-edge') target = await denoTarget();
  else target = await workerdTarget();
  return { transport: name, mcpUrl: `${target.url}/mcp`, key: target.seed.aliceKey, stop: () => target.stop() };
}

/** Why a transport cannot run on this machine, or undefined. */
export function transportUnavailable(name: TransportName): string | undefined {
  return name === 'deno-edge' ? denoUnavailable() : undefined;
}

export interface AuthProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  stop(): void;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection'];

/**
 * A loopback reverse proxy that adds `Authorization: Bearer <key>` and forwards everything else as
 * sent — method, path, body (streamed), and the Host and Origin headers, so the server's own
 * DNS-rebinding check sees what the client sent. Responses (SSE included) stream back unbuffered.
 * This is test plumbing for clients that cannot send a header; the server keeps requiring its key.
 */
export function authProxy(upstream: string, key: string): AuthProxy {
  const base = new URL(upstream);
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 0, // SSE streams stay open as long as the client keeps them
    async fetch(request) {
      const from = new URL(request.url);
      const headers = new Headers(request.headers);
      for (const h of HOP_BY_HOP) headers.delete(h);
      headers.set('authorization', `Bearer ${key}`);
      // Bun's fetch sends a Host header given explicitly; keep the client's (request.headers has it).
      if (!headers.has('host')) headers.set('host', from.host);
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      try {
        const answer = await fetch(new URL(from.pathname + from.search, base), {
          method: request.method,
          headers,
          body: hasBody ? request.body : undefined,
          redirect: 'manual',
          signal: request.signal,
          decompress: false,
          ...(hasBody ? { duplex: 'half' } : {}),
        } as RequestInit);
        const out = new Headers(answer.headers);
        for (const h of HOP_BY_HOP) out.delete(h);
        return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: out });
      } catch (err) {
        return new Response(`proxy: upstream failed: ${(err as Error).message}`, { status: 502 });
      }
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => void server.stop(true) };
}

const CONFORMANCE_CLI = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

export interface ConformanceCheck {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  errorMessage?: string;
  details?: unknown;
}

export interface ConformanceResult {
  scenario: string;
  checks: ConformanceCheck[];
  /** The suite's own verdict: no FAILURE and at least one SUCCESS (as its tier-check counts). */
  passed: boolean;
  /** FAILURE and WARNING checks, one line each. */
  problems: string[];
  exitCode: number;
  output: string;
}

function findChecks(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...findChecks(p));
    else if (entry === 'checks.json') out.push(p);
  }
  return out;
}

/**
 * Runs one server scenario of `@modelcontextprotocol/conformance` against `mcpUrl` and reads its
 * checks.json. Run with Bun: the CLI uses `fs.globSync`, which Node 20 lacks.
 */
export async function runConformance(mcpUrl: string, scenario: string, timeoutMs = 60_000): Promise<ConformanceResult> {
  const out = mkdtempSync(join(tmpdir(), 'bindery-conformance-'));
  try {
    const proc = Bun.spawn([process.execPath, CONFORMANCE_CLI, 'server', '--url', mcpUrl, '--scenario', scenario, '-o', out], {
      cwd: out,
      env: { ...process.env, NO_COLOR: '1' },
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const timer = setTimeout(() => proc.kill(), timeoutMs);
    const [stdout, stderr, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    clearTimeout(timer);
    const files = findChecks(out);
    const checks: ConformanceCheck[] = files.flatMap((f) => JSON.parse(readFileSync(f, 'utf8')) as ConformanceCheck[]);
    const problems = checks
      .filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
      .map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? JSON.stringify(c.details ?? {}).slice(0, 300)}`);
    if (files.length === 0) problems.push(`no checks.json (exit ${exitCode}): ${(stderr || stdout).slice(-500)}`);
    const passed =
      files.length > 0 &&
      checks.some((c) => c.status === 'SUCCESS') &&
      !checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    return { scenario, checks, passed, problems, exitCode, output: stdout + stderr };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Runs `jobs` with at most `limit` in flight, keeping their order. */
export async function pool<T>(limit: number, jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results = new Array<T>(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await jobs[i]!();
      }
    }),
  );
  return results;
}
