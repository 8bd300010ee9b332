/**
 * `@vitrine/sdk/owners`: Vitrine's own owner APIs (no platform counterpart) - password sign-in of
 * owner and staff accounts, staff management, the site's API keys and OAuth clients, site settings.
 * `import { account, staff, credentials } from '@vitrine/sdk/owners'`.
 */
export * as account from './account.js';
export * as staff from './staff.js';
export * as credentials from './credentials.js';
export * as site from './site.js';
