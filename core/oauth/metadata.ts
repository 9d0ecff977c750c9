import {
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { BinderyConfig } from '../config.ts';
import { issuer, mcpResource, PATHS } from './urls.ts';

/**
 * RFC 9728 metadata of the MCP endpoint. Served at the root well-known path and at the
 * path-suffixed one (`…/oauth-protected-resource/mcp`) that MCP clients try first; both describe
 * `<publicUrl>/mcp`. No scopes are advertised: a token acts as the person who allowed it, as a key does.
 */
export function protectedResourceMetadata(config: BinderyConfig): OAuthProtectedResourceMetadata {
  return OAuthProtectedResourceMetadataSchema.parse({
    resource: mcpResource(config),
    authorization_servers: [issuer(config)],
    bearer_methods_supported: ['header'],
    resource_name: 'Bindery',
    resource_documentation: `${config.publicUrl}/`,
  });
}

/** RFC 8414 metadata: authorization code + PKCE S256 only, public clients, dynamic registration. */
export function authorizationServerMetadata(config: BinderyConfig): OAuthMetadata {
  const base = config.publicUrl;
  return OAuthMetadataSchema.parse({
    issuer: issuer(config),
    authorization_endpoint: `${base}${PATHS.authorize}`,
    token_endpoint: `${base}${PATHS.token}`,
    registration_endpoint: `${base}${PATHS.register}`,
    revocation_endpoint: `${base}${PATHS.revoke}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/`,
  });
}
