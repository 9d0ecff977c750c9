import { z } from 'zod';
import type { BindingVersionRow } from '../../../db/store/bindings.ts';
import { HUMAN } from '../../context.ts';
import { parseInput } from '../../http/validate.ts';
import { matchesFor } from '../../search/match.ts';
import { createBinding, resolveSpace } from '../../services/bindings.ts';
import { freshCounts } from '../../services/counts.ts';
import { listBindings, searchBindings } from '../../services/find.ts';
import { content, keyPoints, name, summary } from '../../tools/schema.ts';
import { definePage, show, type Loaded } from '../page.ts';
import { redirect } from '../respond.ts';
import type { WebContext, WebRoute } from '../route.ts';
import { homeView, newView, type HomeData, type NewData } from '../views/bindings.ts';
import { signInPage } from './auth.ts';
import { costsOf, spaceOptions, writableSpaces } from './common.ts';

// `/`: the bindings a person can read, newest first, or search results (the search_bindings service:
// BM25 over the same index, with each hit's best section and excerpt), filtered by space and by who
// wrote the current version (a person or an assistant).

const PAGE = 25;
/** With a provenance filter, it is applied to this many of the newest (or best-matching) bindings. */
const FILTER_WINDOW = 200;

async function home(ctx: WebContext): Promise<Loaded<HomeData>> {
  if (!ctx.user) return signInPage();
  const q = (ctx.url.searchParams.get('q') ?? '').trim().slice(0, 500);
  const spaceRef = ctx.url.searchParams.get('space') ?? '';
  const source = ctx.url.searchParams.get('source');
  const filter = source === 'human' || source === 'llm' ? source : '';
  const offset = Math.max(0, Math.min(10_000, Number(ctx.url.searchParams.get('offset')) || 0));
  const space = spaceRef ? await resolveSpace(ctx.core, ctx.user.caller, spaceRef) : undefined;
  const scope = { spaceId: space?.id, ...(filter ? { offset: 0, limit: FILTER_WINDOW } : { offset, limit: PAGE + 1 }) };
  let rows: BindingVersionRow[] = (
    await (q ? searchBindings(ctx.core, ctx.user.caller, q, 'q', scope) : listBindings(ctx.core, ctx.user.caller, scope))
  ).rows;
  if (filter) rows = rows.filter((r) => r.source === filter).slice(offset, offset + PAGE + 1);
  const more = rows.length > PAGE;
  rows = rows.slice(0, PAGE);
  await freshCounts(ctx.core, rows);
  const matches = q ? (await matchesFor(rows, q, ctx.tools())).map((m) => m?.view) : [];
  return show({
    user: ctx.user,
    q,
    spaceRef,
    filter,
    filterWindow: FILTER_WINDOW,
    items: rows.map((row, i) => ({ row, costs: costsOf(row), match: matches[i] })),
    spaces: await spaceOptions(ctx),
    newer: offset > 0 ? Math.max(0, offset - PAGE) : undefined,
    older: more ? offset + PAGE : undefined,
  });
}

const createInput = z.strictObject({
  space: z.string().min(1),
  name: name(),
  summary: summary(),
  content: content(),
  keyPoints: keyPoints().optional(),
});

/** One key point per line, blank lines dropped. */
export function linesOf(text: string | null): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

async function newForm(ctx: WebContext, error?: string, status = 200): Promise<Loaded<NewData>> {
  const f = ctx.form;
  const form = {
    space: f.get('space'),
    name: f.get('name') ?? '',
    summary: f.get('summary') ?? '',
    keyPoints: f.get('keyPoints') ?? '',
    content: f.get('content') ?? '',
  };
  return show({ user: ctx.user, spaces: await writableSpaces(ctx), form, error }, status);
}

/** The bindings pages' routes (each a definePage or defineAction). */
export const listRoutes: WebRoute[] = [
  { method: 'GET', path: /^\/$/, public: true, page: definePage({ load: (ctx) => home(ctx), view: homeView }) },
  { method: 'GET', path: /^\/new$/, page: definePage({ load: (ctx) => newForm(ctx), view: newView }) },
  {
    method: 'POST',
    path: /^\/new$/,
    page: definePage({
      async load(ctx) {
        const f = ctx.form;
        try {
          const input = parseInput(createInput, {
            space: f.get('space') ?? '',
            name: f.get('name') ?? '',
            summary: f.get('summary') ?? '',
            content: f.get('content') ?? '',
            keyPoints: linesOf(f.get('keyPoints')),
          });
          await ctx.deps.tokens.load();
          const row = await createBinding(ctx.core, ctx.user.caller, input, HUMAN);
          return redirect(`/b/${row.bindingId}`);
        } catch (err) {
          if (
            err instanceof Error &&
            'code' in err &&
            (err.code === 'INVALID_INPUT' || err.code === 'TOO_LARGE' || err.code === 'FORBIDDEN')
          )
            return newForm(ctx, err.message, 400);
          throw err;
        }
      },
      // A refused form comes back with its fields and the reason.
      view: newView,
    }),
  },
];
