/**
 * Order fulfillments (`@vitrine/sdk/ecom` -> `orderFulfillments`), as the public `@wix/ecom`
 * orderFulfillments module. Elevated.
 */
import type * as wire from '@vitrine/types';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

export type Fulfillment = FromWire<wire.Fulfillment>;
export type FulfillmentInput = FromWire<wire.FulfillmentInput>;
export type OrderWithFulfillments = FromWire<wire.OrderWithFulfillments>;

const F = '/ecom/v1/fulfillments';
const enc = encodeURIComponent;
const ONE = { dates: ['orderWithFulfillments.fulfillments.createdDate'] };
const MANY = { dates: ['ordersWithFulfillments.fulfillments.createdDate'] };

export const listFulfillmentsForSingleOrder = defineMethod((client, orderId: string) =>
  client.request<{ orderWithFulfillments: OrderWithFulfillments }>({ method: 'GET', path: `${F}/orders/${enc(orderId)}`, payload: { orderId }, decode: ONE }));

export const listFulfillmentsForMultipleOrders = defineMethod((client, orderIds: string[]) =>
  client.request<{ ordersWithFulfillments: OrderWithFulfillments[] }>({ method: 'POST', path: `${F}/list-by-ids`, payload: { orderIds }, decode: MANY }));

/** Units beyond what is left to fulfill are 409 FULFILLMENT_QUANTITY_EXCEEDED. */
export const createFulfillment = defineMethod((client, orderId: string, fulfillment: FulfillmentInput) =>
  client.request<{ orderWithFulfillments: OrderWithFulfillments; fulfillmentId: string }>({ method: 'POST', path: `${F}/orders/${enc(orderId)}/create-fulfillment`, payload: { orderId, fulfillment }, decode: ONE }));

export const updateFulfillment = defineMethod((client, identifiers: { orderId: string; fulfillmentId: string }, fulfillment: FulfillmentInput) =>
  client.request<{ orderWithFulfillments: OrderWithFulfillments }>({
    method: 'PATCH', path: `${F}/${enc(identifiers.fulfillmentId)}/orders/${enc(identifiers.orderId)}`, payload: { ...identifiers, fulfillment }, decode: ONE,
  }));

export const deleteFulfillment = defineMethod((client, identifiers: { orderId: string; fulfillmentId: string }) =>
  client.request<{ orderWithFulfillments: OrderWithFulfillments }>({ method: 'DELETE', path: `${F}/${enc(identifiers.fulfillmentId)}/orders/${enc(identifiers.orderId)}`, payload: identifiers, decode: ONE }));

export const bulkCreateFulfillments = defineMethod((client, ordersWithFulfillments: { orderId: string; fulfillments: FulfillmentInput[] }[]) =>
  client.request<{ results: { itemMetadata: { _id?: string; originalIndex: number; success: boolean }; ordersWithFulfillments?: OrderWithFulfillments }[]; bulkActionMetadata: wire.BulkActionMetadata }>({
    method: 'POST', path: `${F}/orders/bulk/create-fulfillments`, payload: { ordersWithFulfillments },
  }));
