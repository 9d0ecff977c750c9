import { insertOAuthCode } from '../services/oauth.ts';
import type { BinderyDeps } from '../context.ts';
import { newId, sha256Hex } from '../ids.ts';
import { csrfOk, CSRF_FIELD, webUser } from '../web/session.ts';
import { AUTHORIZE_PARAMS, checkAuthorizeRequest, redirect, redirectWith } from './authorize-request.ts';
import { errorPage, oauthPage } from './respond.ts';
import { defineAction, definePage, renderPage, show } from '../web/page.ts';
import { authorizeView, consentExpiredView, type AuthorizeData } from '../web/views/oauth.ts';
import { CODE_TTL_MS, newSecret } from './tokens.ts';
import { redirectTargetNote } from './redirect-uri.ts';
import { PATHS } from './urls.ts';
import { readForm } from './wire.ts';

// /authorize: the consent step. The person is whoever is signed in to the web app (core/web/session.ts);
// not signed in, the page says how to sign in and links back here. Signed in, it asks "Allow <client>
// to use Bindery as @handle?"; the answer is a POST carrying the session's CSRF secret (csrfOk), and
// every parameter is checked again on the POST, since the form is only as trustworthy as its sender.

/** GET /authorize: check the request, then the sign-in or consent page. */
export const authorizePage = definePage({
  async load(deps: BinderyDeps, request: Request, url: URL) {
    const check = await checkAuthorizeRequest(deps, url.searchParams);
    if (check.kind === 'page') return errorPage(check.status, check.message);
    if (check.kind === 'redirect') return redirect(check.location);
    const req = check.request;
    const user = await webUser(deps, request);
    if (!user)
      return show<AuthorizeData>({
        kind: 'sign-in',
        clientName: req.clientName,
        back: `${deps.config.publicUrl}${PATHS.authorize}${url.search}`,
      });
    const fields: [string, string][] = [
      ['client_id', req.client.id],
      ['redirect_uri', req.redirectUri],
      ['response_type', 'code'],
      ['code_challenge', req.codeChallenge],
      ['code_challenge_method', 'S256'],
      ['resource', req.resource],
      ...(req.scope !== null ? [['scope', req.scope] as [string, string]] : []),
      ...(req.state !== null ? [['state', req.state] as [string, string]] : []),
      [CSRF_FIELD, user.csrf],
    ];
    return show<AuthorizeData>({
      kind: 'consent',
      clientName: req.clientName,
      handle: user.caller.handle,
      resource: req.resource,
      redirectUri: req.redirectUri,
      redirectNote: redirectTargetNote(req.redirectUri),
      fields,
      authorizePath: PATHS.authorize,
      grantsPath: PATHS.grants,
    });
  },
  view: authorizeView,
});

/** Serves GET /authorize. */
export function handleAuthorizeGet(deps: BinderyDeps, request: Request, url: URL): Promise<Response> {
  return renderPage(authorizePage, [deps, request, url], oauthPage);
}

/** POST /authorize: the person's Allow or Deny (it never renders but the expired-form page). */
export const authorizeAction = defineAction(async (deps: BinderyDeps, request: Request): Promise<Response> => {
  const form = await readForm(request);
  if ('error' in form) return errorPage(400, 'The form could not be read.');
  const check = await checkAuthorizeRequest(deps, form);
  if (check.kind === 'page') return errorPage(check.status, check.message);
  if (check.kind === 'redirect') return redirect(check.location);
  const user = await webUser(deps, request);
  const back = `${PATHS.authorize}?${new URLSearchParams(AUTHORIZE_PARAMS.flatMap((k) => (form.has(k) ? [[k, form.get(k)!]] : [])))}`;
  if (!user) return errorPage(401, 'You are not signed in to Bindery any more; sign in and open the connection again.');
  if (!csrfOk(deps, request, user, form.get(CSRF_FIELD))) return oauthPage(consentExpiredView(back), 403);
  const req = check.request;
  const decision = form.get('decision');
  if (decision !== 'allow')
    return redirect(
      redirectWith(deps, req.redirectUri, { error: 'access_denied', error_description: 'the person declined', state: req.state }),
    );
  const now = deps.now();
  const code = newSecret('bdc');
  await insertOAuthCode(deps.db, {
    id: newId('ocd'),
    codeHash: await sha256Hex(code),
    clientId: req.client.id,
    userId: user.caller.id,
    redirectUri: req.redirectUri,
    codeChallenge: req.codeChallenge,
    resource: req.resource,
    scope: req.scope,
    createdAt: now,
    expiresAt: now + CODE_TTL_MS,
  });
  return redirect(redirectWith(deps, req.redirectUri, { code, state: req.state }));
});

/** Serves POST /authorize. */
export function handleAuthorizePost(deps: BinderyDeps, request: Request): Promise<Response> {
  return renderPage(authorizeAction, [deps, request], oauthPage);
}
