import { z } from 'zod';

/** JSON shape of `_meta.context.budget` (also in structured content when a budget was given). */
export const budgetView = z.object({
  maxTokens: z.number(),
  usedTokens: z.number(),
  remainingTokens: z.number(),
  exhausted: z.boolean(),
  included: z.array(
    z.object({
      id: z.string(),
      tier: z.enum(['passage', '0', '1', '1.5', '2']),
      tokens: z.number(),
      sections: z.array(z.string()).optional(),
    }),
  ),
  omitted: z.array(z.object({ id: z.string(), tokens: z.number(), reason: z.string().optional() })),
});
