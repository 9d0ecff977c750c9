import { z } from 'zod';
import { defineTool } from '../define.ts';
import { listSpaces } from '../../services/spaces.ts';
import { line } from '../../tokens/doc.ts';
import { MAX_SET_ITEMS } from '../../services/sets.ts';
import { MIN_BUDGET_TOKENS } from '../packed-list.ts';

const SPACES_SHOWN = 20;

export const whoamiTool = defineTool({
  name: 'whoami',
  title: 'Who am I',
  category: 'utility',
  description:
    'Your user, your spaces, how tools are offered in this session (mode and why), the tokenizer every token count uses, your client, and the limits (response cap, content size, batch and set sizes).',
  aliases: ['identity', 'limits', 'account', 'which tokenizer', 'tool mode'],
  input: z.strictObject({}),
  output: z.object({
    user: z.object({ id: z.string(), handle: z.string() }),
    spaces: z.array(
      z.object({ id: z.string(), slug: z.string(), visibility: z.enum(['private', 'public']), personal: z.boolean(), access: z.string() }),
    ),
    toolMode: z.object({ mode: z.string(), reason: z.string(), listedTools: z.number() }),
    tokenizer: z.string(),
    client: z.object({ name: z.string().nullable(), version: z.string().nullable() }),
    limits: z.object({
      maxResponseTokens: z.number(),
      maxContentBytes: z.number(),
      minBudgetTokens: z.number(),
      maxBatchIds: z.number(),
      maxSetItems: z.number(),
      maxEnabledTools: z.number(),
    }),
  }),
  bound: { kind: 'tokens', maxTokens: 600 },
  annotations: { readOnlyHint: true },
  async handler(_args, ctx) {
    const { rows, total } = await listSpaces(ctx, ctx.caller, 0, SPACES_SHOWN);
    const spaces = rows.map((r) => ({ id: r.id, slug: `@${r.slug}`, visibility: r.visibility, personal: r.personal, access: r.access }));
    const listed = ctx.session.visibleTools().length;
    const limits = {
      maxResponseTokens: ctx.config.maxResponseTokens,
      maxContentBytes: ctx.config.maxContentBytes,
      minBudgetTokens: MIN_BUDGET_TOKENS,
      maxBatchIds: 50,
      maxSetItems: MAX_SET_ITEMS,
      maxEnabledTools: ctx.config.maxEnabledTools,
    };
    const client = { name: ctx.session.clientName, version: ctx.session.clientVersion };
    const spaceText = spaces
      .map((s) => `${s.slug}${s.personal ? ' (personal)' : ''}${s.access === 'owner' ? '' : ` (shared, ${s.access})`} ${s.visibility}`)
      .join(', ');
    const pieces = [
      line(`You are @${ctx.caller.handle} (${ctx.caller.id}).`),
      line(`Spaces: ${spaceText || 'none'}${total > spaces.length ? `, and ${total - spaces.length} more (list_spaces)` : ''}.`),
      line(`Tool mode: ${ctx.session.mode}, ${listed} tools listed (${ctx.session.modeReason}).`),
      line(`Tokenizer: ${ctx.config.tokenizer}; every token count is exact for it.`),
      line(`Client: ${client.name ?? 'unknown'}${client.version ? ` ${client.version}` : ''}.`),
      line(
        `Limits: responses ≤ ${limits.maxResponseTokens} tokens; content ≤ ${limits.maxContentBytes} bytes; maxTokens ${limits.minBudgetTokens}–${limits.maxResponseTokens}; get_bindings ≤ ${limits.maxBatchIds} ids; sets ≤ ${limits.maxSetItems} items.`,
      ),
    ];
    return {
      pieces,
      data: {
        user: { id: ctx.caller.id, handle: ctx.caller.handle },
        spaces,
        toolMode: { mode: ctx.session.mode, reason: ctx.session.modeReason, listedTools: listed },
        tokenizer: ctx.config.tokenizer,
        client,
        limits,
      },
    };
  },
});
