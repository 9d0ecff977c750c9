import type { BinderyConfig } from '../config.ts';

// Where everything lives, derived from BINDERY_PUBLIC_URL: this one server is both the protected
// resource (RFC 9728) and its authorization server (RFC 8414), so the issuer is the public URL.

/** The resource indicator (RFC 8707) every token is bound to: the MCP endpoint a client pastes. */
export const mcpResource = (config: Pick<BinderyConfig, 'publicUrl'>): string => `${config.publicUrl}/mcp`;

/** The issuer: the public URL itself (no path, so clients find /.well-known/oauth-authorization-server at the root). */
export const issuer = (config: Pick<BinderyConfig, 'publicUrl'>): string => config.publicUrl;

/** What a 401 from /mcp names in `WWW-Authenticate: Bearer resource_metadata="…"`. */
export const resourceMetadataUrl = (config: Pick<BinderyConfig, 'publicUrl'>): string =>
  `${config.publicUrl}/.well-known/oauth-protected-resource`;

export const PATHS = {
  protectedResource: '/.well-known/oauth-protected-resource',
  protectedResourceMcp: '/.well-known/oauth-protected-resource/mcp',
  authorizationServer: '/.well-known/oauth-authorization-server',
  register: '/register',
  authorize: '/authorize',
  token: '/token',
  revoke: '/revoke',
  grants: '/oauth/grants',
} as const;

/** Whether a path belongs to the OAuth surface (routed before everything else). */
export function isOAuthPath(path: string): boolean {
  return (Object.values(PATHS) as string[]).includes(path);
}
