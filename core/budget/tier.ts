import type { Piece } from '../tokens/doc.ts';
import type { VersionFacts } from './facts.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { fitCard } from './card-fit.ts';
import { bindingUrls, gistOf, previewWithNote, renderContent, renderHead, renderLine, renderPreview } from './render.ts';
import { countSections, encodeSections, outlineObject, parseSections, renderOutline } from './outline.ts';

export { bindingUrls, previewWithNote, renderContent, renderHead, renderLine, renderPreview };
export { HEAD_TOKEN_BOUND } from './card-fit.ts';
export type { VersionFacts } from './facts.ts';

export type Tier = '0' | '1' | '1.5' | '2';
export const TIERS: readonly Tier[] = ['0', '1', '1.5', '2'];
/** Lower tiers to try, best first, when an item does not fit at the one asked for. */
export const FALLBACK_ORDER: Record<Tier, Tier[]> = { '2': ['2', '1.5', '1'], '1.5': ['1.5', '1'], '1': ['1'], '0': ['0'] };

export const PREVIEW_CHARS = 500;
/** Bump when the rendered blocks change: stored block counts are then recounted. */
export const RENDER_REVISION = 8;

/** Stored exact token counts of the three rendered blocks of a version. */
export interface BlockCounts {
  headBlockTokens: number;
  /** The tier-0 line (id, name, content tokens, gist): fixed by stored facts, so counted once like the card. */
  lineBlockTokens: number;
  previewBlockTokens: number;
  contentBlockTokens: number;
  /** The tier-1.5 outline block (part of tier 1.5; 0 when there is none). */
  outlineBlockTokens: number;
  /** The sections and their block counts (outline.ts JSON); absent on rows read without it (lists). */
  sections?: string;
  /** What the tier-1 card shows of name, summary and key points (chosen by tokens; '' = by characters). */
  headCut: string;
}

/** The first 500 characters of content, never splitting a surrogate pair. */
export function takePreview(content: string): string {
  if (content.length <= PREVIEW_CHARS) return content;
  const code = content.charCodeAt(PREVIEW_CHARS - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? PREVIEW_CHARS - 1 : PREVIEW_CHARS;
  return content.slice(0, end);
}

/** Counts the blocks once, at write time; reads use these numbers and never re-tokenize. */
export function countBlocks(v: VersionFacts, content: string, publicBase: string, tokens: TokenCounter): BlockCounts {
  // The cut is chosen by tokens here, so it follows the tokenizer and URL the counts are made for.
  const { headCut, headBlockTokens } = fitCard(v, publicBase, tokens);
  const { index, outlineBlockTokens } = countSections(content, v.fence, tokens);
  return {
    headBlockTokens,
    lineBlockTokens: tokens.count(renderLine(v)),
    previewBlockTokens: tokens.count(renderPreview({ ...v, headCut })),
    contentBlockTokens: tokens.count(renderContent(content, v.fence)),
    outlineBlockTokens,
    sections: encodeSections(index),
    headCut,
  };
}

/** The pieces of one version at a tier, with stored counts (content must be loaded for tier 2). */
export function tierPieces(v: VersionFacts & BlockCounts, tier: Tier, publicBase: string, content?: string): Piece[] {
  if (tier === '0') return [{ text: renderLine(v), tokens: v.lineBlockTokens }];
  const pieces: Piece[] = [{ text: renderHead(v, publicBase), tokens: v.headBlockTokens }];
  if (tier === '1.5') {
    pieces.push({ text: renderPreview(v), tokens: v.previewBlockTokens });
    if (v.outlineBlockTokens > 0) pieces.push({ text: renderOutline(loadedSections(v), v.fence), tokens: v.outlineBlockTokens });
  }
  if (tier === '2') {
    if (content === undefined) throw new Error('tier 2 pieces need the content');
    pieces.push({ text: renderContent(content, v.fence), tokens: v.contentBlockTokens });
  }
  return pieces;
}

/** Stored tokens of a version at a tier, without rendering anything. */
export function tierCost(v: BlockCounts, tier: Tier): number {
  if (tier === '0') return v.lineBlockTokens;
  if (tier === '1') return v.headBlockTokens;
  if (tier === '1.5') return v.headBlockTokens + v.previewBlockTokens + v.outlineBlockTokens;
  return v.headBlockTokens + v.contentBlockTokens;
}

/** The parsed sections of a row that must have them (tier 1.5, section reads, query packing). */
export function loadedSections(v: Pick<BlockCounts, 'sections'>) {
  const index = parseSections(v.sections);
  if (!index) throw new Error('sections were not loaded for this row');
  return index;
}

/** The structured (JSON) form of a version at a tier (tier 1.5 carries the outline when sections are loaded). */
export function tierObject(v: VersionFacts & Pick<BlockCounts, 'sections'>, tier: Tier, publicBase: string, content?: string) {
  const index = tier === '1.5' ? parseSections(v.sections) : undefined;
  const urls = bindingUrls(publicBase, v.spaceSlug, v.bindingSlug);
  return {
    id: v.bindingId,
    name: v.name,
    space: `@${v.spaceSlug}`,
    version: v.number,
    tier,
    summary: v.summary,
    keyPoints: v.keyPoints,
    contentTokenCount: v.contentTokenCount,
    summaryTokenCount: v.summaryTokenCount,
    publicUrl: urls.publicUrl,
    textUrl: urls.textUrl,
    source: v.source,
    model: v.model,
    updatedAt: new Date(v.createdAt).toISOString(),
    ...(tier === '0' && gistOf(v) ? { gist: gistOf(v) } : {}),
    ...(tier === '1.5' ? { contentPreview: previewWithNote(v) } : {}),
    ...(index ? outlineObject(index) : {}),
    ...(tier === '2' && content !== undefined ? { content } : {}),
  };
}
