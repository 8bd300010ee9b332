/** Orders settings (`@vitrine/sdk/ecom` -> `ordersSettings`), as the public `@wix/ecom` module. Elevated. */
import type * as wire from '@vitrine/types';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

export type OrdersSettings = FromWire<wire.OrdersSettings>;
const PATH = '/ecom/v1/orders-settings';
const DECODE = { dates: ['ordersSettings.createdDate', 'ordersSettings.updatedDate'] };

export const getOrdersSettings = defineMethod((client) =>
  client.request<{ ordersSettings: OrdersSettings }>({ method: 'GET', path: PATH, decode: DECODE }));

/** `inventoryUpdateTrigger`: ON_ORDER_PLACED (default) or ON_ORDER_PAID. */
export const updateOrdersSettings = defineMethod((client, ordersSettings: wire.OrdersSettingsInput) =>
  client.request<{ ordersSettings: OrdersSettings }>({ method: 'PATCH', path: PATH, payload: { ordersSettings }, decode: DECODE }));
