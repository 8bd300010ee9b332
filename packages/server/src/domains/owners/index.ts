// What the rest of the server may use of owner accounts: the HTTP layer authenticates session tokens
// and checks a staff account's areas; the CLI and the demo start create accounts.
export { authenticateOwnerSession, createAccount, siteHasOwner, OWNER_SESSION_PREFIX } from './service.js';
export { assertAccountMayCall, areaOfPath } from './areas.js';
export { OWNER_AREAS, OWNER_ROLES } from './model.js';
export type { OwnerArea, OwnerRole } from './model.js';
