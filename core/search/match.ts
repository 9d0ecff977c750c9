import { z } from 'zod';
import type { BindingVersionRow } from '../../db/store/bindings';
import { contentsByVersionId } from '../../db/store/contents';
import { splitSections, type SectionSpan } from '../budget/sections';
import { clip, oneLine } from '../budget/card-cut';
import type { ToolContext } from '../context';
import type { TokenCounter } from '../tokens/counter';
import type { Piece } from '../tokens/doc';
import { bestSection, excerptOf, queryTerms } from './excerpt';

/** `results[].match` of a search hit (CONTRACT §10). */
export const matchView = z.object({
  section: z.string(),
  heading: z.string(),
  excerpt: z.string(),
  sectionTokens: z.number(),
});
export type MatchView = z.infer<typeof matchView>;

/** A hit's match: its JSON and the one line the text shows under the card, with its exact count. */
export interface HitMatch {
  view: MatchView;
  piece: Piece & { tokens: number };
}

const HEADING_CHARS = 60;
const memo = new Map<string, number>();
const MEMO_LIMIT = 20_000;

/**
 * Exact tokens of one section's text. Interim: counted here and memoised per version and section
 * (versions never change); to be read from the stored per-version section counts once they exist.
 */
export function sectionTokensFor(row: Pick<BindingVersionRow, 'versionId'>, span: SectionSpan, content: string, tokens: TokenCounter): number {
  const key = `${tokens.encoding}|${row.versionId}|${span.id}`;
  let n = memo.get(key);
  if (n === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, (n = tokens.count(content.slice(span.start, span.end))));
  }
  return n;
}

/** The text line of a match: a fixed label, author text folded onto the one line, ending in "\n". */
export function matchLine(m: MatchView): string {
  const where = m.heading ? `§${m.section} "${clip(oneLine(m.heading), HEADING_CHARS)}"` : `§${m.section}`;
  return `Match: ${where} (${m.sectionTokens} tokens)${m.excerpt ? `: ${m.excerpt}` : ''}\n`;
}

/**
 * The best-matching section and a query-focused excerpt of each row's content (rows already read
 * through an access check; their content is loaded here, for these rows only). Undefined for a row
 * whose content has no text.
 */
export async function matchesFor(rows: readonly BindingVersionRow[], query: string, ctx: ToolContext): Promise<(HitMatch | undefined)[]> {
  if (rows.length === 0) return [];
  await ctx.tokens.load();
  const terms = queryTerms(query);
  const contents = await contentsByVersionId(ctx.db, rows.filter((r) => r.content === undefined).map((r) => r.versionId));
  return rows.map((row) => {
    const content = row.content ?? contents.get(row.versionId) ?? '';
    const sections = splitSections(content);
    const span = bestSection(content, sections, terms);
    if (!span) return undefined;
    const excerpt = excerptOf(content, span, terms, ctx.tokens);
    const view: MatchView = { section: span.id, heading: span.heading, excerpt: excerpt.text, sectionTokens: sectionTokensFor(row, span, content, ctx.tokens) };
    const text = matchLine(view);
    return { view, piece: { text, tokens: ctx.tokens.count(text) } };
  });
}
