import { HUMAN, type BinderyDeps, type Caller, type ToolContext, type ToolRegistry } from '../context.ts';
import { createRegistry } from '../tools/registry.ts';
import { toolListEntry } from '../tools/listing.ts';

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
    now: deps.now,
    log: deps.log ?? noLog,
    caller,
    provenance: () => HUMAN,
    session: {
      mode: 'eager',
      modeReason: 'REST',
      clientName: null,
      clientVersion: null,
      visibleTools: () => tools.all.map((t) => t.name),
      listedEntries: () => tools.all.map(toolListEntry),
    },
    tools,
    invoke: () => Promise.reject(new Error('REST does not invoke tools from tools')),
    enableTools: () => [],
  };
}
