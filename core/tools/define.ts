import type { z } from 'zod';
import type { Piece } from '../tokens/doc.ts';
import type { ToolContext } from '../context.ts';

export type ToolCategory = 'binding' | 'version' | 'set' | 'space' | 'share' | 'comment' | 'utility' | 'proxy';

/**
 * What a tool promises about the size of its answer (token economics): `items` caps a collection,
 * `tokens` is a hard ceiling, `unbounded` is honest about neither.
 */
export type ResponseBound =
  | { kind: 'tokens'; maxTokens: number }
  | { kind: 'items'; maxItems: number; itemTokens: number }
  | { kind: 'budget' }
  | { kind: 'unbounded' };

/** What `_meta.context` may carry besides the response tokens (ARCHITECTURE.md#result-context). */
export interface ContextMeta {
  binding?: { id: string; contentTokenCount: number; publicUrl: string; textUrl: string };
  agentMeta?: { source: 'human' | 'llm'; model: string | null };
  pagination?: { total: number; hasMore: boolean; nextCursor: string | null };
  budget?: {
    maxTokens: number;
    usedTokens: number;
    remainingTokens: number;
    exhausted: boolean;
    included: unknown[];
    omitted: unknown[];
  };
  [key: string]: unknown;
}

/** A handler's answer: text pieces (with stored counts where known), structured data, context. */
export interface ToolOutput<O> {
  pieces: Piece[];
  data: O;
  meta?: ContextMeta;
  /** The part of the text that is data rather than framing, for runtime profiling. */
  dataTokens?: number;
  /**
   * Another tool's complete result, returned unchanged instead of this output (`invoke_tool`: the
   * caller gets the real tool's result with its own `_meta.context`; it was profiled when it ran).
   */
  forward?: import('@modelcontextprotocol/sdk/types.js').CallToolResult;
}

export interface ToolDefinition<I extends z.ZodType, O extends z.ZodType> {
  name: string;
  title: string;
  category: ToolCategory;
  /** Written for a model: when to use it, what it costs, what comes back. */
  description: string;
  /** Extra words `search_tools` matches ("remember this" finds create_binding). */
  aliases?: string[];
  input: I;
  output: O;
  bound: ResponseBound;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  /**
   * True when the handler's text is made of stored blocks and counts nothing on its usual path
   * (it loads the tokenizer itself where it does): the runner then loads the tokenizer only if a
   * piece is left to count.
   */
  storedTextOnly?: boolean;
  handler(args: z.output<I>, ctx: ToolContext): Promise<ToolOutput<z.input<O>>>;
}

// Handlers are checked against their own schemas at definition; the registry holds them erased.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = ToolDefinition<any, any>;

/** Declares a tool; the registry is the only importer of tool files. */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}
