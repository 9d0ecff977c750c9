import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingId, cursorSchema, maxTokensSchema, sectionIdField, tierField } from '../schema.ts';
import { readBinding } from '../../services/bindings.ts';
import { bindingMeta, bindingWithSection } from '../views.ts';
import { renderBindingAtTier } from './render-paged.ts';
import { renderSectionRead } from './render-section.ts';

export const getBindingTool = defineTool({
  name: 'get_binding',
  title: 'Get binding',
  category: 'binding',
  description:
    'Read one section (§id), cut to fit maxTokens; or tier "1" summary (default), "2" full text.',
  aliases: ['read document', 'open binding', 'fetch doc', 'load content'],
  input: z.strictObject({
    id: bindingId(),
    tier: tierField.default('1'),
    version: z.number().int().min(1, { message: 'must be 1 or more' }).optional(),
    section: sectionIdField().optional(),
    cursor: cursorSchema().optional(),
    maxTokens: maxTokensSchema().optional(),
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
