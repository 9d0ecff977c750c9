import { RpcError } from './protocol/rpc-error.ts';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  CallToolRequestSchema,
  CancelledNotificationSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
  type CancelledNotification,
  type RequestId,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolMode } from './config.ts';
import { type BinderyDepsInput, type Caller, type ToolContext, withClock } from './context.ts';
import { fail } from './errors.ts';
import { ToolSession } from './modes/session.ts';
import { createRegistry } from './tools/registry.ts';
import { clip } from './clip.ts';
import { errorResult, runTool, type ToolRunObserver } from './tools/run.ts';
import { callerProfiler, defaultProfiler, type RuntimeProfiler } from './footprint/runtime.ts';
import { ensureStoredCountsOnce } from './services/prepare.ts';
import { registerSurface } from './mcp/index.ts';
import { guardParams } from './protocol/params-guard.ts';

export const SERVER_NAME = 'bindery';
export const SERVER_VERSION = '0.3.0';

export interface ServerOptions {
  /** The user every call acts as (stdio: BINDERY_USER; HTTP: the key's user). */
  caller: Caller;
  /** Defaults to the configured BINDERY_TOOL_MODE. */
  mode?: ToolMode;
  /** Stateless transports always run eager. */
  stateless?: boolean;
  /** Sees every tool result, besides the runtime profiler. */
  observe?: ToolRunObserver;
  /**
   * Where runtime token figures accumulate and what `list_available_tools` reports; default: the
   * caller's own figures (the process-wide profiler still sees every call, but no user is shown it).
   */
  profiler?: RuntimeProfiler;
}

const INSTRUCTIONS =
  'Bindery keeps knowledge as bindings (Markdown documents with versions). Every result states its token cost. ' +
  'Search at tier "1", preview at "1.5", read at "2" only what you need; pass maxTokens to cap any answer. Call help for the workflow.';

/**
 * One JSON Schema validator for every server, made on first use: the SDK would otherwise build an
 * Ajv instance per server, i.e. per request on stateless HTTP and the edge, and Bindery never elicits.
 */
let ajv: AjvJsonSchemaValidator | undefined;
const sharedValidator: jsonSchemaValidator = { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };

/** What a tools/call handler is given besides the request (the SDK's RequestHandlerExtra, the parts used). */
interface CallExtra {
  signal: AbortSignal;
  requestId: RequestId;
  sendNotification(notification: ServerNotification): Promise<void>;
}

/** The SDK's own cancellation step (aborts the request's signal; the SDK then sends no answer). */
type SdkCancel = { _oncancel(notification: CancelledNotification): Promise<void> };

/** Per server: the tools/call requests past a write's commit point, whose cancellation is ignored. */
const committedCalls = new WeakMap<McpServer, Set<RequestId>>();

/**
 * True while the call `id` on `server` has passed a write's commit point: a cancellation no longer
 * stops it, and it answers with its result (the HTTP exchange then must not end it as cancelled).
 */
export function isCommittedCall(server: McpServer, id: RequestId): boolean {
  return committedCalls.get(server)?.has(id) ?? false;
}

/** Longest model name recorded (the `model` argument's own limit). */
const MODEL_CHARS = 120;

/**
 * A model name as provenance records it: one line of well-formed text without NUL, at most
 * MODEL_CHARS. The client's name comes unchecked from `initialize` and is shown in every tier-1 head,
 * whose token count is stored at write time: it must read back exactly as it was counted.
 */
function provenanceModel(raw: string | null | undefined): string | null {
  if (!raw) return null;
  return (
    clip(
      raw
        .toWellFormed()
        .replace(/[\s\u0000-\u001f\u007f]+/g, ' ')
        .trim(),
      MODEL_CHARS,
    ).trimEnd() || null
  );
}

