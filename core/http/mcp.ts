import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { BinderyRpcCode, ErrorCode } from '../protocol/rpc-error.ts';
import type { BinderyDeps, Caller } from '../context.ts';
import { createBinderyServer, isCommittedCall } from '../server.ts';
import { batchRefusal, BATCH_PROTOCOL_VERSION } from '../protocol/batches.ts';
import { watchExchanges } from './exchange.ts';
import { rpcError } from './responses.ts';
import { SessionStore, type SessionLimits } from './sessions.ts';

export interface McpEndpoint {
  /** Handles one authenticated /mcp request; `body` is the parsed JSON of a POST. */
  handle(request: Request, caller: Caller, body: unknown): Promise<Response>;
  readonly sessions: SessionStore | undefined;
  close(): Promise<void>;
}

/** The SDK's own cap on a JSON-RPC batch; checked first so a huge batch is refused before any work. */
const MAX_BATCH = 100;

const sessionNotFound = () =>
  rpcError(404, BinderyRpcCode.NoSession, 'Session not found (expired, ended, or opened with another key); initialize a new one');

/** Stateless: a fresh eager server and transport per request, closed once the answer is built. */
function createStatelessEndpoint(deps: BinderyDeps): McpEndpoint {
  return {
    sessions: undefined,
    async handle(request, caller, body) {
      if (request.method !== 'POST')
        return rpcError(405, BinderyRpcCode.Refused, 'Method not allowed: this server is stateless (POST only)', { Allow: 'POST' });
      const server = createBinderyServer(deps, { caller, stateless: true });
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request, { parsedBody: body });
      } finally {
        void server.close().catch(() => {});
      }
    },
    async close() {},
  };
}

/**
 * The SDK (1.32.2) leaks one entry per answered request on a session in JSON-response mode: it
 * resolves the HTTP response but never runs that stream's cleanup, so a session holds every request's
 * closures (and through them its Request and Response) until it ends — about 4 KB a call, hundreds
 * of MB for a server that runs for weeks. After each exchange the entries no pending request maps to
 * are released. This reaches into the transport's private maps, of our own transport objects only
 * (named in the README); tests/reliability/session-memory.test.ts fails if it goes inert.
 */
export function releaseAnsweredStreams(transport: WebStandardStreamableHTTPServerTransport): void {
  const t = transport as unknown as {
    _streamMapping?: Map<string, { resolveJson?: unknown }>;
    _requestToStreamMapping?: Map<unknown, string>;
  };
  const streams = t._streamMapping;
  const pending = t._requestToStreamMapping;
  if (!streams || !pending || streams.size === 0) return;
  const live = new Set(pending.values());
  for (const [id, stream] of streams) if (stream.resolveJson && !live.has(id)) streams.delete(id);
}

/** Stateful: one server per Mcp-Session-Id, bound to the key's user, freed when idle or on DELETE. */
function createSessionEndpoint(deps: BinderyDeps, limits: Omit<SessionLimits, 'now'>): McpEndpoint {
  const now = deps.now;
  const sessions = new SessionStore({ ...limits, now });

  async function open(request: Request, caller: Caller, body: unknown): Promise<Response> {
    // Room is made (or refused) before any server is built, so a flood costs the flooder only.
    const admission = sessions.admit(caller.id);
    if (!admission.ok)
      return rpcError(admission.status, BinderyRpcCode.Refused, admission.message, { 'Retry-After': String(admission.retryAfterSeconds) });
    const server = createBinderyServer(deps, { caller });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => admission.register({ id, callerId: caller.id, server, transport, lastSeen: now(), inFlight: 1, watch }),
      onsessionclosed: (id) => void sessions.end(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) void sessions.end(transport.sessionId);
    };
    await server.connect(transport);
    const watch = watchExchanges(transport, (id) => isCommittedCall(server, id));
    try {
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      // A refused initialize never registered a session: its server is dropped here.
      const session = transport.sessionId ? sessions.get(transport.sessionId) : undefined;
      if (session) {
        releaseAnsweredStreams(transport);
        session.inFlight--;
        session.lastSeen = now();
      } else {
        admission.release();
        await server.close().catch(() => {});
      }
    }
  }

  return {
    sessions,
    async handle(request, caller, body) {
      const id = request.headers.get('mcp-session-id');
      if (!id) {
        const init = request.method === 'POST' && (Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body));
        if (init) return open(request, caller, body);
        return rpcError(400, BinderyRpcCode.Refused, 'Bad Request: Mcp-Session-Id header is required (send initialize first)');
      }
      const session = sessions.get(id);
      if (!session || session.callerId !== caller.id) return sessionNotFound();
      session.inFlight++;
      session.lastSeen = now();
      try {
        // DELETE ends the session's open requests first, so their POSTs are answered, not dropped.
        if (request.method === 'DELETE') await session.watch?.endAll('the session was deleted');
        const response = await session.transport.handleRequest(request, { parsedBody: body });
        return request.method === 'POST' && session.watch ? await session.watch.rewrite(response, body) : response;
      } finally {
        releaseAnsweredStreams(session.transport);
        session.inFlight--;
        session.lastSeen = now();
      }
    },
    close: () => sessions.closeAll(),
  };
}

/** The /mcp endpoint, stateless (server per request, eager) or with sessions. */
export function createMcpEndpoint(
  deps: BinderyDeps,
  opts: { stateless: boolean; idleMs: number; maxSessions: number; maxSessionsPerKey: number },
): McpEndpoint {
  const inner = opts.stateless
    ? createStatelessEndpoint(deps)
    : createSessionEndpoint(deps, { idleMs: opts.idleMs, max: opts.maxSessions, perKey: opts.maxSessionsPerKey });
  return {
    sessions: inner.sessions,
    close: () => inner.close(),
    handle(request, caller, body) {
      if (!['GET', 'POST', 'DELETE'].includes(request.method))
        return Promise.resolve(
          rpcError(405, BinderyRpcCode.Refused, `Method not allowed: ${request.method}`, {
            Allow: opts.stateless ? 'POST' : 'GET, POST, DELETE',
          }),
        );
      if (Array.isArray(body)) {
        if (body.length > MAX_BATCH)
          return Promise.resolve(rpcError(400, ErrorCode.InvalidRequest, `Invalid Request: a batch must not exceed ${MAX_BATCH} messages`));
        // Without the header a client speaks 2025-03-26 (the Streamable HTTP rule), which had batches.
        const refusal = batchRefusal(body, request.headers.get('mcp-protocol-version') ?? BATCH_PROTOCOL_VERSION);
        if (refusal) return Promise.resolve(rpcError(400, ErrorCode.InvalidRequest, refusal));
      }
      return inner.handle(request, caller, body);
    },
  };
}
