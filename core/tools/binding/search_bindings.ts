import { z } from 'zod';
import { defineTool } from '../define.ts';
import { cursorSchema, maxTokensSchema, text } from '../schema.ts';
import { PASSAGE_LIMIT, PASSAGE_PAGE_LINE, PASSAGE_POOL, passageOrder, passagePage } from './search-passages.ts';
import { resolveSpace } from '../../services/bindings.ts';
import { searchBindings, searchMatch, weakMatch } from '../../services/find.ts';
import { readCursor } from '../../cursor.ts';
import { BinderyError } from '../../errors.ts';
import { line } from '../../tokens/doc.ts';
import { bindingView, paginationView } from '../views.ts';
import { checkBudget, pagedListing } from '../packed-list.ts';
import { budgetView } from '../budget-view.ts';
import type { Tier } from '../../budget/tier.ts';
import { matchesFor, matchView } from '../../search/match.ts';
import { termWeights } from '../../search/score.ts';
import { semanticScorer } from '../../services/embed.ts';

/**
 * Tier 0 without a limit: as many hits (up to 50) as fit in TIER0_TOKENS, paging line included. A
 * model chooses from a list if the list is cheap; bench/everyday.bench.ts measures how often the
 * document a question asks for is on this first page.
 */
export const TIER0_TOKENS = 900;

/** search_bindings' tiers: "passage" (the default) besides the card tiers; numbers accepted, strings advertised. */
const searchTierSchema = z
  .literal(['passage', '0', '1', '1.5', '2', 0, 1, 1.5, 2], {
    message: 'must be "passage", "0" (one line), "1" (summary), "1.5" (+ preview) or "2" (full content)',
  })
  .transform((t) => String(t) as Tier | 'passage')
  .default('passage');
/** Room kept under TIER0_TOKENS for the paging line added after the page is packed (a cursor is ~20 characters: at most 28 tokens). */
const TIER0_MORE_RESERVE = 28;

/** Said on a first page whose best hit holds too little of the query (absent when it holds enough). */
const weakMatchView = z.object({
  held: z.number().describe('query words the best hit holds'),
  words: z.number().describe('content words in the query'),
  share: z.number().describe("share of the query's word weight (IDF) the best hit holds"),
  tryWords: z.array(z.string()).describe('words the index uses near the query'),
});
type WeakMatch = z.infer<typeof weakMatchView>;

