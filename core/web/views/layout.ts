import { html, htmlDocument, type Html } from '../html.ts';

// The web app's frame and the fragments its pages share: navigation, the CSRF field of every form,
// one-button forms, provenance badges and tier costs. Pure functions of their arguments.

/** The form field (and header, for scripts) that carries the CSRF secret. */
export const CSRF_FIELD = 'csrf';

/** What a view knows of the signed-in person (a WebUser is one): their handle and the session's CSRF secret. */
export interface Viewer {
  readonly csrf: string;
  readonly caller: { readonly handle: string };
}

/** The hidden CSRF field every state-changing form carries. */
export function csrfField(user: Viewer): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${user.csrf}">`;
}

/** A one-button POST form (delete, revoke, sign out…): state changes are never links. */
export function postButton(
  user: Viewer,
  action: string,
  label: string,
  opts: { cls?: string; fields?: Record<string, string | number> } = {},
): Html {
  const fields = Object.entries(opts.fields ?? {}).map(([k, v]) => html`<input type="hidden" name="${k}" value="${String(v)}">`);
  return html`<form method="post" action="${action}" class="inline">${csrfField(user)}${fields}<button type="submit" class="${opts.cls ?? ''}">${label}</button></form>`;
}

/** The page frame: header with navigation and sign-out for a signed-in person. */
export function layout(title: string, user: Viewer | undefined, main: Html, opts: { flash?: string; error?: string } = {}): Html {
  const nav = user
    ? html`<nav aria-label="Main"><a href="/">Bindings</a><a href="/spaces">Spaces</a><a href="/sets">Sets</a><a href="/shares">Shares</a><a href="/new">New binding</a><a href="/trash">Deleted</a><a href="/oauth/grants">Connected apps</a>
<span class="who">@${user.caller.handle}</span>${postButton(user, '/logout', 'Sign out', { cls: 'link' })}</nav>`
    : html``;
  const body = html`<header class="top"><a class="brand" href="/">Bindery</a>${nav}</header>
<main id="main">
${opts.flash ? html`<p class="flash" role="status">${opts.flash}</p>` : ''}${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ''}
${main}
</main>`;
  return htmlDocument(`${title} · Bindery`, 'app', body, html`<script src="/web/app.js" defer></script>`);
}

/** Provenance as a badge: a person or an assistant (with its model), told apart by text and shape, not colour alone. */
export function provenance(source: 'human' | 'llm', model: string | null | undefined): Html {
  return source === 'llm'
    ? html`<span class="prov prov-llm" title="Written by an assistant">🤖 Assistant${model ? html` · <span class="model">${model}</span>` : ''}</span>`
    : html`<span class="prov prov-human" title="Written by a person">✍ Person</span>`;
}

/** Exact token costs at each tier (as the load computed them). */
export type TierCosts = Record<'1' | '1.5' | '2', number>;

/** Exact stored token costs at each tier, where a person decides what an assistant will load. */
export function tierCosts(costs: TierCosts): Html {
  const cell = (t: string, n: number) => html`<span class="cost"><abbr title="tier ${t}">T${t}</abbr> ${n.toLocaleString('en-US')}</span>`;
  return html`<span class="costs" aria-label="token cost per tier">${cell('1', costs['1'])}${cell('1.5', costs['1.5'])}${cell('2', costs['2'])}</span>`;
}
