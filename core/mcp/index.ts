import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolContext } from '../context.ts';
import { registerResources } from './resources.ts';
import { registerSubscriptions } from './subscriptions.ts';
import { registerPrompts } from './prompts.ts';
import { registerCompletions } from './completions.ts';
import { registerLogging } from './logging.ts';

export interface SurfaceOptions {
  /** No session to notify later (stateless HTTP, edge): resources are served without subscribe. */
  stateless: boolean;
  /** How often subscribed bindings are re-read for other processes' writes (default 2 s). */
  pollMs?: number;
}

/**
 * Everything MCP offers besides tools: resources (bindings as `bindery://space/slug`, with
 * subscriptions where a session can be notified), prompts, completions, and logging. Called once per
 * server, before it connects; `ctx.log` then also reaches the client as notifications/message.
 */
export function registerSurface(mcp: McpServer, ctx: ToolContext, options: SurfaceOptions): void {
  const server = mcp.server;
  server.registerCapabilities({
    resources: { subscribe: !options.stateless, listChanged: false },
    prompts: { listChanged: false },
    completions: {},
    logging: {},
  });
  registerLogging(server, ctx);
  registerResources(server, ctx);
  if (!options.stateless) registerSubscriptions(server, ctx, options.pollMs);
  registerPrompts(server, ctx);
  registerCompletions(server, ctx);
}