/** Builds the MCP server for one session (stdio: once; stateless HTTP and edge: per request). */
export function createBinderyServer(given: BinderyDepsInput, options: ServerOptions): McpServer {
  const deps = withClock(given);
  const registry = createRegistry();
  const mode = options.mode ?? deps.config.toolMode;
  const session = new ToolSession(registry, deps.config, mode, !!options.stateless, options.mode ? 'server option' : 'BINDERY_TOOL_MODE');
  const profiler = options.profiler ?? callerProfiler(options.caller.id);
  const processWide = options.profiler ? undefined : defaultProfiler();
  const extra = options.observe;
  const observe: ToolRunObserver = (tool, figures) => {
    profiler.observe(tool, figures);
    processWide?.observe(tool, figures);
    extra?.(tool, figures);
    deps.telemetry?.observeTool(tool, figures);
  };
  const mcp = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: options.stateless ? {} : { tools: { listChanged: true } },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: sharedValidator,
    },
  );
  const server = mcp.server;
  // listChanged only where it can be delivered: a stateless server lives for one request. (Given in
  // the constructor, `tools` makes McpServer declare listChanged itself, so it is registered here.)
  if (options.stateless) server.registerCapabilities({ tools: {} });
  // Malformed params get -32602 naming the field on every transport, not the SDK's zod dump.
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    guardParams(transport);
  };
  const log = deps.log ?? { info() {}, warn() {}, error() {} };
  const now = deps.now;

  // The mode is decided once the client said who it is (clientInfo, from initialize). A client that
  // skips notifications/initialized is identified on its first list or call instead.
  const identify = () => {
    if (session.identified) return;
    const info = server.getClientVersion();
    if (info) session.identify(info.name, info.version);
  };
  server.oninitialized = identify;

  const ctx: ToolContext = {
    db: deps.db,
    tokens: deps.tokens,
    config: deps.config,
    now,
    log,
    caller: options.caller,
    provenance: (model) => {
      const client = session.clientName ? `${session.clientName}${session.clientVersion ? ` ${session.clientVersion}` : ''}` : null;
      return { source: 'llm', model: provenanceModel(model) ?? provenanceModel(client) };
    },
    session: {
      get mode() {
        return session.mode;
      },
      get modeReason() {
        return session.modeReason;
      },
      get clientName() {
        return session.clientName;
      },
      get clientVersion() {
        return session.clientVersion;
      },
      visibleTools: () => session.listed().map((t) => t.name),
      listedEntries: () => session.listedEntries(),
    },
    tools: registry,
    invoke: (name, args) => call(name, args),
    profiler,
    enableTools: (names) => enable(names, () => server.sendToolListChanged()),
  };

  const unknownTool = (name: unknown) => `no tool named "${clip(String(name), 60)}"; search_tools finds tools by what they do`;

  /**
   * Runs a tool as this session. `request` is the tools/call being answered: its signal stops work
   * when the client cancels, and tools/list_changed goes out in its context (over HTTP, on that call's
   * own response), so a client with no standalone stream still hears of it.
   */
  async function call(name: string, args: unknown, request?: CallExtra): Promise<CallToolResult> {
    identify();
    const tool = registry.get(name);
    if (!tool || !session.callable(tool)) return errorResult(fail.invalid('name', unknownTool(name)), ctx);
    const callCtx: ToolContext = request
      ? {
          ...ctx,
          signal: request.signal,
          beginWrite: () => beginWrite(request),
          // A tool run through invoke_tool is part of this call: same signal, same commit point.
          invoke: (inner, innerArgs) => call(inner, innerArgs, request),
          enableTools: (names) => enable(names, () => request.sendNotification({ method: 'notifications/tools/list_changed' })),
        }
      : ctx;
    try {
      await ensureStoredCountsOnce({ db: deps.db, tokens: deps.tokens, config: deps.config, now });
    } catch (err) {
      return errorResult(err, ctx);
    }
    if (session.mode === 'lazy' && tool.category !== 'proxy') {
      if (!session.listed().some((t) => t.name === name)) callCtx.enableTools([name]);
      else session.touch(name);
    }
    return runTool(tool, args, callCtx, observe);
  }

  /**
   * A write's commit point. A cancellation that came first has aborted the signal:
   * nothing is written and the call answers nothing (the SDK drops a cancelled request's answer).
   * Past this point a cancellation is ignored and the call answers with what it wrote. Both steps
   * are synchronous, so a cancellation lands wholly before or wholly after.
   */
  function beginWrite(request: CallExtra): void {
    request.signal.throwIfAborted();
    committed.add(request.requestId);
  }

  function enable(names: string[], notify: () => Promise<void>): string[] {
    const added = session.enable(names);
    if (added.length) void notify().catch((e) => log.warn('tools/list_changed not sent', e));
    return added;
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    identify();
    return { tools: session.listedEntries() };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // A name no session could call is a protocol error (-32602); inside invoke_tool it stays a tool error.
    identify();
    const tool = registry.get(request.params.name);
    if (!tool || !session.callable(tool)) throw new RpcError(ErrorCode.InvalidParams, unknownTool(request.params.name));
    try {
      return await call(request.params.name, request.params.arguments, extra);
    } finally {
      // After the SDK's answer: it reads the signal in the microtasks right after this handler settles.
      setTimeout(() => committed.delete(extra.requestId), 0);
    }
  });
  // A cancellation of a call past its commit point is ignored (it answers with its result); any other
  // goes to the SDK, which aborts the call's signal and sends no answer.
  const committed = new Set<RequestId>();
  committedCalls.set(mcp, committed);
  server.setNotificationHandler(CancelledNotificationSchema, async (notification) => {
    const id = notification.params.requestId;
    if (id !== undefined && committed.has(id)) return;
    await (server as unknown as SdkCancel)._oncancel(notification);
  });
  // Resources, prompts, completions and logging (core/mcp/): after ctx exists, as they read through it.
  registerSurface(mcp, ctx, { stateless: !!options.stateless });
  return mcp;
}
