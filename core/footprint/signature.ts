import type { AnyTool } from '../tools/define.ts';
import { toolListEntry } from '../tools/listing.ts';

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
};

function typeOf(s: JsonSchema | undefined, depth = 0): string {
  if (!s) return 'any';
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join('|');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf) return s.anyOf.map((x) => typeOf(x, depth)).join('|');
  if (s.type === 'array') return `${typeOf(s.items, depth + 1)}[]`;
  if (s.type === 'object' && s.properties && depth < 1) {
    return `{${Object.entries(s.properties)
      .map(([k, v]) => `${k}: ${typeOf(v, depth + 1)}`)
      .join(', ')}}`;
  }
  return Array.isArray(s.type) ? s.type.join('|') : (s.type ?? 'any');
}

const cache = new WeakMap<AnyTool, string>();

/**
 * A compact call signature from the tool's input schema, e.g. `get_binding(id: string, tier?: "1"|"1.5"|"2")`:
 * what a proxy-mode model needs to build `invoke_tool` arguments without the full JSON Schema.
 */
export function signatureOf(tool: AnyTool): string {
  let sig = cache.get(tool);
  if (!sig) {
    const schema = toolListEntry(tool).inputSchema as { properties?: Record<string, JsonSchema>; required?: string[] };
    const required = new Set(schema.required ?? []);
    const args = Object.entries(schema.properties ?? {}).map(([k, v]) => `${k}${required.has(k) ? '' : '?'}: ${typeOf(v)}`);
    sig = `${tool.name}(${args.join(', ')})`;
    cache.set(tool, sig);
  }
  return sig;
}
