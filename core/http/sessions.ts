import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

export interface Session {
  id: string;
  /** The user whose key opened the session: only that user's key may use it. */
  callerId: string;
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
  inFlight: number;
}

/**
 * Live MCP sessions (Mcp-Session-Id → server and transport). Idle sessions are closed by `sweep()`,
 * which frees their server, tool-mode state and open streams; past `max`, the least recently used
 * idle session makes room.
 */
export class SessionStore {
  private readonly byId = new Map<string, Session>();

  constructor(
    private readonly idleMs: number,
    private readonly max: number,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.byId.size;
  }

  get(id: string): Session | undefined {
    return this.byId.get(id);
  }

  /** Registers a session, evicting the least recently used idle one when full. */
  async add(session: Session): Promise<void> {
    if (this.byId.size >= this.max) {
      const idle = [...this.byId.values()].filter((s) => s.inFlight === 0).sort((a, b) => a.lastSeen - b.lastSeen)[0];
      if (idle) await this.end(idle.id);
    }
    this.byId.set(session.id, session);
  }

  /** Forgets a session and closes its server (idempotent). */
  async end(id: string): Promise<void> {
    const s = this.byId.get(id);
    if (!s) return;
    this.byId.delete(id);
    await s.server.close().catch(() => {});
  }

  /** Closes every session idle for longer than the timeout; returns how many. */
  async sweep(): Promise<number> {
    const cutoff = this.now() - this.idleMs;
    const stale = [...this.byId.values()].filter((s) => s.inFlight === 0 && s.lastSeen < cutoff);
    for (const s of stale) await this.end(s.id);
    return stale.length;
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.byId.keys()]) await this.end(id);
  }
}
