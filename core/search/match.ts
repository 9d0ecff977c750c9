import { z } from 'zod';
import type { BindingVersionRow } from '../../db/store/bindings.ts';
import type { SectionSpan } from '../budget/sections.ts';
import { parseSections, sectionPath } from '../budget/outline.ts';
import { freshCounts, loadSections, missingContents } from '../services/counts.ts';
import { clip, oneLine } from '../budget/card-cut.ts';
import type { ToolContext } from '../context.ts';
import type { Piece } from '../tokens/doc.ts';
import { excerptOf } from './excerpt.ts';
import { bestSection, chooseSections } from './section-choice.ts';
import { asksForCode, asksForValue, units, withContext, withoutTargets } from './units.ts';
import { searchableBody, termCounts } from './score.ts';
import { queryTerms, textTerms } from '../../db/text/analyzer.ts';

/** `results[].match` of a search hit. */
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
  /** The document's runner-up section, when asked for and it scores near the best (RUNNER_UP_SHARE). */
  also?: MatchView;
}

/**
 * The first hit of a passage page also quotes its document's second-best section when that scores at
 * least this share of the best: the right document with the fact one section over was the commonest
 * miss. Replaying models' first searches (tuning half): the first call showed the answer 87.7 → 89.0 %
 * (third-party) and 90.1 → 93.6 % (private) for 5–6 more tokens a call at 0.7 (0.5–0.7 alike then).
 * With the first searches of two more question sets (1,336 in all), 0.4 showed 16 more answers than
 * 0.7 and lost none (private held out 80.9 → 83.8 %: a postmortem's action items under its root
 * cause, an ADR's date under its decision), for 4–5 more tokens a call; lower shares gained nothing
 * more. Questions' own words as queries: 258 → 267 of 350.
 */
export const RUNNER_UP_SHARE = 0.4;

const HEADING_CHARS = 60;

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
export async function matchesFor(
  rows: readonly BindingVersionRow[],
  query: string,
  ctx: ToolContext,
  caps?: readonly number[],
  weights?: readonly number[],
  runnerUpCap?: number,
): Promise<(HitMatch | undefined)[]> {
  if (rows.length === 0) return [];
  await ctx.tokens.load();
  const terms = queryTerms(query);
  const code = asksForCode(query);
  const value = asksForValue(query);
  const contents = await missingContents(ctx, rows);
  // The sections stored with each version (exact for this process after freshCounts): their spans are
  // the ones get_binding {section} reads, and their counts what such a read costs.
  await freshCounts(ctx, rows as BindingVersionRow[]);
  await loadSections(ctx, rows as BindingVersionRow[]);
  return rows.map((row, k) => {
    const content = row.content ?? contents.get(row.versionId) ?? '';
    const stored = parseSections(row.sections)?.sections ?? [];
    const chosen = chooseSections(content, storedSpans(row), terms, weights, value);
    if (!chosen.best) return undefined;
    const view = (span: SectionSpan, cap?: number): MatchView => ({
      section: span.id,
      heading: span.heading,
      excerpt: excerptOf(content, span, terms, ctx.tokens, code, cap, value).text,
      sectionTokens: stored.find((x) => x.id === span.id)!.tokens,
    });
    const best = view(chosen.best, caps?.[k]);
    const second = k === 0 && runnerUpCap !== undefined && chosen.runnerUp && chosen.runnerUp.share >= RUNNER_UP_SHARE;
    const also = second ? view(chosen.runnerUp!.span, runnerUpCap) : undefined;
    const text = matchLine(best);
    return { view: best, piece: { text, tokens: ctx.tokens.count(text) }, ...(also?.excerpt ? { also } : {}) };
  });
}

/**
 * How well each row's best section answers the query, comparable across rows (0–2): the weighted share
 * of the query's terms the section holds (its body, its heading path or the document's name), plus
 * that share for its best single sentence, list item or table row. Search's passage form re-orders its
 * first hits by it, so the document whose one passage holds the question beats one that scatters its
 * words. The rows come back with their content, so the hits then shown are not read again.
 */
export async function passageCoverage(
  rows: readonly BindingVersionRow[],
  query: string,
  ctx: ToolContext,
  weights?: readonly number[],
): Promise<{ rows: BindingVersionRow[]; cover: number[] }> {
  const contents = await missingContents(ctx, rows);
  const read = rows.map((row) => (row.content === undefined ? { ...row, content: contents.get(row.versionId) ?? '' } : row));
  const terms = queryTerms(query);
  if (terms.length === 0) return { rows: read, cover: read.map(() => 0) };
  const value = asksForValue(query);
  const w = terms.map((_, i) => weights?.[i] ?? 1);
  const total = w.reduce((a, b) => a + b, 0) || 1;
  const share = (held: (i: number) => boolean) => terms.reduce((n, _, i) => n + (held(i) ? w[i]! : 0), 0) / total;
  await freshCounts(ctx, read);
  await loadSections(ctx, read);
  const cover = read.map((row) => {
    const content = row.content!;
    const span = bestSection(content, storedSpans(row), terms, weights, value);
    if (!span) return 0;
    const around = new Set(textTerms(`${row.name} ${span.path.join(' ')}`));
    const body = searchableBody(content, span);
    const inBody = termCounts(body, terms);
    let unit = 0;
    for (const u of units(body)) {
      const c = termCounts(withoutTargets(withContext(u)), terms);
      unit = Math.max(
        unit,
        share((i) => c[i]! > 0),
      );
    }
    return share((i) => inBody[i]! > 0 || around.has(terms[i]!)) + unit;
  });
  return { rows: read, cover };
}

/** The sections stored with a row's version (loaded by loadSections), as spans with their heading paths. */
function storedSpans(row: BindingVersionRow): SectionSpan[] {
  const stored = parseSections(row.sections)?.sections ?? [];
  return stored.map((x, i) => ({
    id: x.id,
    heading: x.heading,
    path: sectionPath(stored, i),
    level: x.level,
    start: x.start,
    end: x.end,
  }));
}
