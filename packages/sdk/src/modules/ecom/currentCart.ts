/**
 * The caller's current cart (`@vitrine/sdk/ecom` -> `currentCart`), with the public `@wix/ecom`
 * currentCart module's call names and argument order. Lines are priced by the server from the
 * catalog; custom lines and merchant discounts are for elevated (owner) clients only.
 */
import type * as wire from '@vitrine/types/ecom-cart';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

export type Cart = FromWire<wire.Cart>;
export type LineItem = FromWire<wire.CartLineItem>;
export type EstimateTotalsResponse = FromWire<wire.EstimateTotalsResponse>;
export type LineItemInput = FromWire<wire.LineItemInput>;
export type CustomLineItemInput = FromWire<wire.CustomLineItemInput>;
export type UpdateCurrentCartOptions = FromWire<wire.UpdateCartRequest>;
export type AddToCurrentCartOptions = FromWire<wire.AddToCartRequest>;
export type EstimateCurrentCartTotalsOptions = FromWire<wire.EstimateTotalsRequest>;
export type CreateCheckoutFromCurrentCartOptions = FromWire<wire.CreateCheckoutFromCartRequest>;
export interface LineItemQuantityUpdate { _id: string; quantity: number }

const BASE = '/ecom/v1/carts/current';
const CART = { dates: ['cart.createdDate', 'cart.updatedDate'] };
const TOTALS = { dates: ['cart.createdDate', 'cart.updatedDate', 'shippingInfo.selectedCarrierServiceOption.logistics.deliveryTimeSlot.from', 'shippingInfo.selectedCarrierServiceOption.logistics.deliveryTimeSlot.to', 'shippingInfo.carrierServiceOptions.shippingOptions.logistics.deliveryTimeSlot.from', 'shippingInfo.carrierServiceOptions.shippingOptions.logistics.deliveryTimeSlot.to'] };

/** `getCurrentCart()` -> the cart (404 CART_NOT_FOUND before anything was added). */
export const getCurrentCart = defineMethod(async (client) =>
  (await client.request<{ cart: Cart }>({ method: 'GET', path: BASE, decode: CART })).cart);

/** `updateCurrentCart({ cartInfo, couponCode, lineItems, customLineItems })` -> the cart. */
export const updateCurrentCart = defineMethod(async (client, options: UpdateCurrentCartOptions = {}) =>
  (await client.request<{ cart: Cart }>({ method: 'PATCH', path: BASE, payload: options, decode: CART })).cart);

/** `addToCurrentCart({ lineItems, customLineItems })` -> `{ cart }`. */
export const addToCurrentCart = defineMethod((client, options: AddToCurrentCartOptions = {}) =>
  client.request<{ cart: Cart }>({ method: 'POST', path: `${BASE}/add-to-cart`, payload: options, decode: CART }));

/** `removeLineItemsFromCurrentCart(lineItemIds)` -> `{ cart }`. */
export const removeLineItemsFromCurrentCart = defineMethod((client, lineItemIds: string[]) =>
  client.request<{ cart: Cart }>({ method: 'POST', path: `${BASE}/remove-line-items`, payload: { lineItemIds }, decode: CART }));

/** `createCheckoutFromCurrentCart({ channelType, email, ... })` -> `{ checkoutId }`. */
export const createCheckoutFromCurrentCart = defineMethod((client, options: CreateCheckoutFromCurrentCartOptions = {}) =>
  client.request<{ checkoutId: string }>({ method: 'POST', path: `${BASE}/create-checkout`, payload: options }));

/** `removeCouponFromCurrentCart()` -> `{ cart }`. */
export const removeCouponFromCurrentCart = defineMethod((client) =>
  client.request<{ cart: Cart }>({ method: 'POST', path: `${BASE}/remove-coupon`, payload: {}, decode: CART }));

/** `updateCurrentCartLineItemQuantity([{ _id, quantity }])` -> `{ cart }`; quantity 0 removes the line. */
export const updateCurrentCartLineItemQuantity = defineMethod((client, lineItems: LineItemQuantityUpdate[]) =>
  client.request<{ cart: Cart }>({ method: 'POST', path: `${BASE}/update-line-items-quantity`, payload: { lineItems }, decode: CART }));

/** `estimateCurrentCartTotals({ shippingAddress, selectedShippingOption, calculateTax, ... })`. */
export const estimateCurrentCartTotals = defineMethod((client, options: EstimateCurrentCartTotalsOptions = {}) =>
  client.request<EstimateTotalsResponse>({ method: 'POST', path: `${BASE}/estimate-totals`, payload: options, decode: TOTALS }));

/** `deleteCurrentCart()`. */
export const deleteCurrentCart = defineMethod(async (client): Promise<void> => {
  await client.request<Record<string, never>>({ method: 'DELETE', path: BASE });
});
