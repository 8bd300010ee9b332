/**
 * Orders (`@vitrine/sdk/ecom` -> `orders`), as the public `@wix/ecom` orders module: same call names
 * and argument order. Members read and search their own orders; everything else is elevated (an
 * `ApiKeyStrategy` client or `elevate(fn)`). The payments-collector calls live in the payments module.
 */
import type * as wire from '@vitrine/types';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

type D = 'createdDate' | 'updatedDate' | 'purchasedDate' | 'expirationDate';
export type Order = FromWire<wire.Order, D>;
export type OrderInput = FromWire<wire.OrderInput, D>;
export type OrderActivityInput = wire.OrderActivityInput;
export type OrderPatch = Omit<FromWire<wire.OrderPatch>, '_id'>;
export type LineItemPatch = Omit<FromWire<wire.OrderLineItemPatch>, '_id'>;
export type DraftChanges = FromWire<wire.OrderDraftChanges>;
export interface OrdersSearch { filter?: Record<string, unknown>; sort?: { fieldName: string; order?: 'ASC' | 'DESC' }[]; cursorPaging?: { limit?: number; cursor?: string } }
export interface SearchOrdersResponse { orders: Order[]; metadata: { count: number; cursors: { next?: string | null; prev?: string | null }; hasNext: boolean } }
export interface BulkOrderResult { itemMetadata: { _id?: string; originalIndex: number; success: boolean; error?: { code: string; description: string; data: Record<string, unknown> } }; item?: Order }
export interface BulkOrdersResponse { results: BulkOrderResult[]; bulkActionMetadata: wire.BulkActionMetadata }

const O = '/ecom/v1/orders';
const dates = (prefix: string) => ['createdDate', 'updatedDate', 'purchasedDate', 'activities.createdDate', 'lineItems.digitalFile.expirationDate'].map((f) => `${prefix}.${f}`);
const ORDER = { dates: dates('order') };
const ORDERS = { dates: dates('orders') };
const RESULTS = { dates: dates('results.item') };
const enc = encodeURIComponent;
type OrderAnswer = { order: Order };

/** `getOrder(_id)` -> the order (members: their own only). */
export const getOrder = defineMethod(async (client, _id: string) =>
  (await client.request<OrderAnswer>({ method: 'GET', path: `${O}/${enc(_id)}`, payload: { _id }, decode: ORDER })).order);

/** `searchOrders({ filter, sort, cursorPaging })` -> `{ orders, metadata }` (members: their own). */
export const searchOrders = defineMethod((client, search: OrdersSearch = {}) =>
  client.request<SearchOrdersResponse>({ method: 'POST', path: `${O}/search`, payload: { search }, decode: ORDERS }));

/** Elevated. Stock is taken (or held, ON_ORDER_PAID) as for a checkout's order. */
export const createOrder = defineMethod(async (client, order: OrderInput, options: { settings?: Record<string, unknown> } = {}) =>
  (await client.request<OrderAnswer>({ method: 'POST', path: O, payload: { order, ...options }, decode: ORDER })).order);

/** Elevated. `updateOrder(_id, { buyerNote, ... }, { fieldMask? })`. */
export const updateOrder = defineMethod(async (client, _id: string, order: OrderPatch, options: { fieldMask?: string[] } = {}) =>
  (await client.request<OrderAnswer>({ method: 'PATCH', path: `${O}/${enc(_id)}`, payload: { order: { ...order, _id }, ...(options.fieldMask ? { fieldMask: options.fieldMask.join(',') } : {}) }, decode: ORDER })).order);

/** Elevated. Each order on its own: `results` per item. */
export const bulkUpdateOrders = defineMethod((client, orders: { order: OrderPatch & { _id: string }; fieldMask?: string[] }[], options: { returnEntity?: boolean } = {}) =>
  client.request<BulkOrdersResponse>({
    method: 'POST', path: '/ecom/v1/bulk/orders/update', decode: RESULTS,
    payload: { orders: orders.map((o) => ({ order: o.order, ...(o.fieldMask ? { fieldMask: o.fieldMask.join(',') } : {}) })), ...options },
  }));

/** Elevated. Display details of one line item. */
export const updateOrderLineItem = defineMethod(async (client, _id: string, lineItem: LineItemPatch & { _id: string }) =>
  (await client.request<OrderAnswer>({ method: 'PATCH', path: `${O}/${enc(_id)}/line-item/${enc(lineItem._id)}`, payload: { _id, lineItem }, decode: ORDER })));

/** Elevated. A merchant comment or custom activity -> `{ order, activityId }`. */
export const addActivity = defineMethod((client, _id: string, activity: OrderActivityInput) =>
  client.request<{ order: Order; activityId: string }>({ method: 'POST', path: `${O}/${enc(_id)}/activities`, payload: { _id, activity }, decode: ORDER }));

