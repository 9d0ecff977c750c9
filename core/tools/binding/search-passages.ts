import type { BindingVersionRow } from '../../../db/store/bindings.ts';
import { clip, oneLine } from '../../budget/card-cut.ts';
import { tierObject } from '../../budget/tier.ts';
import type { ToolContext } from '../../context.ts';
import { paginate } from '../../cursor.ts';
import { matchesFor, passageCoverage, type MatchView } from '../../search/match.ts';
import { line, type Piece } from '../../tokens/doc.ts';
import type { BudgetReport } from '../packed-list.ts';
import { facts } from '../views.ts';
import { queryTerms, textTerms } from '../../../db/text/analyzer.ts';
import { shortId } from '../../ids.ts';

// The passage-first form of search (tier "passage", search_bindings' default): per hit
// one line with its id, name, best section (id, heading, exact cost) and the passage that answers,
// nothing else, so that the first call usually answers.

/**
 * Hits on a page without `limit`: one, quoted at up to 70 tokens (two on a near tie, NEAR_TIE). With a model in the loop the second
 * hit was "usually unrelated filler"; on the tuning half of bench/loop's questions (`bun run bench loop`)
 * one hit showed the answer as often on the private corpus (67.9 %) and 9 points less often on the
 * third-party one, for 52 fewer tokens a call: less than a second, reworded call costs when it misses.
 * (Three hits at 60/40/30 tokens: 4-5 points more than two, for 41-49 more tokens a call.)
 */
export const PASSAGE_LIMIT = 1;
/**
 * A page of passages names its next cursor only past this many hits, or when the caller is already
 * paging: a few passages are re-asked in other words, not paged (a model in the loop never used the
 * line, which cost 12 tokens a call).
 */
export const PASSAGE_PAGE_LINE = 5;
/**
 * How many of search's best hits the passage form re-orders by how well their best passage answers.
 * Replaying the first searches models wrote (bench/loop/replay.ts, tuning half): the first call showed
 * the answer 79.2 → 81.2 % (third-party) and 84.1 → 87.9 % (private); 5 or 12 did the same as 8.
 */
export const PASSAGE_POOL = 8;
/** Weight of a hit's passage coverage (0–2) against its search rank (1 for the best, RANK_STEP less a place); 0.3–0.7 did alike. */
const COVERAGE_WEIGHT = 0.5;
const RANK_STEP = 0.1;

/**
 * A default page shows the runner-up too when it scores within this much of the best (search rank and
 * passage coverage together): the two are then a near tie and the second is as likely to answer.
 * Replaying models' first searches, the first call showed the answer 85.4 → 88.5 % (third-party) and
 * 86.9 → 90.3 % (private) on the tuning half, 81.6 → 85.1 % and 66.7 → 74.2 % held out, for 9–14 more
 * tokens a call on average (about what the misses it saves cost); 0.3 gained the same held out for more.
 */
const NEAR_TIE = 0.2;

/** What a hit gains when the query names it (every word of its short name): "cli-boxes round style" asks cli-boxes. */
const NAMED_BONUS = 0.2;

/** True when the query holds every word of the name's head (before a colon or dash), at most three words. */
function namedBy(name: string, asked: ReadonlySet<string>): boolean {
  const head = textTerms(name.split(/:\s|\s[-–—·|]\s/)[0]!);
  return head.length > 0 && head.length <= 3 && head.every((t) => asked.has(t));
}

/**
 * The first PASSAGE_POOL rows re-ordered by search rank and passage coverage together (./match.ts
 * `passageCoverage`, which also reads their content), the rest in their places; `nearTie` when the
 * runner-up is within NEAR_TIE.
 */
export async function passageOrder(
  rows: BindingVersionRow[],
  query: string,
  ctx: ToolContext,
  weights?: readonly number[],
): Promise<{ rows: BindingVersionRow[]; nearTie: boolean }> {
  if (rows.length < 2) return { rows, nearTie: false };
  const pool = await passageCoverage(rows.slice(0, PASSAGE_POOL), query, ctx, weights);
  const asked = new Set(queryTerms(query));
  const scored = pool.rows.map((row, i) => ({
    row,
    i,
    s: 1 - RANK_STEP * i + COVERAGE_WEIGHT * pool.cover[i]! + (namedBy(row.name, asked) ? NAMED_BONUS : 0),
  }));
  scored.sort((a, b) => b.s - a.s || a.i - b.i);
  return { rows: [...scored.map((x) => x.row), ...rows.slice(PASSAGE_POOL)], nearTie: scored[1]!.s >= scored[0]!.s - NEAR_TIE };
}

/**
 * Passage caps in tokens by rank: the best hit quotes most. 70 showed the answer as often as 80 on the
 * replayed first searches of models (tuning half: 90.7 % and 89.8 %) for 6 fewer tokens a call; 60 lost
 * two private answers, 50 nine. The second hit (a near tie, or limit 2 or more) quotes 40: at 30 it
 * stopped short of "on Thursdays at 14:00 CET" in one sentence every agent then read whole; 40 won it
 * back for 2–3 tokens a call, 50 no more.
 */
const CAPS = [70, 40];
/** The cap of the first hit's runner-up section (match.ts RUNNER_UP_SHARE); 20 showed one private answer fewer, 40 none more. */
const ALSO_CAP = 30;
const REST_CAP = 30;
/**
 * Caps tried for a first hit that does not fit a small budget (never an empty answer): its full passage
 * without the runner-up section first, then shorter ones.
 */
