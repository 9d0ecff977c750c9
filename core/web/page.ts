import type { Html } from './html.ts';

// Every HTML page Bindery serves (the web app, the public binding page and link index, the OAuth pages)
// is a load and a view, as SvelteKit's `load` and Remix's loader/component split them. The load reads
// what the page needs through services and tools and checks access; it answers the view's data (with
// the status and headers of the response), or a response that ends the request first (a redirect, the
// one 404). The view turns the data into HTML with the auto-escaping template, synchronously, with no
// I/O: views live in core/web/views/, which imports nothing but the template and other views
// (tests/web/page-rule.test.ts keeps both halves apart).

/** A load's answer to render: the view's data, and the response's status and extra headers. */
export interface Shown<D> {
  readonly data: D;
  readonly status: number;
  readonly headers: Record<string, string>;
}

/** What a load answers: data for the view, or a response that needs no view (a redirect, the one 404). */
export type Loaded<D> = Shown<D> | Response;

/** The view's data, with the status (200 unless said) and extra headers of the response. */
export function show<D>(data: D, status = 200, headers: Record<string, string> = {}): Shown<D> {
  return { data, status, headers };
}

/** One page: what it reads, then how it looks. */
export interface Page<A extends unknown[], D> {
  load(...args: A): Promise<Loaded<D>>;
  view(data: D): Html;
}

const PAGES = new WeakSet<object>();

/** Declares a page; every page module exports its pages through this (and only this) shape. */
export function definePage<A extends unknown[], D>(page: Page<A, D>): Page<A, D> {
  PAGES.add(page);
  return page;
}

/**
 * A form post that never renders (delete, restore, sign out…): its load always answers a response,
 * a redirect after the change, so it has no view to call.
 */
export function defineAction<A extends unknown[]>(load: (...args: A) => Promise<Response>): Page<A, never> {
  return definePage<A, never>({
    load,
    view: () => {
      throw new Error('an action answers a response; it has no view');
    },
  });
}

/** Whether a value was declared with definePage (or defineAction). */
export function isPage(value: unknown): boolean {
  return typeof value === 'object' && value !== null && PAGES.has(value);
}

/** Runs a page: its load, then (unless the load answered a response) its view, sent by `send`. */
export async function renderPage<A extends unknown[], D>(
  page: Page<A, D>,
  args: A,
  send: (body: Html, status: number, headers: Record<string, string>) => Response,
): Promise<Response> {
  const loaded = await page.load(...args);
  if (loaded instanceof Response) return loaded;
  return send(page.view(loaded.data), loaded.status, loaded.headers);
}
