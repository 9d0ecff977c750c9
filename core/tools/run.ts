import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BinderyError, fail, toErrorResult } from '../errors.ts';
import { joinPieces, type Piece } from '../tokens/doc.ts';
import type { ToolContext } from '../context.ts';
import type { AnyTool, ToolOutput } from './define.ts';
import { formatIssues } from './format-issues.ts';
import type { ToolRunObserver } from '../observe/tool-run.ts';

export type { ToolRunObserver } from '../observe/tool-run.ts';

/**
 * Validates arguments against the tool's schema, runs it, and shapes the result: text, structured
 * content, and `_meta.context` with the exact response tokens. Every failure becomes an `isError`
 * result through the one error mapper.
 */
export async function runTool(tool: AnyTool, args: unknown, ctx: ToolContext, observe?: ToolRunObserver): Promise<CallToolResult> {
  const started = ctx.now();
  let result: CallToolResult;
  let dataTokens = 0;
  let code: string | undefined;
  let omitted = 0;
  // Read tools whose text is all stored blocks skip the tokenizer entirely (an edge cold start
  // never loads it for them); everything else loads it once, up front.
  if (!tool.storedTextOnly) await ctx.tokens.load();
  try {
    const { out, text, tokens } = await executeTool(tool, args, ctx);
    if (out.forward) return out.forward;
    // Without a declared figure, pieces with stored counts (binding blocks) are data and counted
    // framing is overhead; a text made only of framing lines is all data (e.g. a version list).
    const stored = out.pieces.reduce((n, p) => n + (p.tokens ?? 0), 0);
    dataTokens = out.dataTokens ?? (stored > 0 ? Math.min(stored, tokens) : tokens);
    omitted = out.meta?.budget?.omitted.length ?? 0;
    result = {
      content: [{ type: 'text', text }],
      structuredContent: out.data as Record<string, unknown>,
      _meta: { context: { response: { tokens }, ...out.meta } },
    };
  } catch (err) {
    // A cancelled call is not a failure to log; its result is dropped by the SDK, unsent.
    if (ctx.signal?.aborted)
      return { content: [{ type: 'text', text: 'Request cancelled.' }], isError: true, _meta: { context: { response: { tokens: 0 } } } };
    code = err instanceof BinderyError ? err.code : 'INTERNAL';
    result = await errorResult(err, ctx);
  }
  const tokens = (result._meta as { context: { response: { tokens: number } } }).context.response.tokens;
  observe?.(tool.name, {
    tokens,
    dataTokens: result.isError ? 0 : dataTokens,
    isError: !!result.isError,
    ms: ctx.now() - started,
    code,
    omitted,
  });
  return result;
}

/**
 * Validates arguments, runs the handler and joins its text, refusing a text over the response cap:
 * what runTool does before shaping a result, and what REST runs to answer with the structured data.
 * Failures are thrown as the typed errors the one mapper turns into results (or HTTP statuses).
 */
export async function executeTool(
  tool: AnyTool,
  args: unknown,
  ctx: ToolContext,
): Promise<{ out: ToolOutput<unknown>; text: string; tokens: number }> {
  ctx.signal?.throwIfAborted();
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const { field, message } = formatIssues(parsed.error as z.ZodError, '', args ?? {});
    throw new BinderyError('INVALID_INPUT', `${message} (tool ${tool.name})`, field);
  }
  ctx.signal?.throwIfAborted();
  // A write's commit point: cancelled before it, nothing is written; after it, the write answers.
  if (tool.annotations?.readOnlyHint === false) ctx.beginWrite?.();
  const out = await tool.handler(parsed.data, ctx);
  // A cancelled call's answer is never sent: skip counting and joining its text.
  ctx.signal?.throwIfAborted();
  if (out.forward) return { out, text: '', tokens: 0 };
  return { out, ...(await cappedText(out.pieces, ctx)) };
}

/** The text of `pieces` and its exact tokens; a text over the response cap is a TOO_LARGE error. */
export async function cappedText(
  pieces: readonly Piece[],
  ctx: Pick<ToolContext, 'tokens' | 'config'>,
): Promise<{ text: string; tokens: number }> {
  if (pieces.some((p) => p.tokens === undefined)) await ctx.tokens.load();
  const joined = joinPieces(pieces, ctx.tokens);
  if (joined.tokens > ctx.config.maxResponseTokens) {
    throw fail.tooLarge(
      'response',
      `would be ${joined.tokens} tokens, over the ${ctx.config.maxResponseTokens}-token cap; ask for a lower tier, a smaller limit or a maxTokens budget`,
    );
  }
  return joined;
}

/** An error as a tool result, through the one mapper, with its exact response tokens. */
export async function errorResult(err: unknown, ctx: Pick<ToolContext, 'tokens' | 'log'>): Promise<CallToolResult> {
  const { code: _code, ...mapped } = toErrorResult(err, ctx.log.error);
  const text = (mapped.content[0] as { text: string }).text;
  await ctx.tokens.load();
  const context = (mapped._meta as { context: Record<string, unknown> }).context;
  return { ...mapped, _meta: { context: { ...context, response: { tokens: ctx.tokens.count(text) } } } };
}
