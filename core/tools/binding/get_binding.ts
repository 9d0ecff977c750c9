import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingId, cursorSchema, maxTokensSchema, sectionIdField, tierField } from '../schema.ts';
import { readBinding } from '../../services/bindings.ts';
import { bindingMeta, bindingWithSection } from '../views.ts';
import { renderBindingAtTier } from './render-paged.ts';
import { renderSectionRead } from './render-section.ts';
import { checkBudget } from '../packed-list.ts';
import { fail } from '../../errors.ts';

export const getBindingTool = defineTool({
  name: 'get_binding',
  title: 'Get binding',
  category: 'binding',
  description: 'Read one section (§id), cut to maxTokens; or tier "1" card (default), "2" full text.',
  aliases: [
    'read document',
    'open binding',
    'fetch doc',
    'load content',
    'read an old version',
    'full text of a document',
    'page through a section',
  ],
  // Lazy mode lists these: most reads name a section; a tier or a version is rare, and the card is the default.
  listed: ['id', 'section', 'maxTokens'],
  listedDescription: 'Read one section (§id), cut to maxTokens.',
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
    checkBudget(args.maxTokens, ctx);
    if (args.maxTokens !== undefined && args.section === undefined)
      throw fail.invalid('maxTokens', 'applies to a section read; give section too (or use get_bindings {ids, maxTokens} for tiers)');
    const row = await readBinding(ctx, ctx.caller, args.id, {
      version: args.version,
      withContent: args.tier === '2' || args.section !== undefined,
    });
    const { pieces, view } =
      args.section !== undefined
        ? await renderSectionRead(row, args.section, ctx, args.cursor, args.maxTokens)
        : await renderBindingAtTier(row, args.tier, ctx, args.cursor);
    if (args.maxTokens === undefined) return { pieces, data: { binding: view }, meta: bindingMeta(row, ctx) };
    // A budgeted section read reports its budget; every piece of it carries its exact count.
    const used = pieces.reduce((n, p) => n + (p.tokens ?? ctx.tokens.count(p.text)), 0);
    const section = view.section!;
    const budget = {
      maxTokens: args.maxTokens,
      usedTokens: used,
      remainingTokens: args.maxTokens - used,
      exhausted: section.cut !== undefined,
      included: [{ id: row.bindingId, tier: '2' as const, tokens: used, sections: [section.id] }],
      omitted: [],
    };
    return { pieces, data: { binding: view }, meta: { ...bindingMeta(row, ctx), budget } };
  },
});
