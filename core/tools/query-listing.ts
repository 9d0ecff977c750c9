import type { BindingVersionRow } from '../../db/store/bindings.ts';
import { contentsByVersionId } from '../../db/store/contents.ts';
import { renderSection, sectionPath } from '../budget/outline.ts';
import { scoreTexts } from '../budget/relevance.ts';
import { loadedSections, tierObject } from '../budget/tier.ts';
import type { ToolContext } from '../context.ts';
import { fail } from '../errors.ts';
import { freshCounts, loadSections } from '../services/counts.ts';
import { line, type Piece } from '../tokens/doc.ts';
import type { BudgetReport, OmittedItem, PackedItem } from './packed-list.ts';
import { facts, type BindingView } from './views.ts';
import { CAP_RESERVE } from './cap-lines.ts';

const NOT_SHOWN_HEAD = 'Not shown (fetch them by id later):\n';
const MAX_NOT_SHOWN_LINES = 10;

export interface QueryRequest {
  header: Piece[];
  rows: BindingVersionRow[];
  query: string;
  maxTokens?: number;
  trailer?: Piece[];
}

export interface QueryListing {
  pieces: Piece[];
  /** Per request row: its view with the sections shown, or null when it was not shown. */
  views: (BindingView | null)[];
  budget?: BudgetReport;
}

/**
 * The line that introduces an item's sections: framing, counted at read, so it holds no stored text (the
 * name is in structured content and the card; the section lines show its headings at their stored cost).
 */
function itemLine(row: BindingVersionRow): string {
  return `### ${row.bindingId} · v${row.number} · @${row.spaceSlug} · ${row.contentTokenCount} content tokens\n`;
}

/**
 * Shows items by their sections that match `query`, best first, under `maxTokens` (or the response cap):
 * every section of every item is scored, then taken in score order while it fits with its item's line
 * and the note naming what is left out. Section blocks carry stored counts; only the item lines, the
 * header and that note are counted here. Items are never cut: a section is shown whole or not at all.
 */
