import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** A measurement that could not be made, with a message meant for the person who ran it. */
export class MeasureError extends Error {
  override name = 'MeasureError';
}

export interface RemoteTools {
  server: { name: string; version: string } | null;
  tools: Tool[];
  pages: number;
}

export interface ListOptions {
  /** Whole-operation limit: connect, initialize and every tools/list page. */
  timeoutMs: number;
  /** What to call the server in messages (e.g. the command line). */
  label: string;
  /** Recent stderr of the server, added to failure messages when given. */
  stderrTail?: () => string;
  /** Stops the server at once on failure (the adapter kills the process; a flood must not go on). */
  abort?: () => void;
}

/** Stop early once a "server" has written this many lines that are not JSON-RPC. */
const GARBAGE_LIMIT = 20;
/** A runaway server cannot page forever. */
const MAX_PAGES = 1_000;
// Keep entries exactly as sent: the SDK's own result schema would re-shape them.
const rawList = z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })), nextCursor: z.string().optional() });

/**
 * Connects an MCP client over any transport, follows `tools/list` pagination and returns every tool
 * entry as the server sent it. Failures (not an MCP server, exited early, no answer in time, no tools)
 * become a MeasureError that says which.
 */
export async function listRemoteTools(transport: Transport, opts: ListOptions): Promise<RemoteTools> {
  const client = new Client({ name: 'bindery-measure', version: '1' });
  let garbage = 0;
  let firstGarbage = '';
  let closed = false;
  let reject: (e: MeasureError) => void = () => {};
  let failure: MeasureError | undefined;
  const failed = new Promise<never>((_, r) => (reject = r));
  const fail = (e: MeasureError) => {
    if (failure) return;
    failure = e;
    opts.abort?.();
    reject(e);
  };
  failed.catch(() => {}); // it may settle after the race is over
  const tail = () => {
    const t = opts.stderrTail?.().trim();
    return t ? `\nIts stderr ended with:\n${t}` : '';
  };
  const notMcp = () =>
    firstGarbage ? ` It wrote output that is not JSON-RPC, so it is probably not an MCP server (first problem: ${firstGarbage}).` : '';
  client.onerror = (e) => {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      // A system error from starting the process (ENOENT, EACCES…), not output.
      fail(new MeasureError(`could not start ${opts.label}: ${e.message}`));
      return;
    }
    garbage++;
    firstGarbage ||= e.message.split('\n')[0]!.slice(0, 160);
    if (garbage >= GARBAGE_LIMIT)
      fail(
        new MeasureError(
          `${opts.label} is not an MCP server: ${garbage} lines on stdout were not JSON-RPC (first: ${firstGarbage}).${tail()}`,
        ),
      );
  };
  client.onclose = () => {
    closed = true;
    // Give its last stderr lines a moment to arrive: they usually say why it stopped.
    setTimeout(
      () => fail(new MeasureError(`${opts.label} exited before it finished answering (initialize and tools/list).${notMcp()}${tail()}`)),
      50,
    );
  };
  const seconds = Math.round(opts.timeoutMs / 100) / 10;
  const timer = setTimeout(
    () =>
      fail(
        new MeasureError(
          `${opts.label} did not answer within ${seconds} s (initialize and tools/list); is it an MCP server speaking stdio?${notMcp()}${tail()}`,
        ),
      ),
    opts.timeoutMs,
  );
  const work = async (): Promise<RemoteTools> => {
    try {
      await client.connect(transport, { timeout: opts.timeoutMs });
    } catch (e) {
      if (e instanceof MeasureError) throw e;
      const msg = e instanceof Error ? e.message : String(e);
      if (closed) {
        await new Promise((r) => setTimeout(r, 50)); // its last stderr lines
        throw new MeasureError(`${opts.label} exited before answering initialize.${notMcp()}${tail()}`);
      }
      throw new MeasureError(`${opts.label} did not complete the MCP handshake (initialize): ${msg}.${notMcp()}${tail()}`);
    }
    const info = client.getServerVersion();
    if (!client.getServerCapabilities()?.tools) {
      throw new MeasureError(`${opts.label} (${info?.name ?? 'unnamed server'}) is an MCP server but offers no tools.`);
    }
    const tools: Tool[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, rawList, { timeout: opts.timeoutMs });
      tools.push(...(page.tools as unknown as Tool[]));
      cursor = page.nextCursor;
      if (++pages >= MAX_PAGES) throw new MeasureError(`${opts.label} kept paging tools/list past ${MAX_PAGES} pages.`);
    } while (cursor);
    return { server: info ? { name: info.name, version: info.version } : null, tools, pages };
  };
  try {
    return await Promise.race([work(), failed]);
  } catch (e) {
    if (!failure) opts.abort?.();
    if (e instanceof MeasureError) throw e;
    throw new MeasureError(`${opts.label}: ${e instanceof Error ? e.message : String(e)}${tail()}`);
  } finally {
    clearTimeout(timer);
    client.onclose = undefined;
    client.onerror = undefined;
    // A well-behaved server gets a clean shutdown; a failed one was aborted and is not waited for.
    const closing = client.close().catch(() => {});
    if (!failure) await closing;
  }
}
