// OAuth's stored steps, as core/oauth's handlers take them: clients, codes, tokens and grants. The
// rules stay with the handlers (a client's redirect URIs, PKCE, the resource a token is bound to, one
// use of a code, refresh rotation, a user revoking only their own grants); this door adds none.
// Re-exported by name so the handlers' imports point here while their pages are being rewritten.
export {
  consumeOAuthCode,
  findOAuthCode,
  findOAuthToken,
  getOAuthClient,
  insertOAuthClientCapped,
  insertOAuthCode,
  insertOAuthTokens,
  listOAuthGrants,
  liveAccessToken,
  pruneStaleOAuthClients,
  redeemOAuthCode,
  revokeOAuthFamily,
  revokeOAuthToken,
  revokeUserOAuthFamily,
  rotateOAuthRefresh,
  type OAuthClientRow,
} from '../../db/store/oauth.ts';