export async function packByQuery(req: QueryRequest, ctx: ToolContext): Promise<QueryListing> {
  await freshCounts(ctx, req.rows);
  await loadSections(ctx, req.rows);
  const contents = await contentsByVersionId(ctx.db, req.rows.filter((r) => r.content === undefined).map((r) => r.versionId));
  const content = (r: BindingVersionRow) => r.content ?? contents.get(r.versionId) ?? '';
  await ctx.tokens.load();
  const count = (p: Piece) => p.tokens ?? ctx.tokens.count(p.text);
  const budgeted = req.maxTokens !== undefined;
  const budget = req.maxTokens ?? ctx.config.maxResponseTokens - CAP_RESERVE; // without a budget: the cap less the room every list keeps
  const fixed = [...req.header, ...(req.trailer ?? [])].reduce((n, p) => n + count(p), 0);

  const indexes = req.rows.map((r) => loadedSections(r));
  const texts = req.rows.flatMap((r, k) =>
    indexes[k]!.sections.map((s, i) => ({ row: k, i, heading: sectionPath(indexes[k]!.sections, i).join(' '), body: content(r).slice(s.start, s.end), tokens: s.tokens })),
  );
  const scores = scoreTexts(req.query, texts);
  const candidates = texts.map((t, j) => ({ ...t, score: scores[j]! })).filter((c) => c.score > 0);
  candidates.sort((a, b) => b.score - a.score || a.row - b.row || a.i - b.i);
  const best = new Map<number, (typeof candidates)[number]>();
  for (const c of candidates) if (!best.has(c.row)) best.set(c.row, c);

  const itemTokens = req.rows.map((r) => ctx.tokens.count(itemLine(r)));
  const reason = (k: number) => {
    const b = best.get(k);
    return b ? `best match "${indexes[k]!.sections[b.i]!.id}" needs ${itemTokens[k]! + b.tokens} tokens` : 'no section matches the query';
  };
  const noteLine = (k: number) => `- ${req.rows[k]!.bindingId} · ${reason(k)}\n`;
  const moreLine = (m: number) => `- …and ${m} more (all in _meta.context.budget.omitted)\n`;
  const memo = new Map<string, number>();
  const memoCount = (key: string, text: () => string) => memo.get(key) ?? (memo.set(key, ctx.tokens.count(text())), memo.get(key)!);
  const shown = req.rows.map(() => [] as (typeof candidates)[number][]);
  /** The note's cost with these rows left out (in row order); `skip` counted as shown. */
  const noteTokens = (skip = -1) => {
    const left = req.rows.map((_, k) => k).filter((k) => shown[k]!.length === 0 && k !== skip);
    if (left.length === 0) return 0;
    let n = memoCount('head', () => NOT_SHOWN_HEAD);
    for (const k of left.slice(0, MAX_NOT_SHOWN_LINES)) n += memoCount(`l${k}`, () => noteLine(k));
    if (left.length > MAX_NOT_SHOWN_LINES) n += memoCount(`m${left.length}`, () => moreLine(left.length - MAX_NOT_SHOWN_LINES));
    return n;
  };
  const empty = fixed + noteTokens();
  if (empty > budget) {
    throw fail.invalid('maxTokens', `is ${budget} but even an answer that leaves every item out needs ${empty} tokens here; raise it to at least ${empty}`);
  }
  let items = 0;
  for (const c of candidates) {
    const fresh = shown[c.row]!.length === 0;
    const total = fixed + items + c.tokens + (fresh ? itemTokens[c.row]! : 0) + noteTokens(fresh ? c.row : -1);
    if (total > budget) continue;
    shown[c.row]!.push(c);
    items += c.tokens + (fresh ? itemTokens[c.row]! : 0);
  }

  const order = req.rows.map((_, k) => k).filter((k) => shown[k]!.length > 0);
  order.sort((a, b) => shown[b]![0]!.score - shown[a]![0]!.score || a - b);
  const pieces: Piece[] = [...req.header];
  const views: (BindingView | null)[] = req.rows.map(() => null);
  const included: (PackedItem & { sections: string[] })[] = [];
  for (const k of order) {
    const row = req.rows[k]!;
    const index = indexes[k]!;
    pieces.push({ text: itemLine(row), tokens: itemTokens[k] });
    for (const c of shown[k]!) pieces.push({ text: renderSection(index.sections, c.i, c.body, row.fence), tokens: c.tokens });
    const sections = shown[k]!.map((c) => {
      const s = index.sections[c.i]!;
      return { id: s.id, heading: s.heading, path: sectionPath(index.sections, c.i), tokens: s.tokens, content: c.body, score: Math.round(c.score * 1000) / 1000 };
    });
    views[k] = { ...(tierObject(facts(row), '1', ctx.config.publicUrl) as BindingView), sections };
    included.push({ id: row.bindingId, tier: '2', tokens: itemTokens[k]! + sections.reduce((n, s) => n + s.tokens, 0), sections: sections.map((s) => s.id) });
  }
  pieces.push(...(req.trailer ?? []));
  const left = req.rows.map((_, k) => k).filter((k) => shown[k]!.length === 0);
  const omitted: OmittedItem[] = left.map((k) => ({ id: req.rows[k]!.bindingId, tokens: best.has(k) ? itemTokens[k]! + best.get(k)!.tokens : 0, reason: reason(k) }));
  if (left.length) {
    pieces.push(line(NOT_SHOWN_HEAD));
    for (const k of left.slice(0, MAX_NOT_SHOWN_LINES)) pieces.push(line(noteLine(k)));
    if (left.length > MAX_NOT_SHOWN_LINES) pieces.push(line(moreLine(left.length - MAX_NOT_SHOWN_LINES)));
  }
  const used = fixed + items + noteTokens();
  return {
    pieces,
    views,
    budget: budgeted ? { maxTokens: budget, usedTokens: used, remainingTokens: budget - used, exhausted: left.some((k) => best.has(k)), included, omitted } : undefined,
  };
}
