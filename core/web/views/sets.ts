import type { BindingVersionRow } from '../../../db/store/bindings.ts';
import type { ShareView } from '../../tools/share/share-view.ts';
import { html, num, when, type Html } from '../html.ts';
import type { SpaceItem } from '../pages/common.ts';
import { csrfField, layout, postButton, provenance, tierCosts, type TierCosts, type Viewer } from './layout.ts';
import { shareForm, shareRows } from './shares.ts';

/** The tiers a budget preview may ask for. */
export const TIERS = ['1', '1.5', '2'] as const;

/** A set in the list, as list_sets gives it. */
export interface SetLine {
  id: string;
  name: string;
  space: string;
  itemCount: number;
  updatedAt: string;
  tierTokens: TierCosts;
}

/** The sets page: a person's sets and the form that makes one. */
export interface SetsData {
  user: Viewer;
  sets: SetLine[];
  spaces: SpaceItem[];
  error?: string;
}

/** The sets page. */
export function setsView(d: SetsData): Html {
  const body = html`<h1>Sets</h1>
${d.sets.length ? html`<ul class="list">${d.sets.map((s) => html`<li><a href="/sets/${s.id}"><strong>${s.name}</strong></a> <span class="meta">${s.space} · ${s.itemCount} item${s.itemCount === 1 ? '' : 's'} · updated ${when(s.updatedAt)}</span><div>${tierCosts(s.tierTokens)}</div></li>`)}</ul>` : html`<p>No sets yet.</p>`}
<h2>New set</h2><form method="post" action="/sets">${csrfField(d.user)}
<label for="name">Name</label><input type="text" id="name" name="name" required maxlength="200">
<label for="description">Description</label><input type="text" id="description" name="description" maxlength="600">
<label for="space">Space</label><select id="space" name="space">${d.spaces.map((s) => html`<option value="${s.slug}">@${s.slug}</option>`)}</select>
<p><button type="submit" class="primary">Create set</button></p></form>`;
  return layout('Sets', d.user, body, { error: d.error });
}

/** What the budget preview asked get_set_context for. */
export interface BudgetArgs {
  tier: (typeof TIERS)[number];
  maxTokens: number;
  strategy: 'ordered' | 'fill';
  fallback: boolean;
}

/** A set's item: its version, costs, and whether it fits the previewed budget (at which tier, for how much). */
export interface SetItemLine {
  row: BindingVersionRow;
  pinned: boolean;
  costs: TierCosts;
  fit?: { tier: string; tokens: number };
}

/** A set's page: its items with their costs, the budget preview and, for its owner, editing and sharing. */
export interface SetData {
  user: Viewer;
  id: string;
  set: { name: string; description: string | null; spaceSlug: string };
  owner: boolean;
  items: SetItemLine[];
  skipped: { id: string; reason: string }[];
  totalTokenCount: number;
  tierTokens: TierCosts;
  budget: BudgetArgs;
  maxResponseTokens: number;
  preview: { fits: number; usedTokens: number; remainingTokens: number; leftOut: { id: string; name: string; tokens: number }[] };
  /** Bindings the owner may add (with their whole cost), and the set's live shares. */
  candidates: { row: BindingVersionRow; t2: number }[];
  shares: ShareView[];
  /** This page's path, where a revoke comes back to. */
  path: string;
}

