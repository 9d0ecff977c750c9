import type { z } from 'zod';
import type { ToolContext, ToolDefinition } from '../context.ts';
import { ensureStoredCountsOnce } from '../services/prepare.ts';
import { executeTool } from './run.ts';

/**
 * Runs a tool in process (REST, the web app) and returns its structured content, typed by the tool's
 * own schemas: pass the definition from TOOLS (core/tools/registry.ts), so a renamed tool or a changed
 * output is a type error where it is used. The same code, response cap, pages and cursors as over MCP;
 * failures are thrown as typed errors (REST statuses, web error pages).
 */
export async function callTool<I extends z.ZodType, O extends z.ZodType>(
  ctx: ToolContext,
  tool: ToolDefinition<I, O>,
  args: z.input<I>,
): Promise<z.input<O>> {
  await ensureStoredCountsOnce(ctx);
  if (!tool.storedTextOnly) await ctx.tokens.load();
  const { out } = await executeTool(tool, args, ctx);
  return out.data as z.input<O>;
}
