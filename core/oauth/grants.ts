import { listOAuthGrants, revokeUserOAuthFamily } from '../services/oauth.ts';
import type { BinderyDeps } from '../context.ts';
import { csrfOk, CSRF_FIELD, webUser } from '../web/session.ts';
import { hidden, htmlPage } from './html.ts';
import { html, when } from '../web/html.ts';
import { PATHS } from './urls.ts';
import { readForm } from './wire.ts';

// /oauth/grants: the signed-in person's connected apps, each with a Revoke button. Revoking ends the
// grant's refresh token and every access token from it at once (tokens are checked per request).

/** GET /oauth/grants. */
export async function handleGrantsGet(deps: BinderyDeps, request: Request): Promise<Response> {
  const user = await webUser(deps, request);
  if (!user)
    return htmlPage(
      'Connected apps',
      html`<h1>Connected apps</h1><p><a href="/">Sign in to Bindery</a> to see the apps you allowed.</p>`,
      401,
    );
  const grants = await listOAuthGrants(deps.db, user.caller.id, deps.now());
  const rows = grants.map(
    (g) => html`<li><strong>${g.clientName ?? g.clientId}</strong> <span class="meta">since ${when(g.createdAt)} UTC</span>
<form method="post" action="${PATHS.grants}" class="inline">${hidden('family', g.familyId)}${hidden(CSRF_FIELD, user.csrf)}<button type="submit">Revoke</button></form></li>`,
  );
  const list = grants.length ? html`<ul>${rows}</ul>` : html`<p>No app is connected.</p>`;
  return htmlPage('Connected apps', html`<p><a href="/">← Bindery</a></p><h1>Apps using Bindery as @${user.caller.handle}</h1>${list}`);
}

/** POST /oauth/grants: revokes one of the person's grants. */
export async function handleGrantsPost(deps: BinderyDeps, request: Request): Promise<Response> {
  const user = await webUser(deps, request);
  const form = await readForm(request);
  if (!user || 'error' in form || !csrfOk(deps, request, user, form.get(CSRF_FIELD)))
    return htmlPage('Try again', html`<h1>That form has expired</h1><p><a href="${PATHS.grants}">Back to connected apps</a></p>`, 403);
  const family = form.get('family') ?? '';
  await revokeUserOAuthFamily(deps.db, user.caller.id, family, deps.now());
  return new Response(null, { status: 303, headers: { Location: PATHS.grants, 'Cache-Control': 'no-store' } });
}