/** A set's page. */
export function setView(d: SetData): Html {
  const { user, id, set, owner, budget: b } = d;
  const n = d.items.length;
  const item = (it: SetItemLine, i: number) => {
    const r = it.row;
    const edit = (action: string, label: string, extra: Record<string, string | number> = {}) =>
      postButton(user, `/sets/${id}/items`, label, { fields: { action, bindingId: r.bindingId, ...extra } });
    // Every row has the same cells in the same order (an empty slot where the first row cannot move
    // up or the last down), so the grid in app.css lines the columns up from row to row.
    const slot = (action: Html | '') => html`<span class="slot">${action}</span>`;
    return html`<li data-id="${r.bindingId}"><span class="pos">${i + 1}.</span><span class="what"><a href="/b/${r.bindingId}">${r.name}</a> <span class="meta">v${r.number}${it.pinned ? ' (pinned)' : ''}</span> ${provenance(r.source, r.model)}</span>
${tierCosts(it.costs)}
${it.fit ? html`<span class="fit">✓ fits at tier ${it.fit.tier} (${num(it.fit.tokens)})</span>` : html`<span class="nofit">✗ does not fit</span>`}
${owner ? html`<span class="actions">${slot(i > 0 ? edit('move', 'Move up', { position: i - 1 }) : '')}${slot(i < n - 1 ? edit('move', 'Move down', { position: i + 1 }) : '')}${slot(it.pinned ? edit('unpin', 'Unpin') : edit('pin', `Pin v${r.number}`, { version: r.number }))}${slot(edit('remove', 'Remove'))}</span>` : ''}</li>`;
  };
  const { fits, leftOut } = d.preview;
  const body = html`<p class="meta"><a href="/sets">← Sets</a> · @${set.spaceSlug}</p><h1>${set.name}</h1>
${set.description ? html`<p>${set.description}</p>` : ''}
<p>${n} item${n === 1 ? '' : 's'} · ${num(d.totalTokenCount)} content tokens · whole set: ${tierCosts(d.tierTokens)}</p>
<section class="budget" aria-labelledby="budget-h"><h2 id="budget-h">Budget preview</h2>
<form method="get" action="/sets/${id}" class="filters">
<div><label for="maxTokens">Budget (tokens)</label><input type="number" id="maxTokens" name="maxTokens" min="50" max="${d.maxResponseTokens}" value="${b.maxTokens}"></div>
<div><label for="tier">Tier</label><select id="tier" name="tier">${TIERS.map((t) => html`<option value="${t}" ${t === b.tier ? 'selected' : ''}>${t}</option>`)}</select></div>
<div><label for="strategy">Strategy</label><select id="strategy" name="strategy"><option value="ordered" ${b.strategy === 'ordered' ? 'selected' : ''}>in order, stop at the first misfit</option><option value="fill" ${b.strategy === 'fill' ? 'selected' : ''}>fill: skip what does not fit</option></select></div>
<div><label for="fallback">Lower tiers</label><select id="fallback" name="fallback"><option value="yes" ${b.fallback ? 'selected' : ''}>allowed</option><option value="no" ${b.fallback ? '' : 'selected'}>not allowed</option></select></div>
<button type="submit">Preview</button></form>
<p id="budget-summary"><strong>In ${num(b.maxTokens)} tokens at tier ${b.tier}, ${fits} item${fits === 1 ? '' : 's'} fit${fits === 1 ? 's' : ''}, ${leftOut.length} do${leftOut.length === 1 ? 'es' : ''} not</strong>
(${num(d.preview.usedTokens)} tokens used, framing included; ${num(d.preview.remainingTokens)} left). This is what <code>get_set_context</code> returns to an assistant.</p>
${leftOut.length ? html`<p>Left out: ${leftOut.map((o, i) => html`${i ? ', ' : ''}<a href="/b/${o.id}">${o.name}</a> (${num(o.tokens)})`)}</p>` : ''}</section>
<h2>Items</h2>
${n ? html`<ol class="list items" ${owner ? html`data-reorder` : ''}>${d.items.map(item)}</ol>` : html`<p>No items yet.</p>`}
${d.skipped.length ? html`<p class="meta">Skipped: ${d.skipped.map((s) => `${s.id} (${s.reason})`).join(', ')}</p>` : ''}
${
  owner
    ? html`<form method="post" action="/sets/${id}/items" id="move-form" hidden>${csrfField(user)}<input type="hidden" name="action" value="move"><input type="hidden" name="bindingId" value=""><input type="hidden" name="position" value=""></form>
<h2>Add a binding</h2><form method="post" action="/sets/${id}/items" class="filters">${csrfField(user)}<input type="hidden" name="action" value="add">
<div><label for="add">Binding</label><select id="add" name="bindingId">${d.candidates.map((c) => html`<option value="${c.row.bindingId}">${c.row.name} (@${c.row.spaceSlug}, T2 ${num(c.t2)})</option>`)}</select></div>
<button type="submit">Add</button></form>
<section aria-labelledby="share-h"><h2 id="share-h">Sharing</h2>${shareRows(user, d.shares, d.path)}${shareForm(user, id, `/sets/${id}`)}</section>
<p>${postButton(user, `/sets/${id}/delete`, 'Delete set', { cls: 'danger' })}</p>`
    : ''
}`;
  return layout(set.name, user, body);
}
