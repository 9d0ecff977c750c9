import { clockOf, HUMAN, type BinderyDeps, type Caller, type ToolContext, type ToolRegistry } from '../context.ts';
import { fail } from '../errors.ts';
import { ensureStoredCountsOnce } from '../services/prepare.ts';
import { createRegistry } from '../tools/registry.ts';
import { executeTool } from '../tools/run.ts';


let registry: ToolRegistry | undefined;

/**
 * What a tool handler gets, for a REST request: the caller, `human` provenance, and no MCP session
 * (REST is stateless and sees every tool, as an eager session does).
 */
export function restContext(deps: BinderyDeps, caller: Caller): ToolContext {
  const tools = (registry ??= createRegistry());
  const noLog = { info() {}, warn() {}, error() {} };
  return {
    db: deps.db,
    tokens: deps.tokens,
    config: deps.config,
    now: clockOf(deps),
    log: deps.log ?? noLog,
    caller,
    provenance: () => HUMAN,
    session: { mode: 'eager', modeReason: 'REST', clientName: null, clientVersion: null, visibleTools: () => tools.all.map((t) => t.name) },
    tools,
    invoke: () => Promise.reject(new Error('REST does not invoke tools from tools')),
    enableTools: () => [],
  };
}

/**
 * Runs an MCP tool for a REST read and returns its structured content: the same code, the same
 * response cap, pages and cursors as over MCP. Failures are thrown as typed errors (REST statuses).
 */
export async function callTool<T = Record<string, unknown>>(ctx: ToolContext, name: string, args: Record<string, unknown>): Promise<T> {
  const tool = ctx.tools.get(name);
  if (!tool) throw fail.invalid('name', `no tool named "${name}"`);
  await ensureStoredCountsOnce(ctx);
  if (!tool.storedTextOnly) await ctx.tokens.load();
  const { out } = await executeTool(tool, args, ctx);
  return out.data as T;
}
