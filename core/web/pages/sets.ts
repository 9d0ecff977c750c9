import { tierCost, type Tier } from '../../budget/tier.ts';
import { clip } from '../../clip.ts';
import { fail } from '../../errors.ts';
import { callTool } from '../../tools/call.ts';
import { TOOLS } from '../../tools/registry.ts';
import { listBindings } from '../../services/find.ts';
import { createSet, deleteSet, editSetItems, readSet, setContents } from '../../services/sets.ts';
import type { ItemEdits } from '../../services/set-edits.ts';
import { html, num, when, type Html } from '../html.ts';
import { csrfField, layout, page, postButton, provenance, redirect, tierCosts } from '../layout.ts';
import type { WebContext, WebRoute } from '../route.ts';
import { writableSpaces } from './common.ts';
import { shareForm, shareRows } from './shares.ts';
import { idPattern } from '../../ids.ts';

// Sets: ordered lists of bindings an assistant loads in one call. The set page shows each item's
// exact cost per tier and a budget preview computed by get_set_context itself (the same packer, the
// same framing), so "these fit, these do not" is exactly what an assistant would get.

const ID = `(${idPattern('set')})`;
const TIERS: Tier[] = ['1', '1.5', '2'];

async function list(ctx: WebContext, error?: string): Promise<Response> {
  const sets = (await callTool(ctx.tools(), TOOLS.list_sets, { limit: 100 })).sets;
  const spaces = await writableSpaces(ctx);
  const body = html`<h1>Sets</h1>
${sets.length ? html`<ul class="list">${sets.map((s) => html`<li><a href="/sets/${s.id}"><strong>${s.name}</strong></a> <span class="meta">${s.space} · ${s.itemCount} item${s.itemCount === 1 ? '' : 's'} · updated ${when(s.updatedAt)}</span><div>${tierCosts(s.tierTokens)}</div></li>`)}</ul>` : html`<p>No sets yet.</p>`}
<h2>New set</h2><form method="post" action="/sets">${csrfField(ctx.user)}
<label for="name">Name</label><input type="text" id="name" name="name" required maxlength="200">
<label for="description">Description</label><input type="text" id="description" name="description" maxlength="600">
<label for="space">Space</label><select id="space" name="space">${spaces.map((s) => html`<option value="${s.slug}">@${s.slug}</option>`)}</select>
<p><button type="submit" class="primary">Create set</button></p></form>`;
  return page(layout('Sets', ctx.user, body, { error }), error ? 400 : 200);
}

function budgetArgs(ctx: WebContext) {
  const p = ctx.url.searchParams;
  const tier = (TIERS as string[]).includes(p.get('tier') ?? '') ? (p.get('tier') as Tier) : '1.5';
  const asked = Number(p.get('maxTokens'));
  const maxTokens =
    Number.isInteger(asked) && asked >= 50
      ? Math.min(asked, ctx.deps.config.maxResponseTokens)
      : Math.min(8000, ctx.deps.config.maxResponseTokens);
  const strategy = p.get('strategy') === 'fill' ? 'fill' : 'ordered';
  const fallback = p.get('fallback') !== 'no';
  return { tier, maxTokens, strategy, fallback } as const;
}

