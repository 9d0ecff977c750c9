import { RpcError } from '../protocol/rpc-error.ts';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  type GetPromptResult,
  type Prompt,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolContext } from '../context.ts';
import { BinderyError } from '../errors.ts';
import { executeTool } from '../tools/run.ts';
import { formatIssues, clip } from '../tools/format-issues.ts';
import { bindingId as bindingIdSchema, setId as setIdSchema, text } from '../tools/schema.ts';
import { ensureStoredCountsOnce } from '../services/prepare.ts';
import { findReadableBindingId } from '../services/binding-reads.ts';
import { parseBindingUri, UriError } from './uri.ts';
import { toMcpError } from './rpc-errors.ts';

/** One prompt: what prompts/list shows, its argument schema (all MCP prompt arguments are strings), and its text. */
interface PromptSpec<S extends z.ZodType> {
  prompt: Prompt;
  args: S;
  /** The user message; `budget` is the most tokens it may take (load_set), else undefined. */
  render(args: z.infer<S>, ctx: ToolContext): Promise<{ text: string; budget?: number }>;
}

const tierArg = z.enum(['0', '1', '1.5', '2'], { message: 'must be "0", "1", "1.5" or "2"' });
const DEFAULT_SET_TOKENS = 4000;

/** A tool's text for a prompt, run as this caller; a not-found names the prompt argument that named it. */
async function toolText(ctx: ToolContext, tool: string, args: Record<string, unknown>, argument: string): Promise<string> {
  try {
    return (await executeTool(ctx.tools.get(tool)!, args, ctx)).text;
  } catch (err) {
    if (err instanceof BinderyError && err.code === 'NOT_FOUND') {
      throw new RpcError(
        ErrorCode.InvalidParams,
        `${argument}: ${clip(String(args[argument === 'binding' ? 'id' : argument] ?? ''))} was not found (it does not exist or you may not read it)`,
      );
    }
    throw err;
  }
}

/** A binding named by id (`bnd_…`), URI (`bindery://space/slug`) or slug (in `space`, default: personal space) → its id. */
async function resolveBindingArg(ctx: ToolContext, ref: string, space?: string): Promise<string> {
  if (bindingIdSchema().safeParse(ref).success) return ref;
  let spaceSlug = space?.replace(/^@/, '');
  let slug = ref;
  if (ref.startsWith('bindery:')) {
    try {
      ({ space: spaceSlug, binding: slug } = parseBindingUri(ref));
    } catch (err) {
      if (err instanceof UriError) throw new RpcError(ErrorCode.InvalidParams, `binding: ${err.message}`);
      throw err;
    }
  }
  const id = await findReadableBindingId(ctx, ctx.caller, slug, spaceSlug);
  if (!id) throw new RpcError(ErrorCode.InvalidParams, `binding: ${clip(ref)} was not found (it does not exist or you may not read it)`);
  return id;
}

const loadSet: PromptSpec<z.ZodObject> = {
  prompt: {
    name: 'load_set',
    title: 'Load a set as context',
    description: "Packs a set's bindings under a token budget into one message (the get_set_context packer).",
    arguments: [
      { name: 'setId', description: 'set id (set_…)', required: true },
      { name: 'maxTokens', description: `token budget for the whole message (default ${DEFAULT_SET_TOKENS})` },
      { name: 'tier', description: '"1", "1.5" or "2" (default "2"): how much of each binding' },
    ],
  },
  args: z.strictObject({
    setId: setIdSchema(),
    maxTokens: z
      .string()
      .regex(/^[0-9]{1,7}$/, { message: 'must be a whole number of tokens' })
      .transform(Number)
      .pipe(z.number().min(100, { message: 'must be at least 100 tokens' }))
      .optional(),
    tier: tierArg.optional(),
  }),
  async render(args, ctx) {
    const budget = Math.min((args.maxTokens as number | undefined) ?? DEFAULT_SET_TOKENS, ctx.config.maxResponseTokens);
    const intro = `Context from set ${args.setId} follows. Use it to answer; cite binding ids.\n\n`;
    const packed = await toolText(
      ctx,
      'get_set_context',
      { setId: args.setId, maxTokens: budget - ctx.tokens.count(intro) - 2, tier: args.tier ?? '2' },
      'setId',
    );
    return { text: intro + packed, budget };
  },
};

