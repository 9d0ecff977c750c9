import type { BinderyDeps, ToolContext } from '../context.ts';
import type { CoreDeps } from '../services/bindings.ts';
import type { Page } from './page.ts';
import type { WebUser } from './session.ts';

// The shapes every web page shares: the router builds a WebContext per request and dispatches to the
// pages' WebRoutes. Kept apart from the router so pages and router do not import each other.

/** What a page's load gets for one request. */
export interface WebContext {
  deps: BinderyDeps;
  core: CoreDeps;
  request: Request;
  url: URL;
  /** The signed-in person (routes marked `public` may run without one). */
  user: WebUser;
  /** The posted form (POST routes only). */
  form: URLSearchParams;
  /** A tool context acting as this person, for reads through the tools (same checks, same packer). */
  tools(): ToolContext;
}

/**
 * A web-app page: loaded with the request and the path's match, viewed in the app's frame. `any` by
 * default: the route table holds pages of every data type, and each page's load and view agree on theirs.
 */
export type WebPage<D = any> = Page<[ctx: WebContext, match: RegExpExecArray], D>;

export interface WebRoute {
  method: 'GET' | 'POST';
  path: RegExp;
  /** Runs without a session (sign-in pages). */
  public?: boolean;
  page: WebPage;
}
