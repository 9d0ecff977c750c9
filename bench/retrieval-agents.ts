// The agents of the retrieval benchmark (bench/retrieval.bench.ts). Each drives a real MCP Client and is charged for every
// token the model would read: the tool list (name, description, input schema of each listed tool),
// every call it writes (name and arguments) and every response text, all in o200k_base.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TokenCounter } from '../core/tokens/counter.ts';
import { normalize, type RetrievalTask } from './retrieval-tasks.ts';

/** What one agent spent on one task, and whether the phrase reached it. */
export interface TaskOutcome {
  ok: boolean;
  tokens: number;
  toolList: number;
  calls: number;
}

/** Hits an agent may open before it gives up (it can tell a wrong hit: the phrase is not there). */
export const MAX_READS = 2;

/** Tokens of a tool list as the model sees it: each tool's name, description and input schema. */
export function toolListTokens(tools: Tool[], tokens: TokenCounter): number {
  return tools.reduce(
    (n, t) => n + tokens.count(JSON.stringify({ name: t.name, description: t.description ?? '', input_schema: t.inputSchema })),
    0,
  );
}

/** One task's meter: charges calls and remembers whether the phrase has been read. */
export class Meter {
  tokens = 0;
  calls = 0;
  toolList = 0;
  found = false;
  constructor(
    private readonly client: Client,
    private readonly counter: TokenCounter,
    private readonly task: RetrievalTask,
  ) {}

  listed(tools: Tool[]): void {
    this.toolList += toolListTokens(tools, this.counter);
    this.tokens += this.toolList;
  }

  /** Calls a tool, charging the call and its answer; returns the answer's text and structured data. */
  async call(name: string, args: Record<string, unknown>): Promise<{ text: string; data: any; error: boolean }> {
    this.calls++;
    this.tokens += this.counter.count(JSON.stringify({ name, arguments: args }));
    const r = (await this.client.callTool({ name, arguments: args })) as CallToolResult;
    const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    this.tokens += this.counter.count(text);
    if (normalize(text).includes(normalize(this.task.phrase))) this.found = true;
    return { text, data: r.structuredContent as any, error: !!r.isError };
  }

  outcome(): TaskOutcome {
    return { ok: this.found, tokens: this.tokens, toolList: this.toolList, calls: this.calls };
  }
}

/** Today's full read of a binding: get_bindings at tier 2; a document over the response cap in get_binding pages. */
async function readWhole(m: Meter, id: string): Promise<void> {
  const batch = await m.call('get_bindings', { ids: [id], tier: '2' });
  if (batch.data?.results?.[0]?.tier === '2' && !batch.data.results[0].page?.nextCursor) return;
  let cursor: string | undefined;
  do {
    const page = await m.call('get_binding', { id, tier: '2', ...(cursor ? { cursor } : {}) });
    cursor = page.data?.binding?.page?.nextCursor ?? undefined;
  } while (cursor && !m.found);
}

/** Bindery as it is used today: lazy tool list, search tier 1, then the best hits at tier 2 via get_bindings. */
export async function binderyToday(client: Client, counter: TokenCounter, task: RetrievalTask): Promise<TaskOutcome> {
  const m = new Meter(client, counter, task);
  m.listed((await client.listTools()).tools);
  const search = await m.call('search_bindings', { query: task.query, tier: '1', limit: 5 });
  for (const hit of (search.data?.results ?? []).slice(0, MAX_READS)) {
    if (m.found) break;
    await readWhole(m, hit.id);
  }
  return m.outcome();
}

/**
 * Bindery's best policy with what the server offers (feature-detected, so it runs before and after
 * excerpts and sections existed): the hit's excerpt; else its matching section; else tier 1.5, then tier 2.
 */
/** The budget the best policy gives get_bindings {query}: room for a few sections. */
const QUERY_BUDGET = 1_200;

export async function binderyBest(client: Client, counter: TokenCounter, task: RetrievalTask): Promise<TaskOutcome & { path: string }> {
  const m = new Meter(client, counter, task);
  const tools = (await client.listTools()).tools;
  m.listed(tools);
  const search = await m.call('search_bindings', { query: task.query, tier: '1', limit: 5 });
  let path = search.data?.results?.some((h: any) => h.match) ? 'excerpt' : 'preview';
  let known = tools.some((t) => t.name === 'get_binding') || tools.some((t) => /\bsection\b/.test(t.description ?? ''));
  // get_bindings is listed in lazy mode; with `query` it packs the hits' matching sections under a budget in one call.
  const batchQuery = tools.find((t) => t.name === 'get_bindings')?.inputSchema?.properties?.query !== undefined;
  const hits = (search.data?.results ?? []).slice(0, MAX_READS);
  if (!m.found && batchQuery && hits.length) {
    path = 'get_bindings {query}';
    await m.call('get_bindings', { ids: hits.map((h: any) => h.id), query: task.query, maxTokens: QUERY_BUDGET });
  }
  for (const hit of hits) {
    if (m.found) break;
    if (hit.match?.section) {
      // A model learns of get_binding {section} from a listed description; failing that it asks search_tools.
      if (!known) {
        await m.call('search_tools', { query: 'read one section of a binding', limit: 1 });
        known = true;
      }
      path = 'section';
      await m.call('get_binding', { id: hit.id, section: hit.match.section });
      continue;
    }
    path = 'tier 1.5 → 2';
    await m.call('get_bindings', { ids: [hit.id], tier: '1.5' });
    if (!m.found) await readWhole(m, hit.id);
  }
  return { ...m.outcome(), path };
}

/** An agent that already knows the file: reads it whole with server-filesystem's read_text_file. */
export async function knowsTheFile(client: Client, tools: Tool[], counter: TokenCounter, task: RetrievalTask): Promise<TaskOutcome> {
  const m = new Meter(client, counter, task);
  m.listed(tools);
  await m.call(tools.some((t) => t.name === 'read_text_file') ? 'read_text_file' : 'read_file', { path: task.path });
  return m.outcome();
}

/** Context an agent can hold; a memory search past it ends the task (the answer would not fit). */
const CONTEXT_TOKENS = 200_000;

/**
 * server-memory's workflow: search_nodes with the query (a substring match, so the whole query rarely
 * matches), then each keyword alone, longest first, until the phrase shows up. search_nodes returns
 * whole entities, so open_nodes would only repeat what was read.
 */
export async function memoryAgent(client: Client, tools: Tool[], counter: TokenCounter, task: RetrievalTask): Promise<TaskOutcome> {
  const m = new Meter(client, counter, task);
  m.listed(tools);
  const words = task.query.split(' ').sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  for (const query of [task.query, ...words]) {
    await m.call('search_nodes', { query });
    if (m.found || m.tokens > CONTEXT_TOKENS) break;
  }
  const o = m.outcome();
  return { ...o, ok: o.ok && o.tokens <= CONTEXT_TOKENS };
}