async function show(ctx: WebContext, id: string): Promise<Response> {
  const set = await readSet(ctx.core, ctx.user.caller, id);
  const contents = await setContents(ctx.core, ctx.user.caller, set);
  const owner = set.spaceOwnerId === ctx.user.caller.id;
  const b = budgetArgs(ctx);
  const preview = (await callTool(ctx.tools(), TOOLS.get_set_context, { setId: id, ...b })).budget;
  const fit = new Map(preview.included.map((i) => [i.id, i]));
  const names = new Map(contents.items.map((it) => [it.row.bindingId, it.row.name]));
  const n = contents.items.length;
  const inSet = new Set(contents.items.map((i) => i.row.bindingId));
  const candidates = owner
    ? (await listBindings(ctx.core, ctx.user.caller, { offset: 0, limit: 200 })).rows.filter((r) => !inSet.has(r.bindingId))
    : [];
  const shares = owner ? (await callTool(ctx.tools(), TOOLS.list_shares, { target: id, limit: 100 })).shares.filter((s) => !s.revoked) : [];
  const item = (it: (typeof contents.items)[number], i: number) => {
    const r = it.row;
    const got = fit.get(r.bindingId);
    const edit = (action: string, label: string, extra: Record<string, string | number> = {}) =>
      postButton(ctx.user, `/sets/${id}/items`, label, { fields: { action, bindingId: r.bindingId, ...extra } });
    // Every row has the same cells in the same order (an empty slot where the first row cannot move
    // up or the last down), so the grid in app.css lines the columns up from row to row.
    const slot = (action: Html | '') => html`<span class="slot">${action}</span>`;
    return html`<li data-id="${r.bindingId}"><span class="pos">${i + 1}.</span><span class="what"><a href="/b/${r.bindingId}">${r.name}</a> <span class="meta">v${r.number}${it.pinned ? ' (pinned)' : ''}</span> ${provenance(r.source, r.model)}</span>
${tierCosts({ '1': tierCost(r, '1'), '1.5': tierCost(r, '1.5'), '2': tierCost(r, '2') })}
${got ? html`<span class="fit">✓ fits at tier ${got.tier} (${num(got.tokens)})</span>` : html`<span class="nofit">✗ does not fit</span>`}
${owner ? html`<span class="actions">${slot(i > 0 ? edit('move', 'Move up', { position: i - 1 }) : '')}${slot(i < n - 1 ? edit('move', 'Move down', { position: i + 1 }) : '')}${slot(it.pinned ? edit('unpin', 'Unpin') : edit('pin', `Pin v${r.number}`, { version: r.number }))}${slot(edit('remove', 'Remove'))}</span>` : ''}</li>`;
  };
  const fits = preview.included.length;
  const omitted = preview.omitted;
  const body = html`<p class="meta"><a href="/sets">← Sets</a> · @${set.spaceSlug}</p><h1>${set.name}</h1>
${set.description ? html`<p>${set.description}</p>` : ''}
<p>${n} item${n === 1 ? '' : 's'} · ${num(contents.totalTokenCount)} content tokens · whole set: ${tierCosts(contents.tierTokens)}</p>
<section class="budget" aria-labelledby="budget-h"><h2 id="budget-h">Budget preview</h2>
<form method="get" action="/sets/${id}" class="filters">
<div><label for="maxTokens">Budget (tokens)</label><input type="number" id="maxTokens" name="maxTokens" min="50" max="${ctx.deps.config.maxResponseTokens}" value="${b.maxTokens}"></div>
<div><label for="tier">Tier</label><select id="tier" name="tier">${TIERS.map((t) => html`<option value="${t}" ${t === b.tier ? 'selected' : ''}>${t}</option>`)}</select></div>
<div><label for="strategy">Strategy</label><select id="strategy" name="strategy"><option value="ordered" ${b.strategy === 'ordered' ? 'selected' : ''}>in order, stop at the first misfit</option><option value="fill" ${b.strategy === 'fill' ? 'selected' : ''}>fill: skip what does not fit</option></select></div>
<div><label for="fallback">Lower tiers</label><select id="fallback" name="fallback"><option value="yes" ${b.fallback ? 'selected' : ''}>allowed</option><option value="no" ${b.fallback ? '' : 'selected'}>not allowed</option></select></div>
<button type="submit">Preview</button></form>
<p id="budget-summary"><strong>In ${num(b.maxTokens)} tokens at tier ${b.tier}, ${fits} item${fits === 1 ? '' : 's'} fit${fits === 1 ? 's' : ''}, ${omitted.length} do${omitted.length === 1 ? 'es' : ''} not</strong>
(${num(preview.usedTokens)} tokens used, framing included; ${num(preview.remainingTokens)} left). This is what <code>get_set_context</code> returns to an assistant.</p>
${omitted.length ? html`<p>Left out: ${omitted.map((o, i) => html`${i ? ', ' : ''}<a href="/b/${o.id}">${names.get(o.id) ?? o.id}</a> (${num(o.tokens)})`)}</p>` : ''}</section>
<h2>Items</h2>
${n ? html`<ol class="list items" ${owner ? html`data-reorder` : ''}>${contents.items.map(item)}</ol>` : html`<p>No items yet.</p>`}
${contents.skipped.length ? html`<p class="meta">Skipped: ${contents.skipped.map((s) => `${s.id} (${s.reason})`).join(', ')}</p>` : ''}
${
  owner
    ? html`<form method="post" action="/sets/${id}/items" id="move-form" hidden>${csrfField(ctx.user)}<input type="hidden" name="action" value="move"><input type="hidden" name="bindingId" value=""><input type="hidden" name="position" value=""></form>
<h2>Add a binding</h2><form method="post" action="/sets/${id}/items" class="filters">${csrfField(ctx.user)}<input type="hidden" name="action" value="add">
<div><label for="add">Binding</label><select id="add" name="bindingId">${candidates.map((r) => html`<option value="${r.bindingId}">${r.name} (@${r.spaceSlug}, T2 ${num(tierCost(r, '2'))})</option>`)}</select></div>
<button type="submit">Add</button></form>
<section aria-labelledby="share-h"><h2 id="share-h">Sharing</h2>${shareRows(ctx, shares)}${shareForm(ctx, id, `/sets/${id}`)}</section>
<p>${postButton(ctx.user, `/sets/${id}/delete`, 'Delete set', { cls: 'danger' })}</p>`
    : ''
}`;
  return page(layout(set.name, ctx.user, body));
}

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

export const setRoutes: WebRoute[] = [
  { method: 'GET', path: /^\/sets$/, handle: (ctx) => list(ctx) },
  {
    method: 'POST',
    path: /^\/sets$/,
    async handle(ctx) {
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
  },
  { method: 'GET', path: new RegExp(`^/sets/${ID}$`), handle: (ctx, m) => show(ctx, m[1]!) },
  {
    method: 'POST',
    path: new RegExp(`^/sets/${ID}/items$`),
    async handle(ctx, m) {
      const set = await readSet(ctx.core, ctx.user.caller, m[1]!);
      const contents = await setContents(ctx.core, ctx.user.caller, set);
      await editSetItems(ctx.core, ctx.user.caller, m[1]!, editsFrom(ctx.form, contents));
      return redirect(`/sets/${m[1]!}`);
    },
  },
  {
    method: 'POST',
    path: new RegExp(`^/sets/${ID}/delete$`),
    async handle(ctx, m) {
      await deleteSet(ctx.core, ctx.user.caller, m[1]!);
      return redirect('/sets');
    },
  },
];
