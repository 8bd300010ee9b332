/**
 * The site's API keys and OAuth clients (`@vitrine/sdk/owners` -> `credentials`), for Settings.
 * Owners, staff with the settings area, and API keys.
 */
import type { SiteApiKey as WireKey, SiteOAuthClient as WireClient, SiteOAuthClientInput } from '@vitrine/types/owners';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

export type SiteApiKey = FromWire<WireKey, 'createdDate' | 'revokedDate'>;
export type SiteOAuthClient = FromWire<WireClient>;
export type { SiteOAuthClientInput };

const P = '/_api/vitrine/owners/v1';
const KEY_DATES = ['createdDate', 'revokedDate'];

export const listApiKeys = defineMethod(async (client) =>
  (await client.request<{ apiKeys: SiteApiKey[] }>({ method: 'GET', path: `${P}/api-keys`, payload: {}, decode: { dates: KEY_DATES.map((d) => `apiKeys.${d}`) } })).apiKeys);

/** -> `{ apiKey, key }`: `key` is the secret itself, answered only here. */
export const createApiKey = defineMethod((client, name: string) =>
  client.request<{ apiKey: SiteApiKey; key: string }>({ method: 'POST', path: `${P}/api-keys`, payload: { name }, decode: { dates: KEY_DATES.map((d) => `apiKey.${d}`) } }));

export const revokeApiKey = defineMethod(async (client, _id: string) => {
  await client.request<object>({ method: 'DELETE', path: `${P}/api-keys/${encodeURIComponent(_id)}`, payload: {} });
});

export const listOAuthClients = defineMethod(async (client) =>
  (await client.request<{ clients: SiteOAuthClient[] }>({ method: 'GET', path: `${P}/oauth-clients`, payload: {}, decode: { dates: ['clients.createdDate'] } })).clients);

export const createOAuthClient = defineMethod(async (client, input: SiteOAuthClientInput) =>
  (await client.request<{ client: SiteOAuthClient }>({ method: 'POST', path: `${P}/oauth-clients`, payload: { client: input }, decode: { dates: ['client.createdDate'] } })).client);

export const deleteOAuthClient = defineMethod(async (client, _id: string) => {
  await client.request<object>({ method: 'DELETE', path: `${P}/oauth-clients/${encodeURIComponent(_id)}`, payload: {} });
});
