import type { BindingVersionRow } from '../../db/store/bindings.ts';
import { renderSection, sectionPath } from '../budget/outline.ts';
import { cutToFit } from '../budget/cut.ts';
import { queryTerms } from '../../db/text/analyzer.ts';
import { scoreSections, sectionBody } from '../search/score.ts';
import { weighBySentence } from '../search/section-choice.ts';
import { asksForValue } from '../search/units.ts';
import { loadedSections, tierObject } from '../budget/tier.ts';
import type { ToolContext } from '../context.ts';
import { fail } from '../errors.ts';
import { freshCounts, loadSections, missingContents } from '../services/counts.ts';
import type { Piece } from '../tokens/doc.ts';
import type { BudgetReport, OmittedItem, PackedItem } from './packed-list.ts';
import { facts, type BindingView } from './views.ts';
import { CAP_RESERVE } from './cap-lines.ts';
import { footerCosts, footerPieces, OVER_BUDGET_OR_NO_MATCH, type FooterText } from './omitted-footer.ts';
import { footerTokens, planFooter } from '../budget/footer.ts';

export interface QueryRequest {
  header: Piece[];
  rows: BindingVersionRow[];
  query: string;
  maxTokens?: number;
  trailer?: Piece[];
  /** Framing for a budget the full one leaves no room in (a few tokens that do not grow with input). */
  compact?: { header: Piece[]; trailer?: Piece[] };
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

/** Tokens a cut must hold besides its framing to be worth showing. */
const MIN_CUT_TOKENS = 8;

interface Candidate {
  row: number;
  i: number;
  body: string;
  tokens: number;
  score: number;
  /** Set when only part of the section is shown: that part and its exact block. */
  cut?: { text: string; block: string; tokens: number };
}

/**
 * Shows items by their sections that match `query`, best first, under `maxTokens` (or the response cap):
 * every section of every item is scored (core/search/score.ts, as search's match is), then taken in
 * score order while it fits with its item's line and the note naming what is left out. Section blocks
 * carry stored counts; only the item lines, the header and that note are counted here. A section is
 * shown whole, except the best one when it does not fit: then its best part is cut to fit (at a line
 * or sentence boundary, counted exactly) and shown alone, rather than a lesser section or nothing. A budget too small
 * for the full framing gets the compact one and a one-line count of what was left out.
 */
export async function packByQuery(req: QueryRequest, ctx: ToolContext): Promise<QueryListing> {
  await freshCounts(ctx, req.rows);
  await loadSections(ctx, req.rows);
  const contents = await missingContents(ctx, req.rows);
  const content = (r: BindingVersionRow) => r.content ?? contents.get(r.versionId) ?? '';
  await ctx.tokens.load();
  const count = (p: Piece) => p.tokens ?? ctx.tokens.count(p.text);
  const budgeted = req.maxTokens !== undefined;
  const budget = req.maxTokens ?? ctx.config.maxResponseTokens - CAP_RESERVE; // without a budget: the cap less the room every list keeps

  const terms = queryTerms(req.query);
  const indexes = req.rows.map((r) => loadedSections(r));
  const texts = req.rows.flatMap((r, k) =>
    indexes[k]!.sections.map((s, i) => ({
      row: k,
      i,
      heading: s.heading,
      path: sectionPath(indexes[k]!.sections, i),
      text: sectionBody(content(r), s),
      body: content(r).slice(s.start, s.end),
      tokens: s.tokens,
    })),
  );
  // Ranked with the same scorer as search's match, over the sections of every item at once, then each
  // item's best weighed by their best sentence as search's match weighs them.
  const raw = scoreSections(
    terms,
    texts.map((t) => ({ heading: t.heading, path: t.path, body: t.text })),
  );
  const value = asksForValue(req.query);
  // `texts` holds each item's sections in a row, item after item.
  const scores: number[] = [];
  for (const index of indexes) {
    const at = scores.length;
    const n = index.sections.length;
    const sections = texts.slice(at, at + n).map((t) => ({ body: t.text, path: t.path }));
    scores.push(...weighBySentence(raw.slice(at, at + n), sections, terms, undefined, value));
  }
  const candidates: Candidate[] = texts
    .map((t, j) => ({ row: t.row, i: t.i, body: t.body, tokens: t.tokens, score: scores[j]! }))
    .filter((c) => c.score > 0);
  candidates.sort((a, b) => b.score - a.score || a.row - b.row || a.i - b.i);
  const best = new Map<number, Candidate>();
  for (const c of candidates) if (!best.has(c.row)) best.set(c.row, c);

  const itemTokens = req.rows.map((r) => ctx.tokens.count(itemLine(r)));
  const reason = (k: number) => {
    const b = best.get(k);
    return b ? `best match "${indexes[k]!.sections[b.i]!.id}" needs ${itemTokens[k]! + b.tokens} tokens` : 'no section matches the query';
  };
  // The footer every budgeted answer ends with (omitted-footer.ts), each item named with why it is left
  // out; counted exactly for each number of items (a query reads few items, so the lines are few).
  const footerText: FooterText = { reason: OVER_BUDGET_OR_NO_MATCH, line: (k) => `- ${req.rows[k]!.bindingId} · ${reason(k)}\n` };
  const footer = footerCosts(footerText, ctx.tokens, true);

  /** One packing with a framing: full notes name each item left out; compact ones count them. */
  const packWith = (framing: Piece[], compact: boolean) => {
    const fixed = framing.reduce((n, p) => n + count(p), 0);
    const shown = req.rows.map(() => [] as Candidate[]);
    const leftOut = (skip = -1) => req.rows.map((_, k) => k).filter((k) => shown[k]!.length === 0 && k !== skip);
    const noteTokens = (skip = -1) => {
      const left = leftOut(skip);
      if (left.length === 0) return 0;
      // The full framing names the items (up to MAX_FOOTER_LINES, then "…and N more"); the compact one counts them.
      return compact ? footer.countTokens(left.length) : footerTokens(footer, left);
    };
    let items = 0;
    if (fixed + noteTokens() <= budget) {
      for (const c of candidates) {
        const fresh = shown[c.row]!.length === 0;
        if (fixed + items + c.tokens + (fresh ? itemTokens[c.row]! : 0) + noteTokens(fresh ? c.row : -1) > budget) continue;
        shown[c.row]!.push(c);
        items += c.tokens + (fresh ? itemTokens[c.row]! : 0);
      }
    }
    return { framing, compact, fixed, shown, items, leftOut, noteTokens, fits: fixed + noteTokens() <= budget };
  };

  const framings: [Piece[], boolean][] = [[[...req.header, ...(req.trailer ?? [])], false]];
  if (budgeted) framings.push([[...(req.compact?.header ?? req.header), ...(req.compact?.trailer ?? [])], true]);
  let p = packWith(...framings[0]!);
  for (const f of framings.slice(1)) {
    if (p.fits && (p.items > 0 || candidates.length === 0)) break;
    const q = packWith(...f);
    if (q.fits && (!p.fits || q.items > 0 || q.fixed + q.noteTokens() < p.fixed + p.noteTokens())) p = q;
  }
  if (!p.fits) {
    const need = p.fixed + p.noteTokens();
    throw fail.invalid(
      'maxTokens',
      `is ${budget} but even an answer that leaves every item out needs ${need} tokens here; raise it to at least ${need}`,
    );
  }
  // The best section does not fit whole: its best part, cut to the budget, comes before any lesser section.
  const top = candidates[0];
  if (top && !p.shown[top.row]!.includes(top)) {
    const before = { shown: p.shown.map((s) => [...s]), items: p.items };
    for (const s of p.shown) s.length = 0;
    p.items = 0;
    const k = top.row;
    const frame = ctx.tokens.count(renderSection(indexes[k]!.sections, top.i, '', req.rows[k]!.fence, 'cut'));
    let room = budget - p.fixed - itemTokens[k]! - p.noteTokens(k) - frame;
    while (room >= MIN_CUT_TOKENS) {
      const cut = cutToFit(top.body, room, ctx.tokens, terms);
      if (!cut.text) break;
      const block = renderSection(indexes[k]!.sections, top.i, cut.text, req.rows[k]!.fence, 'cut');
      const n = ctx.tokens.count(block);
      const over = p.fixed + itemTokens[k]! + n + p.noteTokens(k) - budget;
      if (over <= 0) {
        p.shown[k]!.push({ ...top, cut: { text: cut.text, block, tokens: n } });
        p.items = itemTokens[k]! + n;
        break;
      }
      room -= over;
    }
    // No cut of it fits: what fitted whole stays.
    if (p.items === 0) {
      before.shown.forEach((s, j) => p.shown[j]!.push(...s));
      p.items = before.items;
    }
  }

  const { shown } = p;
  const order = req.rows.map((_, k) => k).filter((k) => shown[k]!.length > 0);
  order.sort((a, b) => shown[b]![0]!.score - shown[a]![0]!.score || a - b);
  const head = p.compact ? (req.compact?.header ?? req.header) : req.header;
  const tail = p.compact ? (req.compact?.trailer ?? []) : (req.trailer ?? []);
  const pieces: Piece[] = [...head];
  const views: (BindingView | null)[] = req.rows.map(() => null);
  const included: (PackedItem & { sections: string[] })[] = [];
  for (const k of order) {
    const row = req.rows[k]!;
    const index = indexes[k]!;
    pieces.push({ text: itemLine(row), tokens: itemTokens[k] });
    for (const c of shown[k]!)
      pieces.push(
        c.cut
          ? { text: c.cut.block, tokens: c.cut.tokens }
          : { text: renderSection(index.sections, c.i, c.body, row.fence), tokens: c.tokens },
      );
    const sections = shown[k]!.map((c) => {
      const s = index.sections[c.i]!;
      const cut = c.cut
        ? { content: c.cut.text, cut: { tokens: c.cut.tokens, restTokens: Math.max(0, s.tokens - c.cut.tokens) } }
        : { content: c.body };
      return {
        id: s.id,
        heading: s.heading,
        path: sectionPath(index.sections, c.i),
        tokens: s.tokens,
        ...cut,
        score: Math.round(c.score * 1000) / 1000,
      };
    });
    views[k] = { ...(tierObject(facts(row), '1', ctx.config.publicUrl) as BindingView), sections };
    const shownTokens = shown[k]!.reduce((n, c) => n + (c.cut ? c.cut.tokens : c.tokens), 0);
    included.push({ id: row.bindingId, tier: '2', tokens: itemTokens[k]! + shownTokens, sections: sections.map((s) => s.id) });
  }
  pieces.push(...tail);
  const left = p.leftOut();
  const omitted: OmittedItem[] = left.map((k) => ({
    id: req.rows[k]!.bindingId,
    tokens: best.has(k) ? itemTokens[k]! + best.get(k)!.tokens : 0,
    reason: reason(k),
  }));
  const plan = p.compact ? { named: 0, tokens: footer.countTokens(left.length) } : planFooter(footer, left, Infinity);
  pieces.push(...footerPieces(footerText, left, plan, footer));
  const cutShown = order.some((k) => shown[k]!.some((c) => c.cut));
  const used = p.fixed + p.items + p.noteTokens();
  return {
    pieces,
    views,
    budget: budgeted
      ? {
          maxTokens: budget,
          usedTokens: used,
          remainingTokens: budget - used,
          exhausted: cutShown || left.some((k) => best.has(k)),
          included,
          omitted,
        }
      : undefined,
  };
}
