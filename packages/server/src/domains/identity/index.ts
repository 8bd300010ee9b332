// What other domains may use of identity: members drives identity status and token revocation.
export { deleteIdentity, setIdentityStatus } from './lifecycle.js';
export { revokeMemberTokens } from './service.js';
export { onVisitorLogin } from './login-listeners.js';
