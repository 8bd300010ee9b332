/**
 * `@vitrine/sdk/ecom` -> `abandonedCheckouts`: checkouts their buyers left idle, as the public module
 * names them. Every call but `redirectToCheckout` is elevated (an API-key client or `elevate(fn)`).
 */
import type * as wire from '@vitrine/types/ecom-aftercare';
import { defineMethod } from '../../define.js';
import { cursorQuery, type CursorQueryBuilder } from '../../query/cursor.js';
import type { FromWire } from '../../wire-types.js';

type Dates = 'createdDate' | 'updatedDate' | 'checkoutRecoveredDate';
export type AbandonedCheckout = FromWire<wire.AbandonedCheckout, Dates>;
export type ActivityType = wire.AbandonedCheckoutActivityType;
export type Metric = wire.AbandonedCheckoutMetric;
export type Status = wire.AbandonedCheckoutStatus;
export type AnalyticsResponse = wire.GetAbandonedCheckoutAnalyticsResponse;
export type BulkDeleteResponse = FromWire<wire.BulkDeleteAbandonedCheckoutsResponse>;
export type Search = wire.AbandonedCheckoutSearch;
export type AbandonedCheckoutField = '_id' | 'checkoutId' | 'cartId' | 'status' | '_createdDate' | '_updatedDate' | 'checkoutRecoveredDate' | 'currency'
  | 'buyerInfo.email' | 'buyerInfo.memberId' | 'buyerInfo.visitorId' | 'buyerInfo.contactId' | 'contactDetails.firstName' | 'contactDetails.lastName';

const datesAt = (root: string) => ({ dates: [`${root}.createdDate`, `${root}.updatedDate`, `${root}.checkoutRecoveredDate`, `${root}.activities.createdDate`] });
const path = (id: string) => `/ecom/v1/abandoned-checkout/${encodeURIComponent(id)}`;
const ID_ARG = { abandonedCheckoutId: 'abandonedCheckoutId' };

/** Elevated: the abandoned checkout itself. */
export const getAbandonedCheckout = defineMethod(async (client, abandonedCheckoutId: string) =>
  (await client.request<{ abandonedCheckout: AbandonedCheckout }>({
    method: 'GET', path: path(abandonedCheckoutId), payload: { abandonedCheckoutId }, decode: datesAt('abandonedCheckout'), argumentFields: ID_ARG,
  })).abandonedCheckout);

/** Elevated. */
export const deleteAbandonedCheckout = defineMethod(async (client, abandonedCheckoutId: string): Promise<void> => {
  await client.request({ method: 'DELETE', path: path(abandonedCheckoutId), payload: { abandonedCheckoutId }, argumentFields: ID_ARG });
});

/** Elevated: up to 100 ids -> per-item `results` and `bulkActionMetadata`. */
export const bulkDeleteAbandonedCheckouts = defineMethod((client, abandonedCheckoutIds: string[]) =>
  client.request<BulkDeleteResponse>({ method: 'POST', path: '/ecom/v1/bulk/abandoned-checkout/delete', payload: { abandonedCheckoutIds } }));

/** Elevated: `queryAbandonedCheckouts().eq('status', 'ABANDONED').limit(20).find()` (cursor paging). */
export const queryAbandonedCheckouts = defineMethod((client): CursorQueryBuilder<AbandonedCheckout, AbandonedCheckoutField> =>
  cursorQuery<AbandonedCheckout, AbandonedCheckoutField>(async (query) => {
    const res = await client.request<{ abandonedCheckouts?: AbandonedCheckout[]; metadata?: { cursors?: { next?: string | null; prev?: string | null } } }>({
      method: 'POST', path: '/ecom/v1/abandoned-checkout/query', payload: { query }, decode: datesAt('abandonedCheckouts'),
    });
    return { items: res.abandonedCheckouts ?? [], cursors: res.metadata?.cursors };
  }));

/** Elevated: filter, sort, paging and a free-text `search` over e-mail and names -> `{ abandonedCheckouts, pagingMetadata }`. */
export const searchAbandonedCheckouts = defineMethod((client, search: Search) =>
  client.request<{ abandonedCheckouts: AbandonedCheckout[]; pagingMetadata: wire.SearchAbandonedCheckoutsResponse['pagingMetadata'] }>({
    method: 'POST', path: '/ecom/v1/abandoned-checkout/search', payload: { search }, decode: datesAt('abandonedCheckouts'),
  }));

/** Elevated: appends an activity (e.g. `EMAIL_SENT`) -> `{ abandonedCheckout }`. */
export const addAbandonedCheckoutActivity = defineMethod((client, abandonedCheckoutId: string, options: { activityType?: ActivityType } = {}) =>
  client.request<{ abandonedCheckout: AbandonedCheckout }>({
    method: 'POST', path: `/ecom/v1/abandoned-checkouts/${encodeURIComponent(abandonedCheckoutId)}/add-activity`,
    payload: { abandonedCheckoutId, ...options }, decode: datesAt('abandonedCheckout'), argumentFields: ID_ARG,
  }));

/** Elevated: recoverable versus recovered checkouts abandoned between `startDate` and `options.endDate` (ISO text). */
export const getAbandonedCheckoutAnalytics = defineMethod((client, startDate: string, options: { endDate: string; metrics?: Metric[]; statuses?: Status[] }) =>
  client.request<AnalyticsResponse>({ method: 'POST', path: '/ecom/v1/abandoned-checkout/get-analytics', payload: { startDate, ...options } }));

/** The recovery link as data: `statusCode` 302 and the hosted checkout page in the `Location` header (`body` as bytes). */
export const redirectToCheckout = defineMethod(async (client, abandonedCheckoutId: string, metasiteId: string) => {
  const res = await client.request<wire.RedirectToCheckoutResponse>({
    method: 'GET', path: `${path(abandonedCheckoutId)}/redirect-to-checkout`, payload: { abandonedCheckoutId, metasiteId }, argumentFields: ID_ARG,
  });
  return { ...res, body: Uint8Array.from(atob(res.body), (c) => c.charCodeAt(0)) };
});
