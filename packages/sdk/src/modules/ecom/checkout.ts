/**
 * Checkouts (`@vitrine/sdk/ecom` -> `checkout`), with the public `@wix/ecom` checkout module's call
 * names and argument order. A visitor or member reaches only its own checkouts; `createOrder` answers
 * the same order however often it is called for one checkout.
 */
import type * as wire from '@vitrine/types/ecom-cart';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

export type Checkout = FromWire<wire.Checkout>;
export type CreateCheckoutOptions = FromWire<wire.CreateCheckoutRequest>;
export type UpdateCheckout = FromWire<wire.CheckoutInfoInput>;
export type UpdateCheckoutOptions = FromWire<Omit<wire.UpdateCheckoutRequest, 'checkout'>>;
export interface AddToCheckoutOptions { lineItems?: FromWire<wire.LineItemInput>[]; customLineItems?: FromWire<wire.CustomLineItemInput>[] }
export interface LineItemQuantityUpdate { _id: string; quantity: number }
export interface CreateOrderOptions { savePaymentMethod?: boolean; delayCapture?: boolean }
export interface CreateOrderAndChargeOptions extends CreateOrderOptions { paymentToken?: string }

const BASE = '/ecom/v1/checkouts';
const SLOT = 'logistics.deliveryTimeSlot';
const dates = (root: string) => [`${root}.createdDate`, `${root}.updatedDate`, `${root}.shippingInfo.selectedCarrierServiceOption.${SLOT}.from`, `${root}.shippingInfo.selectedCarrierServiceOption.${SLOT}.to`];
const ONE = { dates: dates('checkout') };
const path = (id: string, tail = '') => `${BASE}/${encodeURIComponent(id)}${tail}`;
type Answer = { checkout: Checkout };

/** `createCheckout({ channelType, lineItems, ... })` -> the checkout. */
export const createCheckout = defineMethod(async (client, options: CreateCheckoutOptions) =>
  (await client.request<Answer>({ method: 'POST', path: BASE, payload: options, decode: ONE })).checkout);

/** `getCheckout(_id)` -> the checkout, priced now. */
export const getCheckout = defineMethod(async (client, _id: string) =>
  (await client.request<Answer>({ method: 'GET', path: path(_id), payload: { _id }, decode: ONE, argumentFields: { id: '_id' } })).checkout);

/** `getCheckoutByCartId(_id)` -> `{ checkout }`. */
export const getCheckoutByCartId = defineMethod((client, _id: string) =>
  client.request<Answer>({ method: 'GET', path: `${BASE}/by-cart-id/${encodeURIComponent(_id)}`, payload: { _id }, decode: ONE }));

/** `getCheckoutUrl(_id)` -> `{ checkoutUrl }`. */
export const getCheckoutUrl = defineMethod((client, _id: string) =>
  client.request<{ checkoutUrl: string }>({ method: 'GET', path: path(_id, '/checkout-url'), payload: { _id } }));

/** `updateCheckout(_id, checkout, { couponCode, lineItems, ... })` -> the checkout. Gift cards: 400 GIFT_CARD_NOT_SUPPORTED. */
export const updateCheckout = defineMethod(async (client, _id: string, checkout: UpdateCheckout, options: UpdateCheckoutOptions = {}) =>
  (await client.request<Answer>({ method: 'PATCH', path: path(_id), payload: { checkout, ...options }, decode: ONE })).checkout);

export const removeCoupon = defineMethod((client, _id: string) =>
  client.request<Answer>({ method: 'POST', path: path(_id, '/remove-coupon'), payload: { _id }, decode: ONE }));

export const removeGiftCard = defineMethod((client, _id: string) =>
  client.request<Answer>({ method: 'POST', path: path(_id, '/remove-gift-card'), payload: { _id }, decode: ONE }));

export const removeOverrideCheckoutUrl = defineMethod((client, _id: string) =>
  client.request<Answer>({ method: 'POST', path: path(_id, '/remove-override-checkout-url'), payload: { _id }, decode: ONE }));

export const addToCheckout = defineMethod((client, _id: string, options: AddToCheckoutOptions = {}) =>
  client.request<Answer>({ method: 'POST', path: path(_id, '/add-to-checkout'), payload: { _id, ...options }, decode: ONE }));

export const removeLineItems = defineMethod((client, _id: string, lineItemIds: string[]) =>
  client.request<Answer>({ method: 'POST', path: path(_id, '/remove-line-items'), payload: { _id, lineItemIds }, decode: ONE }));

export const updateLineItemsQuantity = defineMethod((client, _id: string, lineItems: LineItemQuantityUpdate[]) =>
  client.request<Answer>({ method: 'POST', path: path(_id, '/update-line-items-quantity'), payload: { _id, lineItems }, decode: ONE }));

/** `createOrder(_id)` -> `{ orderId }`; the same order on every call for one checkout. */
export const createOrder = defineMethod((client, _id: string, options: CreateOrderOptions = {}) =>
  client.request<{ orderId: string; subscriptionId?: string; paymentGatewayOrderId?: string }>({ method: 'POST', path: path(_id, '/create-order'), payload: { _id, ...options } }));

/** `createOrderAndCharge(_id, { paymentToken })` -> `{ orderId, paymentResponseToken }`. */
export const createOrderAndCharge = defineMethod((client, _id: string, options: CreateOrderAndChargeOptions = {}) =>
  client.request<{ orderId: string; subscriptionId?: string; paymentResponseToken?: string | null; paymentGatewayOrderId?: string }>({ method: 'POST', path: path(_id, '/create-order-and-charge'), payload: { _id, ...options } }));

/** `markCheckoutAsCompleted(_id)`. */
export const markCheckoutAsCompleted = defineMethod(async (client, _id: string): Promise<void> => {
  await client.request<Record<string, never>>({ method: 'POST', path: path(_id, '/mark-as-completed'), payload: { _id } });
});
