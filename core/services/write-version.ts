import type { TokenCounter } from '../tokens/counter.ts';
import { countBlocks, HEAD_TOKEN_BOUND, takePreview, type BlockCounts } from '../budget/tier.ts';
import { newFence, newId, sha256Hex } from '../ids.ts';
import { fail } from '../errors.ts';
import { checkVersionFields } from './binding-fields.ts';
import type { VersionInsert } from '../../db/store/bindings.ts';

export interface VersionDraft {
  name: string;
  content: string;
  summary: string;
  keyPoints: string[];
  source: 'human' | 'llm';
  model: string | null;
  authorId: string;
}

/** Rejects content over the configured byte limit before anything is counted or written. */
export function checkContentSize(content: string, maxBytes: number): void {
  const bytes = new TextEncoder().encode(content).length;
  if (bytes > maxBytes)
    throw fail.tooLarge(
      'content',
      `is ${bytes} bytes; the limit is ${maxBytes} bytes (BINDERY_MAX_CONTENT_BYTES). Split it into several bindings.`,
    );
}

/**
 * Refuses a version that could not be read. The card is cut to HEAD_TOKEN_BOUND tokens whatever the
 * fields hold, and a card within it leaves room for a tier-1 list, a tier-1.5 page and a tier-2 page
 * under the smallest allowed response cap (1000), so under every BINDERY_MAX_RESPONSE_TOKENS: only a
 * card whose fixed lines alone pass the bound (a huge BINDERY_PUBLIC_URL) is left to refuse, and that
 * before anything is written.
 */
function checkReadable(blocks: BlockCounts, publicUrl: string): void {
  if (blocks.headBlockTokens <= HEAD_TOKEN_BOUND) return;
  throw fail.tooLarge(
    'BINDERY_PUBLIC_URL',
    `a tier-1 card must fit in ${HEAD_TOKEN_BOUND} tokens so every tier stays readable under any response cap, but with name, summary and model cut as far as they go this one is still ${blocks.headBlockTokens} tokens: its fixed lines (id, space, the ${publicUrl.length}-character public URL) are too long. Nothing was written; the server's operator must shorten BINDERY_PUBLIC_URL.`,
  );
}

/**
 * Builds the row of a new version: preview, hashes and every token count, computed once here so no
 * read ever tokenizes stored text again.
 */
export async function buildVersionRow(
  draft: VersionDraft,
  where: { bindingId: string; spaceSlug: string; bindingSlug: string; number: number; now: number; publicUrl: string; countsKey: string },
  tokens: TokenCounter,
): Promise<VersionInsert> {
  // The one validation of every write path: limits, and text the database gives back as written.
  checkVersionFields(draft);
  const contentPreview = takePreview(draft.content);
  const facts = {
    bindingId: where.bindingId,
    spaceSlug: where.spaceSlug,
    bindingSlug: where.bindingSlug,
    number: where.number,
    name: draft.name,
    summary: draft.summary,
    keyPoints: draft.keyPoints,
    contentTokenCount: tokens.count(draft.content),
    summaryTokenCount: tokens.count(draft.summary),
    contentPreview,
    contentChars: draft.content.length,
    fence: newFence(draft.content),
    source: draft.source,
    model: draft.model,
    createdAt: where.now,
  };
  const blocks = countBlocks(facts, draft.content, where.publicUrl, tokens);
  checkReadable(blocks, where.publicUrl);
  return {
    id: newId('ver'),
    bindingId: where.bindingId,
    number: where.number,
    name: draft.name,
    summary: draft.summary,
    keyPoints: draft.keyPoints,
    content: draft.content,
    contentPreview,
    contentChars: facts.contentChars,
    contentHash: await sha256Hex(draft.content),
    contentTokenCount: facts.contentTokenCount,
    summaryTokenCount: facts.summaryTokenCount,
    ...blocks,
    countsKey: where.countsKey,
    fence: facts.fence,
    source: draft.source,
    model: draft.model,
    authorId: draft.authorId,
    createdAt: where.now,
  };
}
