import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TokenCounter } from '../tokens/counter.ts';
import type { AnyTool } from '../tools/define.ts';
import { toolListEntry } from '../tools/listing.ts';
import { sha256HexSync } from './hash.ts';

/**
 * What one tool costs in context before any call. `modelTokens`: what clients put in the model's
 * context (name, description, input schema); `tokens`: the whole `tools/list` entry (title, output
 * schema and annotations too), what the wire carries. `hash` is the entry's.
 */
export interface DefinitionCost {
  name: string;
  hash: string;
  modelTokens: number;
  tokens: number;
}

const byTool = new WeakMap<AnyTool, { json: string; hash: string; model: string }>();
/** Counts keyed by `<encoding>:<definition hash>`: a changed definition is a new key, never a stale count. */
const byHash = new Map<string, number>();

/** The exact JSON text `tools/list` carries for an entry (compact, as JSON-RPC serialises it). */
export function entryJson(entry: Tool): string {
  return JSON.stringify(entry);
}

/** The part of an entry a client shows the model: name, description, input schema (as JSON). */
export function modelJson(entry: Tool): string {
  return JSON.stringify({ name: entry.name, description: entry.description, inputSchema: entry.inputSchema });
}

/** Hash and JSON of an entry object: Bindery's entries are built once, so a session's listing is hashed once. */
const byEntry = new WeakMap<Tool, { json: string; hash: string; model: string }>();

/** Token count of any `tools/list` entry (another server's, too) with the given counter. */
export function countEntry(entry: Tool, tokens: TokenCounter): DefinitionCost {
  let known = byEntry.get(entry);
  if (!known) {
    const json = entryJson(entry);
    known = { json, hash: sha256HexSync(json), model: modelJson(entry) };
    byEntry.set(entry, known);
  }
  return {
    name: entry.name,
    hash: known.hash,
    modelTokens: cachedCount(`model:${known.hash}`, known.model, tokens),
    tokens: cachedCount(known.hash, known.json, tokens),
  };
}

/** Token cost of a Bindery tool's definition, cached per definition hash and tokenizer. */
export function definitionCost(tool: AnyTool, tokens: TokenCounter): DefinitionCost {
  let known = byTool.get(tool);
  if (!known) {
    const entry = toolListEntry(tool);
    const json = entryJson(entry);
    known = { json, hash: sha256HexSync(json), model: modelJson(entry) };
    byTool.set(tool, known);
  }
  return {
    name: tool.name,
    hash: known.hash,
    modelTokens: cachedCount(`model:${known.hash}`, known.model, tokens),
    tokens: cachedCount(known.hash, known.json, tokens),
  };
}

function cachedCount(hash: string, json: string, tokens: TokenCounter): number {
  const key = `${tokens.encoding}:${hash}`;
  let n = byHash.get(key);
  if (n === undefined) {
    n = tokens.count(json);
    byHash.set(key, n);
  }
  return n;
}

/** Sum of definition tokens of some tools (whole entries). */
export function definitionTokens(tools: readonly AnyTool[], tokens: TokenCounter): number {
  return tools.reduce((n, t) => n + definitionCost(t, tokens).tokens, 0);
}
