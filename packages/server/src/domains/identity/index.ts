// What other domains may use of identity: members drives identity status and token revocation.
export { deleteIdentity, setIdentityStatus } from './lifecycle.js';
export { revokeMemberTokens } from './service.js';
// Owner accounts (domains/owners) reuse the member password, TOTP and throttling rules, and manage
// the site's API keys and OAuth clients from the dashboard.
export { hashPassword, verifyPassword, verifyDummyPassword, passwordProblem, PASSWORD_MAX_LENGTH } from './passwords.js';
export { newTotpSecret, matchTotp } from './totp.js';
export { throttle } from './rate-limit.js';
export { hashSecret, randomToken } from './secrets.js';
export { createApiKey, listApiKeys, revokeApiKey, createOAuthClient, listOAuthClients, deleteOAuthClient } from './service.js';
export type { ApiKeyListing, OAuthClient } from './service.js';
export { onVisitorLogin } from './login-listeners.js';
export { loadRedirectSession } from './redirect-lookup.js';
