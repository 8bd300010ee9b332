import { z } from 'zod';
import { publicRoute, route, type RouteDef } from '../../http/route.js';
import {
  activateTotp, addAccount, changeAccount, changePassword, createSiteApiKey, createSiteOAuthClient, deleteSiteOAuthClient, disableTotp,
  enrollTotp, getMe, listMySessions, listSiteAccounts, listSiteApiKeys, listSiteOAuthClients, removeAccount, revokeMySession,
  revokeSiteApiKey, signIn, signOut,
} from './service.js';
import {
  changePasswordRequest, createAccountRequest, createApiKeyRequest, createOAuthClientRequest, idRequest, passwordRequest, signInRequest,
  totpCodeRequest, updateAccountRequest, updateSiteDetailsRequest,
} from './schema.js';
import { getSiteDetails, updateSiteDetails } from './site-settings.js';
import { presentAccount, presentApiKey, presentOAuthClient, presentSession, signInAnswer } from './present.js';

const tag = 'Owner accounts';
const P = '/_api/vitrine/owners/v1';
/** Site settings sit under the settings area's own prefix (areas.ts), so staff with `settings` may edit them. */
const SETTINGS = '/_api/vitrine/settings/v1';
const none = z.object({});

/**
 * Owner and staff accounts (docs/dashboard.md): password sign-in to a session token, the signed-in
 * account's own sessions and TOTP, staff management, and the site's API keys and OAuth clients.
 */
