import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../context.ts';
import { onBindingChanged } from '../services/changes.ts';
import { readableCurrent } from '../services/binding-reads.ts';
import { bindingAtUri, parseUriParam } from './resources.ts';
import { resourceNotFound, toMcpError } from './rpc-errors.ts';

/** How often subscribed bindings are re-read for writes made by other processes on the same database. */
export const SUBSCRIPTION_POLL_MS = 2000;

interface Watched {
  /** The version last seen; 0 once the binding is gone or no longer readable. */
  version: number;
  /** Subscribed URIs naming this binding without a fixed version. */
  uris: Set<string>;
}

/**
 * The resource subscriptions of one session. A write through this process's services is heard at once
 * (services/changes.ts); writes by other processes (another stdio server, the CLI, another HTTP
 * instance on a shared libSQL/Turso database) are found by re-reading the subscribed bindings'
 * current version every SUBSCRIPTION_POLL_MS, one indexed query, and only while subscriptions exist.
 * Each change sends `notifications/resources/updated` with every subscribed URI of that binding.
 */
export class ResourceSubscriptions {
  private readonly watched = new Map<string, Watched>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private stopListening: (() => void) | undefined;
  private checking: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly ctx: ToolContext,
    private readonly notify: (uri: string) => Promise<void>,
    private readonly pollMs = SUBSCRIPTION_POLL_MS,
  ) {}

  /** Subscribes to a URI the caller may read; anything else is the same not-found as resources/read. */
  async subscribe(uri: string): Promise<void> {
    const parsed = parseUriParam(uri);
    const row = await bindingAtUri(this.ctx, { ...parsed, tier: '1' });
    if (!row) throw resourceNotFound(uri);
    // A pinned version never changes: the subscription is accepted and never fires.
    if (parsed.version !== undefined) return;
    let w = this.watched.get(row.bindingId);
    if (!w) this.watched.set(row.bindingId, (w = { version: row.currentVersion, uris: new Set() }));
    w.uris.add(uri);
    this.ctx.log.info(`resources/subscribe ${uri}`);
    this.start();
  }

  /** Drops a URI (unknown URIs are fine: unsubscribing twice is not an error). */
  unsubscribe(uri: string): void {
    this.ctx.log.info(`resources/unsubscribe ${uri}`);
    for (const [id, w] of this.watched) {
      w.uris.delete(uri);
      if (w.uris.size === 0) this.watched.delete(id);
    }
    if (this.watched.size === 0) this.stop();
  }

  get size(): number {
    return this.watched.size;
  }

  close(): void {
    this.closed = true;
    this.watched.clear();
    this.stop();
  }

  private start(): void {
    if (this.closed) return;
    this.stopListening ??= onBindingChanged(this.ctx.db, (id) => {
      if (this.watched.has(id)) this.check([id]);
    });
    if (!this.timer) {
      this.timer = setInterval(() => this.check([...this.watched.keys()]), this.pollMs);
      // Never keeps a process alive by itself (Bun, Node, Deno have unref; workers have no such need).
      (this.timer as { unref?: () => void }).unref?.();
    }
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.stopListening?.();
    this.stopListening = undefined;
  }

  /** Re-reads the bindings' current versions (one at a time per session, in order) and notifies changes. */
  private check(ids: string[]): void {
    if (ids.length === 0) return;
    this.checking = this.checking.then(async () => {
      try {
        const rows = await readableCurrent(this.ctx, this.ctx.caller, ids);
        for (const id of ids) {
          const w = this.watched.get(id);
          if (!w) continue;
          const version = rows.get(id)?.currentVersion ?? 0;
          if (version === w.version) continue;
          w.version = version;
          for (const uri of w.uris) await this.notify(uri);
        }
      } catch (err) {
        this.ctx.log.warn('resource subscriptions: checking for new versions failed', err);
      }
    });
  }
}

/** Registers resources/subscribe and resources/unsubscribe; the subscriptions end when the session closes. */
export function registerSubscriptions(server: Server, ctx: ToolContext, pollMs?: number): ResourceSubscriptions {
  const subs = new ResourceSubscriptions(
    ctx,
    (uri) => server.sendResourceUpdated({ uri }).catch((err) => ctx.log.warn(`resources/updated for ${uri} not sent`, err)),
    pollMs,
  );
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    try {
      await subs.subscribe(request.params.uri);
      return {};
    } catch (err) {
      throw toMcpError(err, ctx.log, 'resources/subscribe');
    }
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subs.unsubscribe(request.params.uri);
    return {};
  });
  const previous = server.onclose;
  server.onclose = () => {
    subs.close();
    previous?.();
  };
  return subs;
}