const reviewHistory: PromptSpec<z.ZodObject> = {
  prompt: {
    name: 'review_history',
    title: "Review a binding's history",
    description: 'Lists the versions of a binding with their provenance and asks for a summary of how it changed.',
    arguments: [
      { name: 'binding', description: 'binding id, bindery:// URI, or slug', required: true },
      { name: 'space', description: 'space slug for a binding slug (default: your personal space)' },
    ],
  },
  args: z.strictObject({
    binding: text().trim().min(1, { message: 'must not be empty' }).max(300, { message: 'must be at most 300 characters' }),
    space: z.string().max(80).optional(),
  }),
  async render(args, ctx) {
    const id = await resolveBindingArg(ctx, args.binding as string, args.space as string | undefined);
    const versions = await toolText(ctx, 'list_versions', { id }, 'binding');
    return {
      text: `Summarise how binding ${id} changed: per version what changed, who wrote it (source, model) and when. Read a version with get_version only where the summaries say too little.\n\n${versions}`,
    };
  },
};

const find: PromptSpec<z.ZodObject> = {
  prompt: {
    name: 'find',
    title: 'Find and answer',
    description: 'Searches your bindings for a question and asks for an answer from what matches.',
    arguments: [
      { name: 'question', description: 'what you want to know', required: true },
      { name: 'space', description: 'space slug to search (default: your spaces and shares)' },
    ],
  },
  args: z.strictObject({
    question: text().trim().min(1, { message: 'must not be empty' }).max(500, { message: 'must be at most 500 characters' }),
    space: z.string().max(80).optional(),
  }),
  async render(args, ctx) {
    const hits = await toolText(
      ctx,
      'search_bindings',
      { query: args.question, ...(args.space ? { space: args.space } : {}), tier: '1', limit: 5 },
      'space',
    );
    return {
      text: `Answer from these search results; read at tier "2" with get_binding only what you need.\nQuestion: ${args.question}\n\n${hits}`,
    };
  },
};

export const PROMPTS: readonly PromptSpec<z.ZodObject>[] = [loadSet, reviewHistory, find];

/** prompts/get: validated arguments (errors name the argument and the rule), then one user message with `_meta.context` tokens. */
async function getPrompt(ctx: ToolContext, name: string, raw: Record<string, string> | undefined): Promise<GetPromptResult> {
  const spec = PROMPTS.find((p) => p.prompt.name === name);
  if (!spec)
    throw new RpcError(
      ErrorCode.InvalidParams,
      `name: no prompt named "${clip(name)}"; prompts/list shows ${PROMPTS.map((p) => p.prompt.name).join(', ')}`,
    );
  const parsed = spec.args.safeParse(raw ?? {});
  if (!parsed.success) throw new RpcError(ErrorCode.InvalidParams, `${formatIssues(parsed.error).message} (prompt ${name})`);
  await ctx.tokens.load();
  await ensureStoredCountsOnce(ctx);
  const { text, budget } = await spec.render(parsed.data, ctx);
  const tokens = ctx.tokens.count(text);
  if (budget !== undefined && tokens > budget)
    throw new RpcError(ErrorCode.InvalidParams, `maxTokens: ${budget} tokens cannot hold this set's context; raise maxTokens`);
  return {
    description: spec.prompt.description,
    messages: [{ role: 'user', content: { type: 'text', text } }],
    _meta: {
      context: {
        response: { tokens },
        ...(budget !== undefined ? { budget: { maxTokens: budget, usedTokens: tokens, remainingTokens: budget - tokens } } : {}),
      },
    },
  };
}

/** Registers prompts/list and prompts/get. */
export function registerPrompts(server: Server, ctx: ToolContext): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS.map((p) => p.prompt) }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    try {
      return await getPrompt(ctx, request.params.name, request.params.arguments);
    } catch (err) {
      throw toMcpError(err, ctx.log, 'prompts/get');
    }
  });
}
