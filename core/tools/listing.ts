import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool } from './define.ts';

const cache = new WeakMap<AnyTool, Tool>();

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const out = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return trim(out, io === 'output') as Tool['inputSchema'];
}

/**
 * Drops what costs tokens and tells a client nothing: zod's ±MAX_SAFE_INTEGER bounds on `.int()`,
 * and `additionalProperties: false` (the server still refuses an unknown argument by name; saying so in
 * every listed schema costs tokens and tells a model calling well nothing).
 *
 * Input enums that spell a value both as a string and as a number (tiers) list the strings only.
 *
 * It also writes the two forms portable clients (and MCP Inspector `--strict`) warn about in their
 * portable spelling: a `type` array (zod's nullable, `["string","null"]`) becomes `anyOf` branches of
 * one type each, and an empty `additionalProperties: {}` (a record of anything; "anything" is the
 * default) is left out.
 */
function trim(node: unknown, output: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => trim(n, output));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'maximum' || key === 'minimum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    // Bounds and patterns are checked by the server, whose error names the field and the rule; a model
    // calling well needs none of them, and they cost tokens on every listed tool.
    if (!output && LEAN_INPUT.has(key) && typeof value !== 'object') continue;
    if (key === 'additionalProperties' && value === false) continue;
    if (key === 'additionalProperties' && isEmptySchema(value)) continue;
    // Tiers are accepted as strings or numbers, advertised once, as strings (a model needs one spelling).
    if (
      !output &&
      key === 'enum' &&
      Array.isArray(value) &&
      value.some((v) => typeof v === 'string') &&
      value.some((v) => typeof v === 'number')
    ) {
      out.enum = value.filter((v) => typeof v === 'string');
      continue;
    }
    if (key === 'type' && Array.isArray(value)) {
      out.anyOf = value.map((type) => ({ type }));
      continue;
    }
    out[key] = trim(value, output);
  }
  return out;
}

/** Input-schema keys left out of listings (array bounds stay: "1–50 ids" is worth saying). */
const LEAN_INPUT = new Set(['minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

function isEmptySchema(value: unknown): boolean {
  return !!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}

const leanCache = new WeakMap<AnyTool, Tool>();

/**
 * The entry lazy mode lists for an always-listed tool until `search_tools` shows it in full: its input
 * schema keeps only the tool's `listed` arguments and the required ones, with `listedDescription` if it
 * has one (the full entry when the tool names no `listed`). The server still accepts and validates
 * every argument against the full schema; the listed schema never says `additionalProperties: false`,
 * so a client checking arguments against it accepts the unlisted ones too.
 */
export function leanListEntry(tool: AnyTool): Tool {
  if (!tool.listed) return toolListEntry(tool);
  let entry = leanCache.get(tool);
  if (!entry) {
    const full = toolListEntry(tool);
    const schema = full.inputSchema;
    const keep = new Set<string>([...tool.listed, ...(schema.required ?? [])]);
    const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([name]) => keep.has(name)));
    entry = { ...full, description: tool.listedDescription ?? full.description, inputSchema: { ...schema, properties } };
    leanCache.set(tool, entry);
  }
  return entry;
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
