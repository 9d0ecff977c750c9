// Graceful stop for the long-running adapters (`bun run serve`, `bindery serve`, stdio): on SIGTERM or
// SIGINT stop taking work, let what is in flight finish (bounded), close MCP sessions and the database
// (which folds the WAL into the main file), then exit 0. Every write a client saw acknowledged was
// committed before its answer left, so it survives.
import type { Server } from 'bun';
import type { HttpApp } from '../core/http/app.ts';

/** How long in-flight work may take to finish after a stop signal. */
export const DRAIN_MS = 10_000;

/** Runs `stop` on the first SIGTERM or SIGINT and exits 0 (1 if stopping failed); a second signal exits at once. */
export function onTerminate(stop: () => Promise<void>, log?: (line: string) => void): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log?.(`${signal}: finishing in-flight requests (at most ${DRAIN_MS / 1000} s), then closing`);
    stop().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`[bindery] error while stopping: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('SIGINT', () => handler('SIGINT'));
}

/**
 * Stops a Bun server: no new connections, in-flight requests answered (up to `drainMs`, then cut),
 * sessions' open GET streams ended first since they never finish on their own.
 */
export async function drainHttp(server: Server<unknown> | undefined, app: HttpApp, drainMs = DRAIN_MS): Promise<void> {
  if (!server) return;
  const drained = server.stop(false);
  const sessions = app.sessions;
  if (sessions) for (const id of [...sessions.ids()]) sessions.get(id)?.transport.closeStandaloneSSEStream();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = await Promise.race([drained.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(() => r(true), drainMs)))]);
  clearTimeout(timer);
  if (late) await server.stop(true);
}

/** The part of an MCP transport the in-flight count wraps. */
interface MessageTransport {
  onmessage?: (message: never, extra?: never) => void;
  send(message: never, options?: never): Promise<void>;
}

/**
 * Counts requests a transport has handed to the server and not yet answered (wraps `onmessage` and
 * `send`; call after `server.connect`). `idle(ms)` waits until none is left, or `ms` passed.
 */
export function trackInFlight(transport: MessageTransport): { readonly count: number; idle(ms: number): Promise<void> } {
  let count = 0;
  let wake: (() => void) | undefined;
  const onmessage = transport.onmessage;
  const send = transport.send.bind(transport);
  type Msg = { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
  transport.onmessage = ((message: Msg, extra?: never) => {
    if (message.id !== undefined && typeof message.method === 'string') count++;
    onmessage?.(message as never, extra);
  }) as MessageTransport['onmessage'];
  transport.send = (async (message: Msg, options?: never) => {
    try {
      await send(message as never, options);
    } finally {
      if (message.id !== undefined && (message.result !== undefined || message.error !== undefined) && count > 0 && --count === 0) wake?.();
    }
  }) as MessageTransport['send'];
  return {
    get count() {
      return count;
    },
    async idle(ms) {
      if (count === 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, ms);
      });
      clearTimeout(timer);
    },
  };
}

/** Resolves once everything written to stdout so far has been handed to the OS (before exiting). */
export function flushStdout(): Promise<void> {
  return new Promise((resolve) => process.stdout.write('', () => resolve()));
}
