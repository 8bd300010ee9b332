/** Owner and staff accounts of the site (`@vitrine/sdk/owners` -> `staff`); owners and API keys only. */
import type { OwnerAccountInput, OwnerAccountUpdate } from '@vitrine/types/owners';
import { defineMethod } from '../../define.js';
import type { OwnerAccount } from './account.js';

export type { OwnerAccountInput, OwnerAccountUpdate };
/** The areas a staff account can be granted. */
export const OWNER_AREAS = ['catalog', 'orders', 'members', 'data', 'settings'] as const;

const P = '/_api/vitrine/owners/v1/accounts';
const DATES = ['createdDate', 'updatedDate'];

export const listAccounts = defineMethod(async (client) =>
  (await client.request<{ accounts: OwnerAccount[] }>({ method: 'GET', path: P, payload: {}, decode: { dates: DATES.map((d) => `accounts.${d}`) } })).accounts);

/** -> the new account (409 OWNER_EMAIL_TAKEN; weak passwords are field violations). */
export const createAccount = defineMethod(async (client, account: OwnerAccountInput) =>
  (await client.request<{ account: OwnerAccount }>({ method: 'POST', path: P, payload: { account }, decode: { dates: DATES.map((d) => `account.${d}`) } })).account);

/** Name, role, areas (400 LAST_OWNER when it would leave the site without an owner). */
export const updateAccount = defineMethod(async (client, _id: string, account: OwnerAccountUpdate) =>
  (await client.request<{ account: OwnerAccount }>({ method: 'PATCH', path: `${P}/${encodeURIComponent(_id)}`, payload: { account }, decode: { dates: DATES.map((d) => `account.${d}`) } })).account);

export const deleteAccount = defineMethod(async (client, _id: string) => {
  await client.request<object>({ method: 'DELETE', path: `${P}/${encodeURIComponent(_id)}`, payload: {} });
});