export const ownersRoutes: RouteDef[] = [
  publicRoute({
    method: 'POST', path: `${P}/sign-in`, tag,
    summary: 'Sign in with e-mail and password (and TOTP code when enabled); answers a session token',
    request: signInRequest,
    handler: async (ctx, input) => signInAnswer(await signIn(ctx, input)),
  }),
  route({
    method: 'POST', path: `${P}/me/sign-out`, access: 'elevated', tag,
    summary: 'End the current session',
    request: none,
    handler: async (ctx) => { await signOut(ctx); return {}; },
  }),
  route({
    method: 'GET', path: `${P}/me`, access: 'elevated', tag,
    summary: 'The signed-in account',
    request: none,
    handler: async (ctx) => ({ account: presentAccount((await getMe(ctx)).account) }),
  }),
  route({
    method: 'GET', path: `${P}/me/sessions`, access: 'elevated', tag,
    summary: 'Live sessions of the signed-in account, newest first',
    request: none,
    handler: async (ctx) => {
      const { sessionId } = await getMe(ctx);
      return { sessions: (await listMySessions(ctx)).map((s) => presentSession(s, sessionId)) };
    },
  }),
  route({
    method: 'DELETE', path: `${P}/me/sessions/:id`, access: 'elevated', tag,
    summary: 'Revoke one session of the signed-in account',
    request: idRequest,
    handler: async (ctx, input) => { await revokeMySession(ctx, input.id); return {}; },
  }),
  route({
    method: 'POST', path: `${P}/me/password`, access: 'elevated', tag,
    summary: 'Change the password (current one required); every other session ends',
    request: changePasswordRequest,
    handler: async (ctx, input) => { await changePassword(ctx, input.currentPassword, input.newPassword); return {}; },
  }),
  route({
    method: 'POST', path: `${P}/me/totp/enroll`, access: 'elevated', tag,
    summary: 'Start TOTP enrolment: a secret and otpauth URI to add to an authenticator app',
    request: none,
    handler: (ctx) => enrollTotp(ctx),
  }),
  route({
    method: 'POST', path: `${P}/me/totp/activate`, access: 'elevated', tag,
    summary: 'Turn TOTP on with a code from the enrolled secret',
    request: totpCodeRequest,
    handler: async (ctx, input) => { await activateTotp(ctx, input.code); return {}; },
  }),
  route({
    method: 'POST', path: `${P}/me/totp/disable`, access: 'elevated', tag,
    summary: 'Turn TOTP off (password required)',
    request: passwordRequest,
    handler: async (ctx, input) => { await disableTotp(ctx, input.password); return {}; },
  }),
  route({
    method: 'GET', path: `${P}/accounts`, access: 'elevated', tag,
    summary: 'Owner and staff accounts of the site (owners only)',
    request: none,
    handler: async (ctx) => ({ accounts: (await listSiteAccounts(ctx)).map(presentAccount) }),
  }),
  route({
    method: 'POST', path: `${P}/accounts`, access: 'elevated', tag,
    summary: 'Add an owner or staff account (owners only)',
    request: createAccountRequest,
    handler: async (ctx, input) => ({ account: presentAccount(await addAccount(ctx, input.account)) }),
  }),
  route({
    method: 'PATCH', path: `${P}/accounts/:id`, access: 'elevated', tag,
    summary: 'Change an account\'s name, role or areas (owners only)',
    request: updateAccountRequest,
    handler: async (ctx, input) => ({ account: presentAccount(await changeAccount(ctx, input.id, input.account)) }),
  }),
  route({
    method: 'DELETE', path: `${P}/accounts/:id`, access: 'elevated', tag,
    summary: 'Delete an account and end its sessions (owners only; never the last owner)',
    request: idRequest,
    handler: async (ctx, input) => { await removeAccount(ctx, input.id); return {}; },
  }),
  route({
    method: 'GET', path: `${P}/api-keys`, access: 'elevated', tag,
    summary: 'API keys of the site, newest first (never the keys themselves)',
    request: none,
    handler: async (ctx) => ({ apiKeys: (await listSiteApiKeys(ctx)).map(presentApiKey) }),
  }),
  route({
    method: 'POST', path: `${P}/api-keys`, access: 'elevated', tag,
    summary: 'Create an API key; the key is answered once',
    request: createApiKeyRequest,
    handler: async (ctx, input) => {
      const created = await createSiteApiKey(ctx, input.name);
      return { apiKey: presentApiKey(created.key), key: created.apiKey };
    },
  }),
  route({
    method: 'DELETE', path: `${P}/api-keys/:id`, access: 'elevated', tag,
    summary: 'Revoke an API key',
    request: idRequest,
    handler: async (ctx, input) => { await revokeSiteApiKey(ctx, input.id); return {}; },
  }),
  route({
    method: 'GET', path: `${P}/oauth-clients`, access: 'elevated', tag,
    summary: 'OAuth clients of the site with their redirect URIs',
    request: none,
    handler: async (ctx) => ({ clients: (await listSiteOAuthClients(ctx)).map(presentOAuthClient) }),
  }),
  route({
    method: 'POST', path: `${P}/oauth-clients`, access: 'elevated', tag,
    summary: 'Create an OAuth client (its id is the public client id)',
    request: createOAuthClientRequest,
    handler: async (ctx, input) => ({ client: presentOAuthClient(await createSiteOAuthClient(ctx, input.client)) }),
  }),
  route({
    method: 'DELETE', path: `${P}/oauth-clients/:id`, access: 'elevated', tag,
    summary: 'Delete an OAuth client',
    request: idRequest,
    handler: async (ctx, input) => { await deleteSiteOAuthClient(ctx, input.id); return {}; },
  }),
  route({
    method: 'GET', path: `${SETTINGS}/site`, access: 'elevated', tag: 'Site settings',
    summary: "The store's details and member sign-up rules (verification, approval, captcha)",
    request: none,
    handler: async (ctx) => ({ site: await getSiteDetails(ctx) }),
  }),
  route({
    method: 'PATCH', path: `${SETTINGS}/site`, access: 'elevated', tag: 'Site settings',
    summary: "Change the store's name, notice e-mail and member sign-up rules (fields given only)",
    request: updateSiteDetailsRequest,
    handler: async (ctx, input) => ({ site: await updateSiteDetails(ctx, input.site) }),
  }),
];
