/**
 * `@vitrine/sdk/ecom` -> `backInStockNotifications`: shoppers ask to be e-mailed when an item is back;
 * the owner reads and manages the requests. Only `createBackInStockNotificationRequest` is open to
 * visitors and members; the rest is elevated.
 */
import type * as wire from '@vitrine/types/ecom-aftercare';
import { defineMethod } from '../../define.js';
import { cursorQuery, type CursorQueryBuilder } from '../../query/cursor.js';
import type { FromWire } from '../../wire-types.js';

export type BackInStockNotificationRequest = FromWire<wire.BackInStockNotificationRequest, 'createdDate'>;
export type CatalogReference = wire.AftercareCatalogReference;
export type ItemDetails = wire.BackInStockItemDetails;
export type Status = wire.BackInStockRequestStatus;
export type RequestField = '_id' | 'email' | 'status' | 'contactId' | 'autoNotified' | '_createdDate'
  | 'catalogReference.appId' | 'catalogReference.catalogItemId' | 'catalogReference.options.variantId';

const BASE = '/back-in-stock-service/v1/back-in-stock-notification-requests';
const ONE = { dates: ['request.createdDate'] };
const ID_ARG = { id: '_id' };

/** Anyone: asks for an e-mail when the item is back -> the request (asking twice changes nothing). */
export const createBackInStockNotificationRequest = defineMethod(async (client, request: { catalogReference: CatalogReference; email: string; itemUrl?: string | null }, itemDetails: ItemDetails) =>
  (await client.request<{ request: BackInStockNotificationRequest }>({ method: 'POST', path: BASE, payload: { request, itemDetails }, decode: ONE })).request);

/** Elevated. */
export const getBackInStockNotificationRequest = defineMethod(async (client, _id: string) =>
  (await client.request<{ request: BackInStockNotificationRequest }>({ method: 'GET', path: `${BASE}/${encodeURIComponent(_id)}`, payload: { _id }, decode: ONE, argumentFields: ID_ARG })).request);

/** Elevated. */
export const deleteBackInStockNotificationRequest = defineMethod(async (client, _id: string): Promise<void> => {
  await client.request({ method: 'DELETE', path: `${BASE}/${encodeURIComponent(_id)}`, payload: { _id }, argumentFields: ID_ARG });
});

/** Elevated: the person was told another way; the request will not be mailed -> `{ request }`. */
export const markAsNotificationSent = defineMethod((client, _id: string) =>
  client.request<{ request: BackInStockNotificationRequest }>({
    method: 'PUT', path: `${BASE}/${encodeURIComponent(_id)}/mark-as-notification-sent`, payload: { _id }, decode: ONE, argumentFields: ID_ARG,
  }));

/** Elevated: `queryBackInStockNotificationRequests().eq('status', 'RECEIVED').find()` (cursor paging). */
export const queryBackInStockNotificationRequests = defineMethod((client): CursorQueryBuilder<BackInStockNotificationRequest, RequestField> =>
  cursorQuery<BackInStockNotificationRequest, RequestField>(async (query) => {
    const res = await client.request<{ requests?: BackInStockNotificationRequest[]; metadata?: { cursors?: { next?: string | null; prev?: string | null } } }>({
      method: 'GET', path: BASE, payload: { query }, decode: { dates: ['requests.createdDate'] },
    });
    return { items: res.requests ?? [], cursors: res.metadata?.cursors };
  }));

/** Elevated: waiting requests per catalog reference -> `{ countsPerCatalogReference }`. */
export const getBackInStockNotificationRequestsCountByCatalogReferences = defineMethod((client, catalogReferences: CatalogReference[]) =>
  client.request<wire.CountBackInStockRequestsByCatalogReferencesResponse>({ method: 'GET', path: `${BASE}/count-by-catalog-reference`, payload: { catalogReferences } }));

/** Elevated: mails the waiting requests of `options.catalogReference` (or `options.requestIds`) now. */
export const reportItemsBackInStock = defineMethod(async (client, itemDetails: ItemDetails, options: Omit<wire.ReportItemsBackInStockRequest, 'itemDetails'> = {}): Promise<void> => {
  await client.request({ method: 'POST', path: `${BASE}/report-items-back-in-stock`, payload: { itemDetails, ...options } });
});