/** Elevated. -> `{ order, activityIds }`. */
export const addActivities = defineMethod((client, orderId: string, options: { orderActivities: OrderActivityInput[] }) =>
  client.request<{ order: Order; activityIds: string[] }>({ method: 'POST', path: `${O}/${enc(orderId)}/activities/add`, payload: { orderId, ...options }, decode: ORDER }));

/** Elevated. Merchant comments and custom activities only. */
export const updateActivity = defineMethod((client, _id: string, activityId: string, activity: OrderActivityInput) =>
  client.request<OrderAnswer>({ method: 'PATCH', path: `${O}/${enc(_id)}/activities/${enc(activityId)}`, payload: { _id, activityId, activity }, decode: ORDER }));

export const deleteActivity = defineMethod((client, _id: string, activityId: string) =>
  client.request<OrderAnswer>({ method: 'DELETE', path: `${O}/${enc(_id)}/activities/${enc(activityId)}`, payload: { _id, activityId }, decode: ORDER }));

/** Elevated. Once per order (409 ORDER_ALREADY_CANCELED after). */
export const cancelOrder = defineMethod((client, _id: string, options: { sendOrderCanceledEmail?: boolean; customMessage?: string; restockAllItems?: boolean } = {}) =>
  client.request<OrderAnswer>({ method: 'POST', path: `${O}/${enc(_id)}/cancel`, payload: { _id, ...options }, decode: ORDER }));

/** Elevated. INITIALIZED -> PENDING -> APPROVED | REJECTED. */
export const updateOrderStatus = defineMethod((client, orderId: string, status: wire.OrderStatus) =>
  client.request<OrderAnswer>({ method: 'POST', path: `${O}/${enc(orderId)}/update-status`, payload: { orderId, status }, decode: ORDER }));

/** Elevated. Counts and exact totals per group -> `{ aggregates: { groups } }`. */
export const aggregateOrders = defineMethod((client, aggregation: wire.OrderAggregation, options: { filter?: Record<string, unknown> } = {}) =>
  client.request<{ aggregates: { groups: wire.OrderAggregateGroup[] } }>({ method: 'POST', path: `${O}/aggregate`, payload: { aggregation, ...options } }));

/** Elevated. */
export const bulkUpdateOrderTags = defineMethod((client, orderIds: string[], options: { assignTags?: wire.OrderTags; unassignTags?: wire.OrderTags } = {}) =>
  client.request<BulkOrdersResponse>({ method: 'POST', path: '/ecom/v1/bulk/orders/update-tags', payload: { orderIds, ...options } }));

/** Elevated. An order from another platform, as given (no stock change). */
export const importOrder = defineMethod((client, order: OrderInput) =>
  client.request<OrderAnswer>({ method: 'POST', path: `${O}/import`, payload: { order }, decode: ORDER }));

/** Elevated. The next order gets `counter + 1`. */
export const setOrderNumberCounter = defineMethod((client, counter: string, options: { allowLowerCounter?: boolean } = {}) =>
  client.request<{ oldCounter: string; newCounter: string }>({ method: 'POST', path: `${O}/import/set-order-number-counter`, payload: { counter, ...options } }));

/** Elevated. A background job -> `{ jobId }`. */
export const bulkDeleteImportedOrders = defineMethod((client, orderIds: string[]) =>
  client.request<{ jobId: string }>({ method: 'POST', path: `${O}/import/bulk-delete-imported-orders`, payload: { orderIds } }));

/** Elevated. Applies a draft's changes once (order edits). */
export const commitDeltas = defineMethod((client, _id: string, options: { draftOrderId: string; changes: DraftChanges; reason?: string }) =>
  client.request<OrderAnswer>({ method: 'POST', path: `${O}/${enc(_id)}/commit-deltas`, payload: { _id, ...options }, decode: ORDER }));

/**
 * Elevated. A dry run of `commitDeltas`: the order as the changes would leave it (lines, totals,
 * balance) and each line's quantity change; refusals are the same, and nothing is stored.
 */
export const previewDeltas = defineMethod((client, _id: string, changes: DraftChanges) =>
  client.request<OrderAnswer & { lineItemChanges: { lineItemId: string; quantityBefore: number; quantityAfter: number }[] }>({
    method: 'POST', path: `${O}/${enc(_id)}/preview-deltas`, payload: { _id, changes }, decode: ORDER,
  }));

// The payments collector calls of the public orders module (served by the payments domain).
export {
  captureAuthorizedPayments, chargeMemberships, getPaymentCollectabilityStatus, getRefundabilityStatus, paymentCollectionBulkMarkOrdersAsPaid,
  paymentCollectionCreatePaymentGatewayOrder, paymentCollectionMarkOrderAsPaid, preparePaymentCollection, recordManuallyCollectedPayment,
  triggerRefund, voidAuthorizedPayments,
} from './paymentsCollector.js';
