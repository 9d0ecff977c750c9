import { insertOAuthCode } from '../services/oauth.ts';
import type { BinderyDeps } from '../context.ts';
import { newId, sha256Hex } from '../ids.ts';
import { csrfOk, CSRF_FIELD, webUser } from '../web/session.ts';
import { AUTHORIZE_PARAMS, checkAuthorizeRequest, redirect, redirectWith, type AuthorizeRequest } from './authorize-request.ts';
import { errorPage, hidden, htmlPage } from './html.ts';
import { html } from '../web/html.ts';
import { CODE_TTL_MS, newSecret } from './tokens.ts';
import { redirectTargetNote } from './redirect-uri.ts';
import { PATHS } from './urls.ts';
import { readForm } from './wire.ts';

// /authorize: the consent step. The person is whoever is signed in to the web app (core/web/session.ts);
// not signed in, the page says how to sign in and links back here. Signed in, it asks "Allow <client>
// to use Bindery as @handle?"; the answer is a POST carrying the session's CSRF secret (csrfOk), and
// every parameter is checked again on the POST, since the form is only as trustworthy as its sender.

/** GET /authorize: check the request, then the sign-in or consent page. */
export async function handleAuthorizeGet(deps: BinderyDeps, request: Request, url: URL): Promise<Response> {
  const check = await checkAuthorizeRequest(deps, url.searchParams);
  if (check.kind === 'page') return errorPage(check.status, check.message);
  if (check.kind === 'redirect') return redirect(check.location);
  const user = await webUser(deps, request);
  if (!user) return signInPage(deps, url, check.request);
  return consentPage(check.request, user.caller.handle, user.csrf);
}

/** POST /authorize: the person's Allow or Deny. */
export async function handleAuthorizePost(deps: BinderyDeps, request: Request): Promise<Response> {
  const form = await readForm(request);
  if ('error' in form) return errorPage(400, 'The form could not be read.');
  const check = await checkAuthorizeRequest(deps, form);
  if (check.kind === 'page') return errorPage(check.status, check.message);
  if (check.kind === 'redirect') return redirect(check.location);
  const user = await webUser(deps, request);
  const back = `${PATHS.authorize}?${new URLSearchParams(AUTHORIZE_PARAMS.flatMap((k) => (form.has(k) ? [[k, form.get(k)!]] : [])))}`;
  if (!user) return errorPage(401, 'You are not signed in to Bindery any more; sign in and open the connection again.');
  if (!csrfOk(deps, request, user, form.get(CSRF_FIELD))) {
    return htmlPage(
      'Try again',
      html`<h1>That form has expired</h1><p><a href="${back}">Open the request again</a> and answer from there.</p>`,
      403,
    );
  }
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
}

function consentPage(req: AuthorizeRequest, handle: string, csrf: string): Response {
  const fields = [
    hidden('client_id', req.client.id),
    hidden('redirect_uri', req.redirectUri),
    hidden('response_type', 'code'),
    hidden('code_challenge', req.codeChallenge),
    hidden('code_challenge_method', 'S256'),
    hidden('resource', req.resource),
    req.scope !== null ? hidden('scope', req.scope) : '',
    req.state !== null ? hidden('state', req.state) : '',
    hidden(CSRF_FIELD, csrf),
  ];
  const body = html`<h1>Allow <span id="client-name">${req.clientName}</span> to use Bindery as <span id="handle">@${handle}</span>?</h1>
<p>It will be able to read and change everything you can in Bindery, through <code>${req.resource}</code>, until you revoke it.</p>
<p class="meta">The app named itself; Bindery has not verified the name. After you answer you are sent to ${redirectTargetNote(req.redirectUri)}, at <code id="redirect-target">${req.redirectUri}</code>. Revoke access any time at <a href="${PATHS.grants}">${PATHS.grants}</a>.</p>
<form method="post" action="${PATHS.authorize}">${fields}
<button class="primary" type="submit" name="decision" value="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form>`;
  return htmlPage(`Allow ${req.clientName}?`, body);
}

function signInPage(deps: BinderyDeps, url: URL, req: AuthorizeRequest): Response {
  const back = `${deps.config.publicUrl}${PATHS.authorize}${url.search}`;
  const body = html`<h1>Sign in to Bindery first</h1>
<p><strong>${req.clientName}</strong> asks to use Bindery on your behalf. Bindery needs to know who you are before you can allow it.</p>
<ol><li>Open <a href="/" target="_blank" rel="noopener">Bindery</a> and sign in (with a login link from <code>bindery login-link --user &lt;handle&gt;</code>, or as your Bindery's operator tells you).</li>
<li>Then come back and <a href="${back}" id="continue">continue to the consent page</a>.</li></ol>`;
  return htmlPage('Sign in', body);
}
