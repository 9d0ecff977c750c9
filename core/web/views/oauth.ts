import { html, htmlDocument, when, type Html } from '../html.ts';
import { CSRF_FIELD } from './layout.ts';

// The few OAuth pages (consent, sign-in needed, errors, grants; core/oauth/authorize.ts and grants.ts
// load them): the shared head and stylesheet, the body in a box, no script at all.

/** A whole OAuth page. */
export function oauthDocument(title: string, body: Html): Html {
  return htmlDocument(`${title} · Bindery`, 'oauth', html`<main class="box">${body}</main>`);
}

/** A hidden form field. */
const hidden = (name: string, value: string): Html => html`<input type="hidden" name="${name}" value="${value}">`;

/** An error page (used when redirecting back would go to a URI the client never registered). */
export function authErrorView(message: string): Html {
  return oauthDocument(
    'Authorization failed',
    html`<h1>This request cannot be authorized</h1><p>${message}</p><p class="meta">Nothing was shared. Return to the app that sent you here and try connecting again.</p>`,
  );
}

/** A consent form whose CSRF secret no longer holds: `back` opens the request again. */
export function consentExpiredView(back: string): Html {
  return oauthDocument(
    'Try again',
    html`<h1>That form has expired</h1><p><a href="${back}">Open the request again</a> and answer from there.</p>`,
  );
}

/** A revoke form without a session or its CSRF secret. */
export function grantsExpiredView(grantsPath: string): Html {
  return oauthDocument('Try again', html`<h1>That form has expired</h1><p><a href="${grantsPath}">Back to connected apps</a></p>`);
}

/** "Allow <client> to use Bindery as @handle?", with the request's parameters carried in hidden fields. */
export interface ConsentData {
  clientName: string;
  handle: string;
  resource: string;
  redirectUri: string;
  /** Where the person is sent afterwards, in words (redirectTargetNote). */
  redirectNote: string;
  /** The request's parameters and the CSRF secret, as [name, value] hidden fields, in order. */
  fields: [string, string][];
  authorizePath: string;
  grantsPath: string;
}

/** The consent page. */
export function consentView(d: ConsentData): Html {
  const body = html`<h1>Allow <span id="client-name">${d.clientName}</span> to use Bindery as <span id="handle">@${d.handle}</span>?</h1>
<p>It will be able to read and change everything you can in Bindery, through <code>${d.resource}</code>, until you revoke it.</p>
<p class="meta">The app named itself; Bindery has not verified the name. After you answer you are sent to ${d.redirectNote}, at <code id="redirect-target">${d.redirectUri}</code>. Revoke access any time at <a href="${d.grantsPath}">${d.grantsPath}</a>.</p>
<form method="post" action="${d.authorizePath}">${d.fields.map(([k, v]) => hidden(k, v))}
<button class="primary" type="submit" name="decision" value="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form>`;
  return oauthDocument(`Allow ${d.clientName}?`, body);
}

/** Not signed in: how to sign in, and the way back to this request. */
export interface SignInFirstData {
  clientName: string;
  back: string;
}

/** The "sign in first" page. */
export function signInFirstView(d: SignInFirstData): Html {
  const body = html`<h1>Sign in to Bindery first</h1>
<p><strong>${d.clientName}</strong> asks to use Bindery on your behalf. Bindery needs to know who you are before you can allow it.</p>
<ol><li>Open <a href="/" target="_blank" rel="noopener">Bindery</a> and sign in (with a login link from <code>bindery login-link --user &lt;handle&gt;</code>, or as your Bindery's operator tells you).</li>
<li>Then come back and <a href="${d.back}" id="continue">continue to the consent page</a>.</li></ol>`;
  return oauthDocument('Sign in', body);
}

/** The signed-in person's connected apps, each with a Revoke button. */
export interface GrantsData {
  handle: string;
  csrf: string;
  grantsPath: string;
  grants: { name: string; createdAt: number; familyId: string }[];
}

/** The connected-apps page. */
export function grantsView(d: GrantsData): Html {
  const rows = d.grants.map(
    (g) => html`<li><strong>${g.name}</strong> <span class="meta">since ${when(g.createdAt)} UTC</span>
<form method="post" action="${d.grantsPath}" class="inline">${hidden('family', g.familyId)}${hidden(CSRF_FIELD, d.csrf)}<button type="submit">Revoke</button></form></li>`,
  );
  const list = d.grants.length ? html`<ul>${rows}</ul>` : html`<p>No app is connected.</p>`;
  return oauthDocument('Connected apps', html`<p><a href="/">← Bindery</a></p><h1>Apps using Bindery as @${d.handle}</h1>${list}`);
}

/** The connected-apps page without a session. */
export function grantsSignInView(): Html {
  return oauthDocument(
    'Connected apps',
    html`<h1>Connected apps</h1><p><a href="/">Sign in to Bindery</a> to see the apps you allowed.</p>`,
  );
}

/** GET /authorize: the consent page for a signed-in person, else how to sign in first. */
export type AuthorizeData = ({ kind: 'consent' } & ConsentData) | ({ kind: 'sign-in' } & SignInFirstData);

/** GET /authorize: consent, or sign in first. */
export function authorizeView(d: AuthorizeData): Html {
  return d.kind === 'consent' ? consentView(d) : signInFirstView(d);
}
