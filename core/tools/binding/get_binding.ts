import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingId, cursorSchema, sectionIdSchema, tierSchema } from '../schema.ts';
import { readBinding } from '../../services/bindings.ts';
import { bindingMeta, bindingWithSection } from '../views.ts';
import { renderBindingAtTier } from './render-paged.ts';
import { renderSectionRead } from './render-section.ts';

export const getBindingTool = defineTool({
  name: 'get_binding',
  title: 'Get binding',
  category: 'binding',
  description:
    'Read one binding. tier "1" (default): summary and key points, ~300 tokens. "1.5": plus a 500-character preview. "2": full content (check contentTokenCount first; very long content comes in pages, follow page.nextCursor). Optional version reads an older version. section: just that section (ids in the tier "1.5" outline), at its exact cost.',
  aliases: ['read document', 'open binding', 'fetch doc', 'load content'],
  input: z.strictObject({
    id: bindingId(),
    tier: tierSchema.default('1'),
    version: z.number().int().min(1, { message: 'must be 1 or more' }).optional(),
    section: sectionIdSchema().optional(),
    cursor: cursorSchema().optional(),
  }),
  output: z.object({ binding: bindingWithSection }),
  bound: { kind: 'tokens', maxTokens: 25_000 },
  annotations: { readOnlyHint: true },
  storedTextOnly: true,
  async handler(args, ctx) {
    const row = await readBinding(ctx, ctx.caller, args.id, { version: args.version, withContent: args.tier === '2' || args.section !== undefined });
    const { pieces, view } =
      args.section !== undefined ? await renderSectionRead(row, args.section, ctx, args.cursor) : await renderBindingAtTier(row, args.tier, ctx, args.cursor);
    return { pieces, data: { binding: view }, meta: bindingMeta(row, ctx) };
  },
});