export const searchBindingsTool = defineTool({
  name: 'search_bindings',
  title: 'Search bindings',
  category: 'binding',
  description: 'Search your documents: the best hit (limit: more), its best section §id (token cost), the passage that answers.',
  aliases: [
    'find',
    'look up',
    'recall',
    'query knowledge',
    'what do I know about',
    'page through search results',
    'more results',
    'search one space',
    'search results as cards or full text',
  ],
  // Lazy mode lists these (the rest is one search_tools away): every call gives a query, half a limit.
  listed: ['query', 'limit'],
  input: z.strictObject({
    query: text().trim().min(1, { message: 'must not be empty' }).max(500, { message: 'must be at most 500 characters' }),
    space: z.string().min(1).max(80).optional(),
    tier: searchTierSchema,
    limit: z
      .number()
      .int({ message: 'must be a whole number' })
      .min(1, { message: 'must be from 1 to 50' })
      .max(50, { message: 'must be from 1 to 50' })
      .optional(),
    maxTokens: maxTokensSchema().optional(),
    cursor: cursorSchema().optional(),
  }),
  output: z.object({
    results: z.array(
      bindingView.extend({
        tier: z.enum(['passage', '0', '1', '1.5', '2']),
        match: matchView.optional(),
        alsoMatch: matchView.optional().describe("passage form, first hit: its document's runner-up section"),
      }),
    ),
    pagination: paginationView,
    budget: budgetView.optional(),
    weakMatch: weakMatchView.optional(),
  }),
  bound: { kind: 'items', maxItems: 50, itemTokens: 400 },
  annotations: { readOnlyHint: true },
  async handler(args, ctx) {
    checkBudget(args.maxTokens, ctx);
    searchMatch(args.query, 'query');
    const space = args.space ? await resolveSpace(ctx, ctx.caller, args.space) : undefined;
    // Tier 0 is one line per hit: a longer first page costs what five cards do, and holds the answer far more often.
    const fill = args.tier === '0' && args.limit === undefined && args.maxTokens === undefined;
    const limit = args.limit ?? (args.tier === '0' ? 50 : args.tier === 'passage' ? PASSAGE_LIMIT : 10);
    const scope = `search:${space?.id ?? '*'}:${args.query}:${limit}:${args.tier}:${args.maxTokens ?? ''}`;
    const offset = await readCursor(ctx.db, args.cursor, scope);
    const scores = semanticScorer(ctx, args.query);
    const semantic = scores && ctx.config.embeddings ? { scores, weight: ctx.config.embeddings.weight } : undefined;
    // The passage form reads its first PASSAGE_POOL hits whatever the page, to order them by their passages
    // (not with the embedding signal: it judges meaning, which word coverage would undo).
    const passage = args.tier === 'passage' && !semantic;
    const window = passage ? { offset: 0, limit: Math.max(PASSAGE_POOL, offset + Math.max(limit, 2)) } : { offset, limit };
    const searched = await searchBindings(ctx, ctx.caller, args.query, 'query', {
      spaceId: space?.id,
      ...window,
      ...(semantic ? { semantic } : {}),
    });
    const weights = termWeights(args.query, searched.idf);
    const ordered = passage ? await passageOrder(searched.rows, args.query, ctx, weights) : undefined;
    // Without a limit, a near tie between the best two shows both.
    const shown = ordered?.nearTie && args.limit === undefined ? Math.max(limit, 2) : limit;
    const found = ordered ? { ...searched, rows: ordered.rows.slice(offset, offset + shown) } : searched;
    // Tier-2 content is loaded by the packer, only for the hits it shows at tier 2.
    const rows = found.rows;
    // Past the count cap, total is a lower bound: "1001+ matches".
    const matches = `${found.total}${found.totalCapped ? '+' : ''} match${found.total === 1 ? '' : 'es'}${offset ? ` (from #${offset + 1})` : ''}`;
    const header = line(`## Search "${oneLine(args.query)}": ${matches}`);
    // On a first page only: when the best hit holds too little of the query, one line says so and offers words to try.
    const weak = offset === 0 ? await weakMatch(ctx, ctx.caller, args.query, found, space?.id) : undefined;
    const advice = weak && weak.held > 0 ? [line(weakLine(weak))] : [];
    const empty = weak?.tryWords.length
      ? `No match. Words the index uses that are near yours: ${weak.tryWords.join(', ')}; or list_bindings to browse.`
      : 'No match. Try other words, or list_bindings to browse.';
    if (args.tier === 'passage') {
      // Hits only: the query is the caller's own words and the count is in _meta.context.pagination. A weak
      // best match is not said in the text (it stays in structuredContent.weakMatch): the passage is the
      // evidence, and with models in the loop the line stood over a passage that answered 16 times in 25,
      // sending them to check it again; with no hit at all, the empty line still offers words to try.
      const p = await passagePage(
        {
          header: [],
          compactHeader: [],
          paging: args.cursor !== undefined || (args.limit ?? 0) > PASSAGE_PAGE_LINE,
          rows,
          query: args.query,
          maxTokens: args.maxTokens,
          scope,
          offset,
          total: found.total,
          empty,
          weights,
        },
        ctx,
      );
      const budget = p.budget ? { budget: p.budget } : {};
      return {
        pieces: p.pieces,
        data: { results: p.views, pagination: p.pagination, ...budget, ...(weak ? { weakMatch: weak } : {}) },
        meta: { pagination: p.pagination, ...budget },
      };
    }
    const tier = args.tier;
    // The best section and an excerpt of each hit on this page (content loaded for these rows only).
    const extras =
      tier === '0'
        ? undefined
        : (await matchesFor(rows, args.query, ctx)).map((m) => (m ? { piece: m.piece, fields: { match: m.view } } : undefined));
    const request = {
      header: [header, ...advice],
      compact: { header: [line(`## Search: ${matches}`)] },
      rows,
      extras,
      tier,
      maxTokens: args.maxTokens,
      ...(fill ? { pageTokens: TIER0_TOKENS - TIER0_MORE_RESERVE } : {}),
      scope,
      offset,
      total: found.total,
      empty,
    };
    let page = await pagedListing(request, ctx);
    if (args.maxTokens !== undefined && args.tier !== '0' && rows.length && !page.listing.included.length) {
      // A budget too small for one card at the tier asked for still answers: the hits as tier-0 lines, said so.
      const note = line(`Shown as tier-0 lines: tier ${args.tier} did not fit maxTokens ${args.maxTokens}.`);
      const cheaper = await pagedListing(
        {
          ...request,
          header: [...request.header, note],
          compact: { header: [...request.compact.header, note] },
          extras: undefined,
          tier: '0',
          priceTier: args.tier,
        },
        ctx,
      ).catch((err: unknown) => {
        // The note itself may not fit the smallest budgets: then the answer without it stands.
        if (err instanceof BinderyError && err.code === 'INVALID_INPUT') return undefined;
        throw err;
      });
      if (cheaper?.listing.included.length) page = cheaper;
    }
    const { listing, pagination, pieces } = page;
    return {
      pieces,
      data: {
        results: listing.views,
        pagination,
        ...(listing.budget ? { budget: listing.budget } : {}),
        ...(weak ? { weakMatch: weak } : {}),
      },
      meta: { pagination, ...(listing.budget ? { budget: listing.budget } : {}) },
    };
  },
});

/** One line about a weak best match. */
function weakLine(w: WeakMatch): string {
  const tail = w.tryWords.length ? ` Words the index uses near them: ${w.tryWords.join(', ')}.` : '';
  return `No close match: the best hit holds ${w.held} of your ${w.words} words.${tail}`;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').slice(0, 120);
}
