// Server-rendered HTML with one tagged template, for every page Bindery serves (the web app, the public
// binding page, a share link's index, the OAuth pages). Every interpolated value is escaped unless it is
// already `Html` (built by this tag, or `trusted()` for sanitized Markdown output), so user content
// cannot reach the page as markup by accident. A template tag and an escaper are all a few pages of
// forms need; a component framework would add a build step and client code for no gain here.

/** Text as HTML text or attribute value: the five characters that could end either are escaped. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Markup that is safe to insert as is. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(v: Value): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

/** The template tag: `html\`<p>${name}</p>\`` escapes `name`; nested `html` values and arrays of them pass through. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Html values joined by a separator (a newline between list items keeps the page source readable). */
export function joinHtml(parts: readonly Html[], separator: string): Html {
  return new Html(parts.map((p) => p.value).join(separator));
}

/** Marks already-sanitized markup (the output of renderMarkdown) as safe. Never pass user text here. */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** Where the one stylesheet of every page is served (core/web/assets.ts holds it). */
export const STYLESHEET_PATH = '/web/app.css';

/**
 * A whole page: the head every page shares (charset, viewport, title, the icon and the one stylesheet),
 * `head` after it, and `body` in a `<body>` whose class picks the page kind's section of the stylesheet.
 */
export function htmlDocument(title: Value, bodyClass: string, body: Html, head: Html = html``): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="${STYLESHEET_PATH}">${head}</head>
<body class="${bodyClass}">${body}</body></html>
`;
}

/** `n` with thousands separators, as people read token counts. */
export function num(n: number): string {
  return n.toLocaleString('en-US');
}

/** An ISO timestamp (or epoch ms) as `YYYY-MM-DD HH:MM` UTC. */
export function when(t: string | number): string {
  return new Date(t).toISOString().slice(0, 16).replace('T', ' ');
}
