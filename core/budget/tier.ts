import type { Piece } from '../tokens/doc';
import type { TokenCounter } from '../tokens/counter';

export type Tier = '1' | '1.5' | '2';
export const TIERS: readonly Tier[] = ['1', '1.5', '2'];
/** Lower tiers to try, best first, when an item does not fit at the one asked for. */
export const FALLBACK_ORDER: Record<Tier, Tier[]> = { '2': ['2', '1.5', '1'], '1.5': ['1.5', '1'], '1': ['1'] };

export const PREVIEW_CHARS = 500;
/** Bump when the rendered blocks change: stored block counts are then recounted. */
export const RENDER_REVISION = 2;
/**
 * Characters of name, model, summary and key points the tier-1 head shows. Key points past this move
 * to the tier-1.5 block, which keeps a maximal tier-1 card (200-char name, 600-char summary, 8 × 160-char
 * key points) near 300 tokens of English instead of ~450. The cut is by characters so a read can
 * reproduce it from stored facts without tokenizing.
 */
export const HEAD_TEXT_CHARS = 1100;

/** The immutable facts of one version that every tier is rendered from. */
export interface VersionFacts {
  bindingId: string;
  spaceSlug: string;
  bindingSlug: string;
  number: number;
  name: string;
  summary: string;
  keyPoints: string[];
  contentTokenCount: number;
  summaryTokenCount: number;
  contentPreview: string;
  contentChars: number;
  /** Random marker absent from the content; fences content wherever it is shown. */
  fence: string;
  source: 'human' | 'llm';
  model: string | null;
  createdAt: number;
}

/** Stored exact token counts of the three rendered blocks of a version. */
export interface BlockCounts {
  headBlockTokens: number;
  previewBlockTokens: number;
  contentBlockTokens: number;
  /** What the tier-1 card shows of name, summary and key points (chosen by tokens; '' = by characters). */
  headCut: string;
}

/** The public and Markdown URLs of a binding. */
export function bindingUrls(publicBase: string, spaceSlug: string, bindingSlug: string) {
  const publicUrl = `${publicBase}/@${spaceSlug}/${bindingSlug}`;
  return { publicUrl, textUrl: `${publicUrl}?format=md` };
}

/** The first 500 characters of content, never splitting a surrogate pair. */
export function takePreview(content: string): string {
  if (content.length <= PREVIEW_CHARS) return content;
  const code = content.charCodeAt(PREVIEW_CHARS - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? PREVIEW_CHARS - 1 : PREVIEW_CHARS;
  return content.slice(0, end);
}

/** The preview as tier 1.5 shows it: with the truncation note when content continues. */
export function previewWithNote(v: Pick<VersionFacts, 'contentPreview' | 'contentChars'>): string {
  const left = v.contentChars - v.contentPreview.length;
  if (left <= 0) return v.contentPreview;
  return `${v.contentPreview}\n(... truncated ${left} characters. Request tier 2 for full content.)`;
}

function provenance(v: Pick<VersionFacts, 'source' | 'model'>): string {
  return v.model ? `${v.source}/${v.model}` : v.source;
}

/** The key points the tier-1 head shows (in order, while within HEAD_TEXT_CHARS) and the rest. */
export function headKeyPoints(v: Pick<VersionFacts, 'name' | 'model' | 'summary' | 'keyPoints'>): { shown: string[]; rest: string[] } {
  let used = v.name.length + (v.model?.length ?? 0) + v.summary.length;
  let i = 0;
  while (i < v.keyPoints.length && (i === 0 || used + v.keyPoints[i]!.length <= HEAD_TEXT_CHARS)) used += v.keyPoints[i++]!.length;
  return { shown: v.keyPoints.slice(0, i), rest: v.keyPoints.slice(i) };
}

/** Tier 1 block: heading, facts line, URL, summary and key points. Ends with a newline. */
export function renderHead(v: VersionFacts, publicBase: string): string {
  const { textUrl } = bindingUrls(publicBase, v.spaceSlug, v.bindingSlug);
  const date = new Date(v.createdAt).toISOString().slice(0, 10);
  const { shown, rest } = headKeyPoints(v);
  const lines = [
    `### ${oneLine(v.name)}`,
    `${v.bindingId} · v${v.number} · @${v.spaceSlug} · ${v.contentTokenCount} content tokens · ${provenance(v)} · ${date}`,
    `md: ${textUrl}`,
    oneLine(v.summary),
    ...shown.map((k) => `- ${oneLine(k)}`),
    ...(rest.length ? [`- …${rest.length} more key point${rest.length === 1 ? '' : 's'} at tier 1.5`] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** Tier 1.5 addition: key points the head left out, then the stored preview and its truncation note. */
export function renderPreview(v: VersionFacts): string {
  const { rest } = headKeyPoints(v);
  const more = rest.length ? `More key points:\n${rest.map((k) => `- ${oneLine(k)}`).join('\n')}\n` : '';
  return `${more}Preview:\n${previewWithNote(v)}\n`;
}

/** Tier 2 addition: the full content between tags that Markdown inside cannot close by accident. */
export function renderContent(content: string, page?: { index: number; count: number }): string {
  const attr = page ? ` page="${page.index}/${page.count}"` : '';
  return `<content${attr}>\n${content}\n</content>\n`;
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}

/** Counts the blocks once, at write time; reads use these numbers and never re-tokenize. */
export function countBlocks(v: VersionFacts, content: string, publicBase: string, tokens: TokenCounter): BlockCounts {
  return {
    headBlockTokens: tokens.count(renderHead(v, publicBase)),
    previewBlockTokens: tokens.count(renderPreview(v)),
    contentBlockTokens: tokens.count(renderContent(content)),
    headCut: '',
  };
}

/** The pieces of one version at a tier, with stored counts (content must be loaded for tier 2). */
export function tierPieces(v: VersionFacts & BlockCounts, tier: Tier, publicBase: string, content?: string): Piece[] {
  const pieces: Piece[] = [{ text: renderHead(v, publicBase), tokens: v.headBlockTokens }];
  if (tier === '1.5') pieces.push({ text: renderPreview(v), tokens: v.previewBlockTokens });
  if (tier === '2') {
    if (content === undefined) throw new Error('tier 2 pieces need the content');
    pieces.push({ text: renderContent(content), tokens: v.contentBlockTokens });
  }
  return pieces;
}

/** Stored tokens of a version at a tier, without rendering anything. */
export function tierCost(v: BlockCounts, tier: Tier): number {
  if (tier === '1') return v.headBlockTokens;
  if (tier === '1.5') return v.headBlockTokens + v.previewBlockTokens;
  return v.headBlockTokens + v.contentBlockTokens;
}

/** The structured (JSON) form of a version at a tier. */
export function tierObject(v: VersionFacts, tier: Tier, publicBase: string, content?: string) {
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
    ...(tier === '1.5' ? { contentPreview: previewWithNote(v) } : {}),
    ...(tier === '2' && content !== undefined ? { content } : {}),
  };
}
