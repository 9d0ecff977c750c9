import { z } from 'zod';
import { defineTool } from '../define.ts';
import { bindingRef, cursorSchema, maxTokensSchema, sectionIdField, tierField } from '../schema.ts';
import { readBinding, resolveBindingRef } from '../../services/binding-reads.ts';
import { bindingMeta, bindingWithSection } from '../views.ts';
import { renderBindingAtTier } from './render-paged.ts';
import { renderSectionRead } from './render-section.ts';
import { checkBudget } from '../packed-list.ts';
import { fail } from '../../errors.ts';
import type { ToolContext } from '../../context.ts';
import { tierCost, type Tier } from '../../budget/tier.ts';
import { freshCounts, loadSections, missingContents } from '../../services/counts.ts';
import { bindingAt } from '../views.ts';
import { PAGE_MARGIN } from './render-paged.ts';

export const getBindingTool = defineTool({
  name: 'get_binding',
  title: 'Get binding',
  category: 'binding',
  description:
    'Read one section (§id), cut to maxTokens; or tier "1" card (default), "2" full text (maxTokens alone: the fullest that fits).',
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
    id: bindingRef(),
    tier: tierField.optional(),
    version: z.number().int().min(1, { message: 'must be 1 or more' }).optional(),
    section: sectionIdField().optional(),
    cursor: cursorSchema().optional(),
    maxTokens: maxTokensSchema().optional(),
  }),
  output: z.object({ binding: bindingWithSection }),
  bound: { kind: 'tokens', maxTokens: 25_000 },
  annotations: { readOnlyHint: true },
  storedTextOnly: true,
  async handler(given, ctx) {
    checkBudget(given.maxTokens, ctx);
    const args = { ...given, id: await resolveBindingRef(ctx, ctx.caller, given.id) };
    const tier = args.tier ?? '1';
    if (args.maxTokens !== undefined && args.section === undefined) return fittedRead(args, args.maxTokens, ctx);
    const row = await readBinding(ctx, ctx.caller, args.id, {
      version: args.version,
      withContent: tier === '2' || args.section !== undefined,
    });
    const { pieces, view } =
      args.section !== undefined
        ? await renderSectionRead(row, args.section, ctx, args.cursor, args.maxTokens)
        : await renderBindingAtTier(row, tier, ctx, args.cursor);
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

/** Tiers from the fullest down, as a budgeted read falls back through them. */
const FALLBACK: readonly Tier[] = ['2', '1.5', '1', '0'];

/**
 * A budgeted read of the whole binding (no section): the fullest tier, from the one asked for (tier 2
 * when none was) down to the card, whose stored cost fits maxTokens and, for the full text, the
 * response cap (a longer text is read by sections); tier "0" asked for is read as tier 0. The outline
 * of tier 1.5 names each section's id and cost, so the next read can be the section that answers.
 * Below the card: INVALID_INPUT naming the card's cost and tier 0's. (Falling to the tier-0 line
 * instead was tried: two agents in the loop took the bare line for a fault and called again anyway.)
 */
async function fittedRead(args: { id: string; tier?: Tier; version?: number; cursor?: string }, maxTokens: number, ctx: ToolContext) {
  if (args.cursor !== undefined) throw fail.invalid('cursor', 'pages a read without maxTokens; omit cursor or maxTokens');
  const row = await readBinding(ctx, ctx.caller, args.id, { version: args.version, withContent: false });
  await freshCounts(ctx, [row]);
  await loadSections(ctx, [row]);
  const from = FALLBACK.indexOf(args.tier ?? '2');
  const fits = (t: Tier) => {
    const cost = tierCost(row, t);
    return cost <= maxTokens && (t !== '2' || cost + PAGE_MARGIN <= ctx.config.maxResponseTokens);
  };
  const tier = (args.tier === '0' ? ['0' as const] : FALLBACK.slice(from, -1)).find(fits);
  if (!tier)
    throw fail.invalid(
      'maxTokens',
      args.tier === '0'
        ? `is below this binding's one-line tier "0" (${tierCost(row, '0')} tokens); give at least that`
        : `is below this binding's card (${tierCost(row, '1')} tokens); give at least that, or tier "0" for its one line (${tierCost(row, '0')} tokens)`,
    );
  if (tier === '2') Object.assign(row, { content: (await missingContents(ctx, [row])).get(row.versionId) ?? row.content });
  const { pieces, view } = bindingAt(row, tier, ctx);
  const used = pieces.reduce((n, p) => n + (p.tokens ?? ctx.tokens.count(p.text)), 0);
  const budget = {
    maxTokens,
    usedTokens: used,
    remainingTokens: maxTokens - used,
    exhausted: tier !== FALLBACK[from],
    included: [{ id: row.bindingId, tier, tokens: used }],
    omitted: [],
  };
  return { pieces, data: { binding: view }, meta: { ...bindingMeta(row, ctx), budget } };
}
