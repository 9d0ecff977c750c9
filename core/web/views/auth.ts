import { html, type Html } from '../html.ts';
import { layout, type Viewer } from './layout.ts';

// The sign-in pages (core/web/pages/auth.ts loads them).

/** The page a visitor sees at `/` (and on any page that needs a session). */
export function signInView(): Html {
  return layout(
    'Sign in',
    undefined,
    html`<h1>Sign in to Bindery</h1>
<p>Bindery keeps documents (<em>bindings</em>) for you and your assistants, shaped to a token budget.</p>
<p>This server signs people in with one-time links. On the machine that runs it, ask for one:</p>
<pre class="src"><code>bun run cli login-link --user &lt;your-handle&gt;</code></pre>
<p>Open the link it prints within 15 minutes and press <strong>Sign in</strong>. The link works once.</p>`,
  );
}

/** A login link that was used, expired or mistyped. */
export function linkNotValidView(): Html {
  return layout(
    'Link not valid',
    undefined,
    html`<h1>This sign-in link is not valid</h1><p>It was already used, it expired, or it was mistyped. Ask for a new one with <code>bun run cli login-link --user &lt;handle&gt;</code>.</p>`,
  );
}

/** What opening a login link shows: one button, so link scanners that fetch it do not use it up. */
export interface LoginData {
  user: Viewer | undefined;
  token: string;
}

/** The page a login link opens: one button that signs in. */
export function loginView(d: LoginData): Html {
  return layout(
    'Sign in',
    d.user,
    html`<h1>Sign in to Bindery</h1><p>Press the button to sign in on this browser. The link then stops working.</p>
<form method="post" action="/login/${d.token}"><button type="submit" class="primary">Sign in</button></form>`,
  );
}

/** A sign-in post from another origin. */
export function signInRefusedView(): Html {
  return layout('Refused', undefined, html`<h1>Refused</h1><p>Sign in from the page the link opens.</p>`);
}