const SHRINK = [CAPS[0]!, 25, 12];
const NAME_CHARS = 60;
/** Kept for the "More" line, added once the page is known (a cursor is ~20 characters). */
const MORE_RESERVE = 28;
/** Without a budget the page fills the response cap less this. */
const UNBUDGETED_RESERVE = 300;

/**
 * One hit's line: `- id name · §section (N tokens): passage`. Author text is folded onto the line. The
 * section is named by its id alone (made from its heading; structuredContent carries the heading too):
 * the id is what a section read takes, and the passage, not the heading, is what answers.
 */
export function passageLine(row: Pick<BindingVersionRow, 'bindingId' | 'name'>, m: MatchView | undefined, also?: MatchView): string {
  const name = clip(oneLine(row.name), NAME_CHARS);
  const id = shortId(row.bindingId);
  if (!m) return `- ${id} ${name}\n`;
  const second = also ? `  also §${also.section} (${also.sectionTokens} tokens): ${also.excerpt}\n` : '';
  return `- ${id} ${name} · §${m.section} (${m.sectionTokens} tokens)${m.excerpt ? `: ${m.excerpt}` : ''}\n${second}`;
}

export interface PassageRequest {
  header: Piece[];
  /** The caller pages (gave limit or cursor): a "More" line names the next cursor. */
  paging: boolean;
  /** Said instead of the header when the header leaves no room for the first hit. */
  compactHeader: Piece[];
  rows: BindingVersionRow[];
  query: string;
  maxTokens?: number;
  scope: string;
  offset: number;
  total: number;
  empty: string;
  /** Query terms' weights among the documents searched (score.termWeights). */
  weights?: readonly number[];
}

/**
 * A page of passage hits in rank order under `maxTokens` (or the response cap): hits are whole lines,
 * counted exactly; a first hit too long for a small budget is quoted shorter rather than left out.
 */
export async function passagePage(req: PassageRequest, ctx: ToolContext) {
  await ctx.tokens.load();
  const count = (p: Piece) => p.tokens ?? ctx.tokens.count(p.text);
  const budgeted = req.maxTokens !== undefined;
  const budget = req.maxTokens ?? ctx.config.maxResponseTokens - UNBUDGETED_RESERVE;
  const caps = req.rows.map((_, i) => CAPS[i] ?? REST_CAP);
  const matches = await matchesFor(req.rows, req.query, ctx, caps, req.weights, req.offset === 0 ? ALSO_CAP : undefined);
  const lines = req.rows.map((r, i) => {
    const text = passageLine(r, matches[i]?.view, matches[i]?.also);
    return { text, tokens: ctx.tokens.count(text), view: matches[i]?.view, also: matches[i]?.also };
  });
  const empty: Piece[] = req.total === 0 ? [line(req.empty)] : [];
  let header = req.header;
  let used = [...header, ...empty].reduce((n, p) => n + count(p), 0);
  // A default page is read, not paged: no paging line (the cursor is in _meta.context.pagination). A caller that pages gets one.
  let more = req.paging && req.total > req.offset + 1 ? MORE_RESERVE : 0;
  if (lines[0] && used + lines[0].tokens + more > budget) {
    header = req.compactHeader;
    used = [...header, ...empty].reduce((n, p) => n + count(p), 0);
    // Still too long: quote the first hit shorter (its section and cost stay named).
    for (const cap of SHRINK) {
      if (used + lines[0].tokens + more <= budget) break;
      const [m] = await matchesFor(req.rows.slice(0, 1), req.query, ctx, [cap], req.weights);
      const text = passageLine(req.rows[0]!, m?.view);
      lines[0] = { text, tokens: ctx.tokens.count(text), view: m?.view, also: undefined };
    }
  }
  // A budget that holds the first hit but not the paging line too gets the hit: the cursor is in structuredContent.
  if (lines[0] && used + lines[0].tokens + more > budget) more = 0;
  const shown: number[] = [];
  for (const [i, l] of lines.entries()) {
    if (used + l.tokens + more > budget) break;
    shown.push(i);
    used += l.tokens;
  }
  const pagination = await paginate(ctx.db, req.scope, req.offset, shown.length, req.total);
  const pieces: Piece[] = [...header, ...shown.map((i) => ({ text: lines[i]!.text, tokens: lines[i]!.tokens })), ...empty];
  if (req.paging && pagination.hasMore) {
    const moreLine = [line(`More: cursor "${pagination.nextCursor}".`), line('More: see pagination.nextCursor.')].find(
      (p) => used + count(p) <= budget,
    );
    if (moreLine) {
      pieces.push(moreLine);
      used += count(moreLine);
    }
  }
  const views = shown.map((i) => {
    const row = req.rows[i]!;
    return {
      ...tierObject(facts(row), '0', ctx.config.publicUrl),
      tier: 'passage' as const,
      ...(lines[i]!.view ? { match: lines[i]!.view } : {}),
      ...(lines[i]!.also ? { alsoMatch: lines[i]!.also } : {}),
    };
  });
  const left = req.rows.map((_, i) => i).filter((i) => !shown.includes(i));
  const budget_: BudgetReport | undefined = budgeted
    ? {
        maxTokens: budget,
        usedTokens: used,
        remainingTokens: budget - used,
        exhausted: left.length > 0,
        included: shown.map((i) => ({ id: req.rows[i]!.bindingId, tier: 'passage' as const, tokens: lines[i]!.tokens })),
        omitted: left.map((i) => ({ id: req.rows[i]!.bindingId, tokens: lines[i]!.tokens })),
      }
    : undefined;
  return { pieces, views, pagination, budget: budget_ };
}
