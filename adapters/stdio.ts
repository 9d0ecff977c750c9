#!/usr/bin/env bun
// stdio adapter (`bun run start`): the local default. stdout carries only MCP messages; logs go to stderr.
import './stdio-early.ts';
import { createBinderyServer } from '../core/index.ts';
import { LineTransport } from '../core/protocol/line-transport.ts';
import { ensureCaller } from '../core/services/prepare.ts';
import { openRuntime } from './runtime.ts';
import { takeEarlyTokenizer } from './tokenizer-thread.ts';
import { DRAIN_MS, flushStdout, onTerminate, trackInFlight } from './shutdown.ts';

/** How long after start-up the stdio server prunes old sign-ins (after a client's first calls). */
const PRUNE_AFTER_MS = 2000;

/**
 * The line a person sees when they start the server on a terminal (stdin is a TTY): what it waits
 * for and how to connect a client, instead of silence. None when a client drives it over pipes.
 */
export function terminalHint(stdinIsTTY: boolean | undefined, dbUrl: string): string | undefined {
  if (!stdinIsTTY) return undefined;
  return `bindery: MCP server on stdio, database ${dbUrl}: this is for an MCP client, not for typing; run "bindery connect claude-desktop" (or claude-code, cursor, vscode, …) to set one up. Ctrl-C quits.`;
}

/** Serves MCP over this process's stdin/stdout as BINDERY_USER (`prebuilt`: from dist/stdio/, said in the ready line). */
export async function runStdio(opts: { prebuilt?: boolean } = {}): Promise<void> {
  const { deps, config, database, prune } = await openRuntime(process.env, {
    upkeep: true,
    tokens: takeEarlyTokenizer,
    pruneLater: true,
  });
  const caller = await ensureCaller(deps, config.user);
  const server = createBinderyServer(deps, { caller });
  // Lines up to what the content limit may take once JSON-escaped (up to 6 bytes a byte) are read,
  // so an oversize argument gets its tool error; a longer line is skipped and answered -32600.
  const maxLineBytes = Math.max(32 * 2 ** 20, 6 * config.maxContentBytes + 2 ** 20);
  const transport = new LineTransport(process.stdin, process.stdout, maxLineBytes);
  server.server.onerror = (err) => deps.log?.error('stdio transport', err);
  await server.connect(transport);
  // On SIGTERM, or when stdin ends: read no more, answer what was read (bounded), close, exit 0.
  const inFlight = trackInFlight(transport);
  let closing: Promise<void> | undefined;
  // Old sign-ins are pruned once the client has had its first answers, not before them.
  let pruned: Promise<void> | undefined;
  const pruning = setTimeout(() => {
    if (!closing) pruned = prune().catch((err) => deps.log?.error('start-up pruning', err));
  }, PRUNE_AFTER_MS);
  pruning.unref();
  const close = () =>
    (closing ??= (async () => {
      clearTimeout(pruning);
      process.stdin.pause();
      await inFlight.idle(DRAIN_MS);
      await flushStdout();
      await server.close();
      await pruned;
      database.close();
    })());
  const protocolClose = transport.onclose;
  transport.onclose = () => {
    protocolClose?.();
    void close().finally(() => process.exit(0));
  };
  process.stdin.once('end', () => void close().finally(() => process.exit(0)));
  onTerminate(close, (line) => deps.log?.info(line));
  const hint = terminalHint(process.stdin.isTTY, config.dbUrl);
  if (hint) process.stderr.write(`${hint}\n`);
  deps.log?.info(
    `stdio ready as @${caller.handle} (${config.dbUrl}, mode ${config.toolMode}, ${config.tokenizer}${opts.prebuilt ? ', pre-built' : ''})`,
  );
}

if (import.meta.main) {
  runStdio().catch((err) => {
    process.stderr.write(`[bindery] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
