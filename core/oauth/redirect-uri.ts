// Which redirect URIs a client may register: an allow rule, not a list of bad schemes. A scheme list
// cannot be complete: `microsoft-edge:https://…`, `googlechrome://…`, `intent://…`, `firefox:…` and
// others hand the rest of the URI to a browser, so a "native app" redirect would open any web page
// with the code in it. Allowed (RFC 8252, RFC 9700 §4.1):
//  - https;
//  - http only on a loopback address (§7.3: the app listens on a local port);
//  - a private-use scheme in reverse-domain form (§7.1: `com.example.app:/cb`), which names the app
//    that owns the domain, not a browser; PKCE keeps a code caught by another app useless;
//  - the app schemes of MCP clients that register a non-dotted one (KNOWN_APP_SCHEMES).

/** Longest redirect URI accepted (a native callback or a web app's path fits easily). */
export const MAX_REDIRECT_URI_LENGTH = 512;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** A reverse-domain scheme: two or more dot-separated labels, each starting with a letter. */
const REVERSE_DOMAIN = /^[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)+$/;

/** Single-word schemes of known MCP clients (IDEs, not browsers): Cursor registers `cursor://…`. */
const KNOWN_APP_SCHEMES = new Set(['cursor']);

/** Why a redirect URI is refused, or undefined when it may be registered. */
export function redirectUriProblem(value: string): string | undefined {
  if (value.length > MAX_REDIRECT_URI_LENGTH) return `longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not an absolute URL';
  }
  if (url.hash || value.includes('#')) return 'has a fragment (RFC 6749 §3.1.2)';
  if (url.username || url.password) return 'carries credentials';
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https') return undefined;
  if (scheme === 'http')
    return LOOPBACK.has(url.hostname) ? undefined : 'http is allowed only on a loopback address (127.0.0.1, [::1], localhost)';
  if (REVERSE_DOMAIN.test(scheme) || KNOWN_APP_SCHEMES.has(scheme)) return undefined;
  return `scheme "${scheme}:" is not allowed: use https, http on a loopback address, or an app's own reverse-domain scheme such as com.example.app: (RFC 8252 §7.1)`;
}

/** What the consent page says about where the person is sent afterwards. */
export function redirectTargetNote(value: string): string {
  const url = new URL(value);
  const scheme = url.protocol.slice(0, -1);
  if (scheme === 'https' || scheme === 'http') return `the web address ${url.host}`;
  return `the app that opens ${scheme}: links`;
}
