import type { BinderyDeps, ToolContext } from '../context.ts';
import type { CoreDeps } from '../services/bindings.ts';
import type { WebUser } from './session.ts';

// The shapes every web page shares: the router builds a WebContext per request and dispatches to the
// pages' WebRoutes. Kept apart from the router so pages and router do not import each other.

/** What a page handler gets for one request. */
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

export interface WebRoute {
  method: 'GET' | 'POST';
  path: RegExp;
  /** Runs without a session (sign-in pages). */
  public?: boolean;
  handle(ctx: WebContext, match: RegExpExecArray): Promise<Response>;
}
