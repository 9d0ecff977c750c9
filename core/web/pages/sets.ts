import { tierCost } from '../../budget/tier.ts';
import { clip } from '../../clip.ts';
import { fail } from '../../errors.ts';
import { idPattern } from '../../ids.ts';
import { listBindings } from '../../services/find.ts';
import type { ItemEdits } from '../../services/set-edits.ts';
import { createSet, deleteSet, editSetItems, readSet, setContents } from '../../services/sets.ts';
import { callTool } from '../../tools/call.ts';
import { TOOLS } from '../../tools/registry.ts';
import { defineAction, definePage, show, type Loaded } from '../page.ts';
import { redirect } from '../respond.ts';
import type { WebContext, WebRoute } from '../route.ts';
import { setsView, setView, TIERS, type BudgetArgs, type SetsData } from '../views/sets.ts';
import { costsOf, writableSpaces } from './common.ts';
import { shareRowsOf } from './shares.ts';

// Sets: ordered lists of bindings an assistant loads in one call. The set page shows each item's
// exact cost per tier and a budget preview computed by get_set_context itself (the same packer, the
// same framing), so "these fit, these do not" is exactly what an assistant would get.

const ID = `(${idPattern('set')})`;

async function list(ctx: WebContext, error?: string): Promise<Loaded<SetsData>> {
  const sets = (await callTool(ctx.tools(), TOOLS.list_sets, { limit: 100 })).sets;
  const spaces = await writableSpaces(ctx);
  return show({ user: ctx.user, sets, spaces, error }, error ? 400 : 200);
}

function budgetArgs(ctx: WebContext): BudgetArgs {
  const p = ctx.url.searchParams;
  const asked = p.get('tier') ?? '';
  const tier = TIERS.find((t) => t === asked) ?? '1.5';
  const n = Number(p.get('maxTokens'));
  const maxTokens =
    Number.isInteger(n) && n >= 50 ? Math.min(n, ctx.deps.config.maxResponseTokens) : Math.min(8000, ctx.deps.config.maxResponseTokens);
  const strategy = p.get('strategy') === 'fill' ? 'fill' : 'ordered';
  const fallback = p.get('fallback') !== 'no';
  return { tier, maxTokens, strategy, fallback };
}

const setPage = definePage({
  async load(ctx: WebContext, m: RegExpExecArray) {
    const id = m[1]!;
    const set = await readSet(ctx.core, ctx.user.caller, id);
    const contents = await setContents(ctx.core, ctx.user.caller, set);
    const owner = set.spaceOwnerId === ctx.user.caller.id;
    const b = budgetArgs(ctx);
    const preview = (await callTool(ctx.tools(), TOOLS.get_set_context, { setId: id, ...b })).budget;
    const fit = new Map(preview.included.map((i) => [i.id, i]));
    const names = new Map(contents.items.map((it) => [it.row.bindingId, it.row.name]));
    const inSet = new Set(contents.items.map((i) => i.row.bindingId));
    const candidates = owner
      ? (await listBindings(ctx.core, ctx.user.caller, { offset: 0, limit: 200 })).rows.filter((r) => !inSet.has(r.bindingId))
      : [];
    const shares = owner ? await shareRowsOf(ctx, id) : [];
    return show({
      user: ctx.user,
      id,
      set,
      owner,
      items: contents.items.map((it) => ({ row: it.row, pinned: it.pinned, costs: costsOf(it.row), fit: fit.get(it.row.bindingId) })),
      skipped: contents.skipped,
      totalTokenCount: contents.totalTokenCount,
      tierTokens: contents.tierTokens,
      budget: b,
      maxResponseTokens: ctx.deps.config.maxResponseTokens,
      preview: {
        fits: preview.included.length,
        usedTokens: preview.usedTokens,
        remainingTokens: preview.remainingTokens,
        leftOut: preview.omitted.map((o) => ({ id: o.id, name: names.get(o.id) ?? o.id, tokens: o.tokens })),
      },
      candidates: candidates.map((row) => ({ row, t2: tierCost(row, '2') })),
      shares,
      path: ctx.url.pathname,
    });
  },
  view: setView,
});

function editsFrom(form: URLSearchParams, contents: { stored: { bindingId: string }[] }): ItemEdits {
  const bindingId = form.get('bindingId') ?? '';
  if (!new RegExp(`^${idPattern('bnd')}$`).test(bindingId)) throw fail.invalid('bindingId', 'choose a binding');
  const position = Number(form.get('position'));
  const version = Number(form.get('version'));
  const at = contents.stored.findIndex((s) => s.bindingId === bindingId);
  switch (form.get('action')) {
    case 'add':
      return { add: [{ bindingId }] };
    case 'remove':
      return { remove: [bindingId] };
    case 'move':
      if (!Number.isInteger(position) || position < 0) throw fail.invalid('position', 'must be a position in the set');
      return { move: [{ bindingId, position }] };
    case 'pin':
    case 'unpin':
      // Pinning is re-adding the item at its place with (or without) a version, in one edit.
      if (at < 0) throw fail.invalid('bindingId', `${bindingId} is not in the set`);
      return {
        remove: [bindingId],
        add: [
          { bindingId, position: at, ...(form.get('action') === 'pin' && Number.isInteger(version) && version > 0 ? { version } : {}) },
        ],
      };
    default:
      throw fail.invalid('action', 'must be add, remove, move, pin or unpin');
  }
}

/** The sets pages' routes (each a definePage or defineAction). */
export const setRoutes: WebRoute[] = [
  { method: 'GET', path: /^\/sets$/, page: definePage({ load: (ctx) => list(ctx), view: setsView }) },
  {
    method: 'POST',
    path: /^\/sets$/,
    page: definePage({
      async load(ctx) {
        const name = (ctx.form.get('name') ?? '').trim();
        if (!name || name.length > 200) return list(ctx, 'name: must be 1 to 200 characters');
        const description = clip((ctx.form.get('description') ?? '').trim(), 600);
        const set = await createSet(ctx.core, ctx.user.caller, {
          name,
          description: description || undefined,
          space: ctx.form.get('space') || undefined,
        });
        return redirect(`/sets/${set.id}`);
      },
      // A refused form comes back with the reason.
      view: setsView,
    }),
  },
  { method: 'GET', path: new RegExp(`^/sets/${ID}$`), page: setPage },
  {
    method: 'POST',
    path: new RegExp(`^/sets/${ID}/items$`),
    page: defineAction(async (ctx, m) => {
      const set = await readSet(ctx.core, ctx.user.caller, m[1]!);
      const contents = await setContents(ctx.core, ctx.user.caller, set);
      await editSetItems(ctx.core, ctx.user.caller, m[1]!, editsFrom(ctx.form, contents));
      return redirect(`/sets/${m[1]!}`);
    }),
  },
  {
    method: 'POST',
    path: new RegExp(`^/sets/${ID}/delete$`),
    page: defineAction(async (ctx, m) => {
      await deleteSet(ctx.core, ctx.user.caller, m[1]!);
      return redirect('/sets');
    }),
  },
];
