import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from './define';

const cache = new WeakMap<AnyTool, Tool>();

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const out = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out as Tool['inputSchema'];
}

/** Exactly what `tools/list` sends for a tool (computed once per definition). */
export function toolListEntry(tool: AnyTool): Tool {
  let entry = cache.get(tool);
  if (!entry) {
    entry = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: jsonSchema(tool.input, 'input'),
      outputSchema: jsonSchema(tool.output, 'output'),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    };
    cache.set(tool, entry);
  }
  return entry;
}
