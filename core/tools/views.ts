import { z } from 'zod';
import type { BindingVersionRow } from '../../db/store/bindings.ts';
import { bindingUrls, tierObject, tierPieces, type Tier } from '../budget/tier.ts';
import type { ToolContext } from '../context.ts';
import { line, type Piece } from '../tokens/doc.ts';
import type { ContextMeta } from './define.ts';

/** JSON shape of one section as a read shows it. */
export const sectionView = z.object({
  id: z.string(),
  heading: z.string(),
  path: z.array(z.string()),
  /** Exact tokens of the section block (heading path line and fenced text). */
  tokens: z.number(),
  content: z.string(),
  /** When a budget held only part of it: that part's block tokens and about what is left. */
  cut: z.object({ tokens: z.number(), restTokens: z.number() }).optional(),
});

/** JSON shape of a binding at any tier (docs/reference/tiers-and-budgets.md#tiers). */
export const bindingView = z.object({
  id: z.string(),
  name: z.string(),
  space: z.string(),
  version: z.number(),
  tier: z.enum(['0', '1', '1.5', '2']),
  summary: z.string(),
  keyPoints: z.array(z.string()),
  contentTokenCount: z.number(),
  summaryTokenCount: z.number(),
  publicUrl: z.string(),
  textUrl: z.string(),
  source: z.enum(['human', 'llm']),
  model: z.string().nullable(),
  updatedAt: z.string(),
  gist: z.string().optional(),
  contentPreview: z.string().optional(),
  outline: z.array(z.object({ id: z.string(), heading: z.string(), tokens: z.number() })).optional(),
  outlineRest: z.object({ sections: z.number(), tokens: z.number() }).optional(),
  content: z.string().optional(),
  page: z.object({ index: z.number(), count: z.number(), nextCursor: z.string().nullable() }).optional(),
});
export type BindingView = z.infer<typeof bindingView> & { section?: SectionView; sections?: (SectionView & { score: number })[] };
export type SectionView = z.infer<typeof sectionView>;

/** A binding with the one section a `section` read returns (one page of it when paged); only those tools declare it. */
export const bindingWithSection = bindingView.extend({ section: sectionView.optional() });
/** A binding with the sections a `query` read shows, best match first; only those tools declare it. */
export const bindingWithSections = bindingView.extend({ sections: z.array(sectionView.extend({ score: z.number() })).optional() });

export const paginationView = z.object({ total: z.number(), hasMore: z.boolean(), nextCursor: z.string().nullable() });

/** Row → render facts (the version's immutable data plus where it lives). */
export function facts(row: BindingVersionRow) {
  return { ...row, bindingId: row.bindingId };
}

/** One binding at a tier: pieces with stored counts, the JSON view, and its `_meta.context.binding`. */
export function bindingAt(row: BindingVersionRow, tier: Tier, ctx: ToolContext): { pieces: Piece[]; view: BindingView } {
  const base = ctx.config.publicUrl;
  return {
    pieces: tierPieces(facts(row), tier, base, tier === '2' ? row.content : undefined),
    view: tierObject(facts(row), tier, base, tier === '2' ? row.content : undefined) as BindingView,
  };
}

/** `_meta.context.binding` and `agentMeta` for a result about one binding version. */
export function bindingMeta(row: BindingVersionRow, ctx: ToolContext): ContextMeta {
  const urls = bindingUrls(ctx.config.publicUrl, row.spaceSlug, row.bindingSlug);
  return {
    binding: { id: row.bindingId, contentTokenCount: row.contentTokenCount, ...urls },
    agentMeta: { source: row.source, model: row.model },
  };
}

/**
 * The answer to a write: a one-line note plus the tier-1 card. The write has already happened, so
 * when the card alone would pass the response cap (a tiny cap and a dense script) the answer keeps
 * only the note: a write must never come back as an error, or a retrying agent duplicates it.
 */
export function writeAnswer(row: BindingVersionRow, note: string, ctx: ToolContext): { pieces: Piece[]; view: BindingView } {
  const card = bindingAt(row, '1', ctx);
  if (row.headBlockTokens + 200 <= ctx.config.maxResponseTokens) return { pieces: [line(note), ...card.pieces], view: card.view };
  return {
    pieces: [line(`${note} Its tier-1 card (${row.headBlockTokens} tokens) is over the response cap, so it is not shown.`)],
    view: card.view,
  };
}
