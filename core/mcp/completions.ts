import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CompleteRequestSchema, type CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../context.ts';
import { completeNames, type Completion } from '../services/completions.ts';
import { BINDING_URI_TEMPLATE } from './uri.ts';
import { PROMPTS } from './prompts.ts';
import { toMcpError } from './rpc-errors.ts';

/** Most values one completion returns (the MCP spec's cap); `total` and `hasMore` say what else exists. */
export const MAX_COMPLETIONS = 100;

const TIER_VALUES = ['0', '1', '1.5', '2'];

/**
 * Values for one argument of a prompt or of the binding URI template. Every query is scoped to the
 * caller, so a completion names only what the caller could list or read by these names: no other
 * user's private space, binding or set is ever suggested, counted or told apart from a missing one.
 */
async function valuesFor(ctx: ToolContext, argument: string, value: string, context: Record<string, string>): Promise<Completion> {
  switch (argument) {
    case 'space':
      return completeNames(ctx, ctx.caller, 'space', value.replace(/^@/, ''), MAX_COMPLETIONS);
    case 'binding': {
      const space = context.space?.replace(/^@/, '') || undefined;
      return completeNames(ctx, ctx.caller, 'binding', value, MAX_COMPLETIONS, space);
    }
    case 'setId':
      return completeNames(ctx, ctx.caller, 'setId', value, MAX_COMPLETIONS);
    case 'tier': {
      const values = TIER_VALUES.filter((t) => t.startsWith(value));
      return { values, total: values.length };
    }
    default:
      return { values: [], total: 0 };
  }
}

/** The arguments a reference completes (a prompt's declared arguments, the template's variables); others get nothing. */
function knownArguments(ref: { type: string; name?: string; uri?: string }): Set<string> {
  if (ref.type === 'ref/prompt')
    return new Set(PROMPTS.find((p) => p.prompt.name === ref.name)?.prompt.arguments?.map((a) => a.name) ?? []);
  if (ref.type === 'ref/resource' && ref.uri === BINDING_URI_TEMPLATE) return new Set(['space', 'binding', 'version', 'tier', 'page']);
  return new Set();
}

/** Registers completion/complete for prompt arguments and the binding URI template's variables. */
export function registerCompletions(server: Server, ctx: ToolContext): void {
  server.setRequestHandler(CompleteRequestSchema, async (request): Promise<CompleteResult> => {
    const { ref, argument, context } = request.params;
    if (!knownArguments(ref).has(argument.name)) return { completion: { values: [], total: 0, hasMore: false } };
    try {
      const found = await valuesFor(ctx, argument.name, argument.value, context?.arguments ?? {});
      return { completion: { values: found.values, total: found.total, hasMore: found.total > found.values.length } };
    } catch (err) {
      throw toMcpError(err, ctx.log, 'completion/complete');
    }
  });
}
