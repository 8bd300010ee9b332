/**
 * Inventory V1 (`@vitrine/sdk/stores` -> `inventory`), as the public `@wix/stores` inventory module: one
 * inventory item per product listing its variants' stock. Decrement takes every line or none (409
 * `INSUFFICIENT_STOCK`). Writes are elevated.
 */
import { defineMethod } from '../../define.js';

export interface InventoryItem {
  _id: string; externalId: string; productId: string; trackQuantity: boolean;
  variants: { variantId: string; inStock: boolean; quantity?: number; availableForPreorder: boolean }[];
  lastUpdated: Date; numericId: string; preorderInfo: { enabled: boolean; message?: string; limit?: number };
}
export interface StockChange { inventoryId?: string; externalId?: string; productId?: string; variantId?: string }

const DECODE = { dates: ['inventoryItems.lastUpdated', 'inventoryItem.lastUpdated'] };

/** `inventory.queryInventory({ query: { filter, paging } })` */
export const queryInventory = defineMethod((client, options: { query?: { filter?: Record<string, unknown> | string; paging?: { limit?: number; offset?: number } } } = {}) =>
  client.request<{ inventoryItems: InventoryItem[]; metadata: { items: number; offset: number }; totalResults: number }>({ method: 'POST', path: '/stores-reader/v2/inventoryItems/query', payload: { query: options.query ?? {} }, decode: DECODE }));

/** `inventory.getInventoryVariants(inventoryId, { productId?, variantIds? })` -> `{ inventoryItem }` */
export const getInventoryVariants = defineMethod((client, inventoryId: string, options: { externalId?: string; productId?: string; variantIds?: string[] } = {}) =>
  client.request<{ inventoryItem: InventoryItem }>({ method: 'POST', path: `/stores-reader/v2/inventoryItems/${encodeURIComponent(inventoryId)}/getVariants`, payload: { inventoryId, ...options }, decode: DECODE }));

/** Elevated. Tracking, quantities, in-stock flags and preorder of one product's variants. */
export const updateInventoryVariants = defineMethod((client, productId: string, inventoryItem: { trackQuantity?: boolean; variants?: { variantId: string; inStock?: boolean; quantity?: number }[]; preorderInfo?: { enabled?: boolean; message?: string; limit?: number } }) =>
  client.request<Record<string, never>>({ method: 'PATCH', path: `/stores/v2/inventoryItems/product/${encodeURIComponent(productId)}`, payload: { inventoryItemProductId: productId, inventoryItem } }));

/** Elevated. All lines or none. */
export const decrementInventory = defineMethod((client, decrementData: (StockChange & { decrementBy: number; preorderRequest?: boolean })[]) =>
  client.request<Record<string, never>>({ method: 'POST', path: '/stores/v2/inventoryItems/decrement', payload: { decrementData } }));

/** Elevated. */
export const incrementInventory = defineMethod((client, incrementData: (StockChange & { incrementBy: number })[]) =>
  client.request<Record<string, never>>({ method: 'POST', path: '/stores/v2/inventoryItems/increment', payload: { incrementData } }));
