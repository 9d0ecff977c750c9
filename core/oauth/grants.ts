import { listOAuthGrants, revokeUserOAuthFamily } from '../services/oauth.ts';
import type { BinderyDeps } from '../context.ts';
import { csrfOk, CSRF_FIELD, webUser } from '../web/session.ts';
import { defineAction, definePage, renderPage, show } from '../web/page.ts';
import { grantsExpiredView, grantsSignInView, grantsView } from '../web/views/oauth.ts';
import { oauthPage } from './respond.ts';
import { PATHS } from './urls.ts';
import { readForm } from './wire.ts';

// /oauth/grants: the signed-in person's connected apps, each with a Revoke button. Revoking ends the
// grant's refresh token and every access token from it at once (tokens are checked per request).

/** GET /oauth/grants. */
export const grantsPage = definePage({
  async load(deps: BinderyDeps, request: Request) {
    const user = await webUser(deps, request);
    if (!user) return oauthPage(grantsSignInView(), 401);
    const grants = await listOAuthGrants(deps.db, user.caller.id, deps.now());
    return show({
      handle: user.caller.handle,
      csrf: user.csrf,
      grantsPath: PATHS.grants,
      grants: grants.map((g) => ({ name: g.clientName ?? g.clientId, createdAt: g.createdAt, familyId: g.familyId })),
    });
  },
  view: grantsView,
});

/** Serves GET /oauth/grants. */
export function handleGrantsGet(deps: BinderyDeps, request: Request): Promise<Response> {
  return renderPage(grantsPage, [deps, request], oauthPage);
}

/** POST /oauth/grants: revokes one of the person's grants. */
export const revokeGrantAction = defineAction(async (deps: BinderyDeps, request: Request) => {
  const user = await webUser(deps, request);
  const form = await readForm(request);
  if (!user || 'error' in form || !csrfOk(deps, request, user, form.get(CSRF_FIELD)))
    return oauthPage(grantsExpiredView(PATHS.grants), 403);
  const family = form.get('family') ?? '';
  await revokeUserOAuthFamily(deps.db, user.caller.id, family, deps.now());
  return new Response(null, { status: 303, headers: { Location: PATHS.grants, 'Cache-Control': 'no-store' } });
});

/** Serves POST /oauth/grants. */
export function handleGrantsPost(deps: BinderyDeps, request: Request): Promise<Response> {
  return renderPage(revokeGrantAction, [deps, request], oauthPage);
}
