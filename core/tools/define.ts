import type { z } from 'zod';
import type { ToolDefinition } from '../context.ts';

// The types of a tool definition live in core/context.ts beside the ToolContext a handler gets: a
// definition names the context and the context's registry holds definitions, and one module keeps
// that mutual reference from being an import cycle (tests/core/core-neutral.test.ts).
export type { AnyTool, ContextMeta, ResponseBound, ToolCategory, ToolDefinition, ToolOutput } from '../context.ts';

/** Declares a tool; the registry is the only importer of tool files. */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}
