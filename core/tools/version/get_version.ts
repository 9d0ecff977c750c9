import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingId, cursorSchema, sectionIdSchema, tierSchema } from '../schema.ts';
import { readBinding } from '../../services/binding-reads.ts';
import { bindingMeta, bindingWithSection } from '../views.ts';
import { renderBindingAtTier } from '../binding/render-paged.ts';
import { renderSectionRead } from '../binding/render-section.ts';

export const getVersionTool = defineTool({
  name: 'get_version',
  title: 'Get version',
  category: 'version',
  description:
    'Read one specific version of a binding at a tier (default "1"), e.g. to compare with the current one. Versions are numbered from 1; list_versions shows them. section: one section by id (ids in the tier "1.5" outline).',
  aliases: ['history', 'old version', 'previous revision'],
  input: z.strictObject({
    id: bindingId(),
    version: z.number({ message: 'is required (a version number, 1 or more)' }).int().min(1, { message: 'must be 1 or more' }),
    tier: tierSchema.default('1'),
    section: sectionIdSchema().optional(),
    cursor: cursorSchema().optional(),
  }),
  output: z.object({ binding: bindingWithSection, current: z.boolean() }),
  bound: { kind: 'tokens', maxTokens: 25_000 },
  annotations: { readOnlyHint: true },
  storedTextOnly: true,
  async handler(args, ctx) {
    const row = await readBinding(ctx, ctx.caller, args.id, {
      version: args.version,
      withContent: args.tier === '2' || args.section !== undefined,
    });
    const { pieces, view } =
      args.section !== undefined
        ? await renderSectionRead(row, args.section, ctx, args.cursor)
        : await renderBindingAtTier(row, args.tier, ctx, args.cursor);
    return { pieces, data: { binding: view, current: row.number === row.currentVersion }, meta: bindingMeta(row, ctx) };
  },
});
