import type { WebUser } from './session.ts';
import { CSRF_FIELD } from './session.ts';
import { html, htmlDocument, type Html } from './html.ts';
import { htmlResponse } from './page-headers.ts';

/**
 * An HTML response with the app's security headers (page-headers.ts): the pages load only our own
 * stylesheet and script, forms post only to us, no framing. Rendered content is inert markup already
 * (markdown.ts), the CSP is the second wall.
 */
export function page(body: Html, status = 200, extra: Record<string, string> = {}): Response {
  return htmlResponse('app', body.value, status, { 'Cache-Control': 'private, no-store', ...extra });
}

/** A 303 See Other after a form post (so reload does not post again). */
export function redirect(to: string, extra: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { Location: to, 'Cache-Control': 'no-store', ...extra } });
}

/** The hidden CSRF field every state-changing form carries. */
export function csrfField(user: WebUser): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${user.csrf}">`;
}

/** A one-button POST form (delete, revoke, sign out…): state changes are never links. */
export function postButton(
  user: WebUser,
  action: string,
  label: string,
  opts: { cls?: string; fields?: Record<string, string | number> } = {},
): Html {
  const fields = Object.entries(opts.fields ?? {}).map(([k, v]) => html`<input type="hidden" name="${k}" value="${String(v)}">`);
  return html`<form method="post" action="${action}" class="inline">${csrfField(user)}${fields}<button type="submit" class="${opts.cls ?? ''}">${label}</button></form>`;
}

/** The page frame: header with navigation and sign-out for a signed-in person. */
export function layout(title: string, user: WebUser | undefined, main: Html, opts: { flash?: string; error?: string } = {}): Html {
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

/** The one "not found" page: the same bytes whether the thing is missing or not yours to read. */
export function notFound(user: WebUser | undefined): Response {
  return page(layout('Not found', user, html`<h1>Not found</h1><p>There is nothing here, or you may not read it.</p>`), 404);
}

/** Provenance as a badge: a person or an assistant (with its model), told apart by text and shape, not colour alone. */
export function provenance(source: 'human' | 'llm', model: string | null | undefined): Html {
  return source === 'llm'
    ? html`<span class="prov prov-llm" title="Written by an assistant">🤖 Assistant${model ? html` · <span class="model">${model}</span>` : ''}</span>`
    : html`<span class="prov prov-human" title="Written by a person">✍ Person</span>`;
}

/** Exact stored token costs at each tier, where a person decides what an assistant will load. */
export function tierCosts(costs: Record<'1' | '1.5' | '2', number>): Html {
  const cell = (t: string, n: number) => html`<span class="cost"><abbr title="tier ${t}">T${t}</abbr> ${n.toLocaleString('en-US')}</span>`;
  return html`<span class="costs" aria-label="token cost per tier">${cell('1', costs['1'])}${cell('1.5', costs['1.5'])}${cell('2', costs['2'])}</span>`;
}
