import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ExchangeWatch } from './exchange.ts';

export interface Session {
  id: string;
  /** The user whose key opened the session: only that user's key may use it. */
  callerId: string;
  server: McpServer;
  transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
  inFlight: number;
  /** The session's open requests: ended with "Request cancelled" when the session ends. */
  watch?: ExchangeWatch;
}

export interface SessionLimits {
  idleMs: number;
  /** Sessions on the whole server. */
  max: number;
  /** Sessions one key's user may hold at once. */
  perKey: number;
  now: () => number;
}

/** A place reserved for a session being opened: `register` it once initialized, else `release` it. */
export interface Admission {
  ok: true;
  register(session: Session): void;
  release(): void;
}

/** Why a session cannot be opened now; sessions are busy only while a request runs, so retry soon. */
export interface Refusal {
  ok: false;
  status: 429 | 503;
  message: string;
  retryAfterSeconds: number;
}

/**
 * Live MCP sessions (Mcp-Session-Id → server and transport). Idle sessions are closed by `sweep()`.
 * Opening one goes through `admit`, which makes room fairly: a user at their quota loses their own
 * least recently used idle session, and a full server takes one from whoever holds the most. One key
 * opening sessions in a loop therefore only ever ends its own.
 */
export class SessionStore {
  private readonly byId = new Map<string, Session>();
  /** Each user's sessions, plus the admissions not yet registered (so a burst cannot race past a cap). */
  private readonly held = new Map<string, { sessions: Set<Session>; pending: number }>();
  private pending = 0;

  constructor(private readonly limits: SessionLimits) {}

  get size(): number {
    return this.byId.size;
  }

  get(id: string): Session | undefined {
    return this.byId.get(id);
  }

  /** Ids of the live sessions. */
  ids(): IterableIterator<string> {
    return this.byId.keys();
  }

  /** Reserves a place for a new session of `callerId`, ending another session if that is fair; or says why not. */
  admit(callerId: string): Admission | Refusal {
    const { max, perKey } = this.limits;
    if (this.count(callerId) >= perKey) {
      const own = this.oldestIdle(callerId);
      if (!own)
        return refuse(
          429,
          `Too many sessions: this key's user has ${perKey} open and all are busy (BINDERY_HTTP_MAX_SESSIONS_PER_KEY); retry shortly, or DELETE sessions you no longer use`,
        );
      this.drop(own);
    } else if (this.byId.size + this.pending >= max) {
      const victim = this.fairVictim(callerId);
      if (!victim) return refuse(503, `The server holds its maximum of ${max} sessions and none can be ended fairly; retry shortly`);
      this.drop(victim);
    }
    const entry = this.entry(callerId);
    entry.pending++;
    this.pending++;
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      entry.pending--;
      this.pending--;
      return true;
    };
    return {
      ok: true,
      register: (session) => {
        if (!settle()) return;
        this.byId.set(session.id, session);
        entry.sessions.add(session);
        this.held.set(callerId, entry);
      },
      release: () => {
        if (settle()) this.forgetIfEmpty(callerId);
      },
    };
  }

  /** Forgets a session and closes its server (idempotent). */
  async end(id: string): Promise<void> {
    const s = this.byId.get(id);
    if (!s) return;
    this.remove(s);
    // Requests still open would otherwise never be answered: their POSTs would hang past the session.
    await s.watch?.endAll('the session ended');
    await s.server.close().catch(() => {});
  }

  /** Closes every session idle for longer than the timeout; returns how many. */
  async sweep(): Promise<number> {
    const cutoff = this.limits.now() - this.limits.idleMs;
    const stale = [...this.byId.values()].filter((s) => s.inFlight === 0 && s.lastSeen < cutoff);
    for (const s of stale) await this.end(s.id);
    return stale.length;
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.byId.keys()]) await this.end(id);
  }

  private count(callerId: string): number {
    const e = this.held.get(callerId);
    return e ? e.sessions.size + e.pending : 0;
  }

  private entry(callerId: string) {
    let e = this.held.get(callerId);
    if (!e) this.held.set(callerId, (e = { sessions: new Set(), pending: 0 }));
    return e;
  }

  private oldestIdle(callerId: string): Session | undefined {
    let oldest: Session | undefined;
    for (const s of this.held.get(callerId)?.sessions ?? []) if (s.inFlight === 0 && (!oldest || s.lastSeen < oldest.lastSeen)) oldest = s;
    return oldest;
  }

  /**
   * On a full server: the oldest idle session of the user holding the most (who must hold more than
   * the newcomer would, else the newcomer gives up one of its own). Ties go to the idlest session.
   */
  private fairVictim(callerId: string): Session | undefined {
    const mine = this.count(callerId);
    let victim: Session | undefined;
    let victimCount = mine;
    for (const [holder] of this.held) {
      if (holder === callerId) continue;
      const n = this.count(holder);
      if (n < victimCount || n <= mine) continue;
      const s = this.oldestIdle(holder);
      if (s && (n > victimCount || !victim || s.lastSeen < victim.lastSeen)) {
        victim = s;
        victimCount = n;
      }
    }
    return victim ?? this.oldestIdle(callerId);
  }

  /** Ends a session now (its place is free at once); its server closes in the background. */
  private drop(s: Session): void {
    this.remove(s);
    void (s.watch?.endAll('the session ended') ?? Promise.resolve()).then(() => s.server.close()).catch(() => {});
  }

  private remove(s: Session): void {
    this.byId.delete(s.id);
    this.held.get(s.callerId)?.sessions.delete(s);
    this.forgetIfEmpty(s.callerId);
  }

  private forgetIfEmpty(callerId: string): void {
    const e = this.held.get(callerId);
    if (e && e.sessions.size === 0 && e.pending === 0) this.held.delete(callerId);
  }
}

function refuse(status: 429 | 503, message: string): Refusal {
  return { ok: false, status, message, retryAfterSeconds: 1 };
}
