import { z } from 'zod';
import { route, type RouteDef } from '../../http/route.js';
import { EncodedJson } from '../../http/wire.js';
import { cartOnWire, encodeCart, type CartOnWire } from './present.js';
import { estimateTotals } from './estimate.js';
import {
  addToCartRequest, createCheckoutFromCartRequest, estimateTotalsRequest, removeLineItemsRequest, updateCartRequest, updateQuantityRequest,
} from './schema.js';
import {
  addToCart, deleteCurrentCart, getCurrentCart, removeCoupon, removeLineItems, updateCurrentCart, updateLineItemsQuantity, type CartView, type WrittenCart,
} from './service.js';
import { createCheckoutFromCurrentCart } from './checkout-service.js';

const tag = 'Current cart';
const BASE = '/ecom/v1/carts/current';
const cartJson = (cart: CartOnWire) => new EncodedJson(encodeCart(cart, '{"cart":', '}'));
const cartAnswer = (v: CartView) => cartJson(cartOnWire(v.cart, v.lines, v.currency));
const writtenAnswer = (v: WrittenCart) => cartJson(v.onWire);

/** The caller's current cart (docs/cart.md). Every caller has its own; nothing here takes a cart id. */
export const cartRoutes: RouteDef[] = [
  route({
    method: 'GET', path: BASE, access: 'visitor', tag, summary: "The caller's current cart (404 before anything was added)",
    request: z.object({}),
    handler: async (ctx) => cartAnswer(await getCurrentCart(ctx)),
  }),
  route({
    method: 'PATCH', path: BASE, access: 'visitor', tag, summary: 'Update cart info, apply a coupon, add lines; merchant discounts and custom lines by owners only',
    request: updateCartRequest,
    handler: async (ctx, input) => writtenAnswer(await updateCurrentCart(ctx, input)),
  }),
  route({
    method: 'DELETE', path: BASE, access: 'visitor', tag, summary: "Delete the caller's current cart",
    request: z.object({}),
    handler: (ctx) => deleteCurrentCart(ctx),
  }),
  route({
    method: 'POST', path: `${BASE}/add-to-cart`, access: 'visitor', tag, summary: 'Add catalog lines (priced from the catalog) or custom lines (owners only)',
    request: addToCartRequest,
    handler: async (ctx, input) => writtenAnswer(await addToCart(ctx, input)),
  }),
  route({
    method: 'POST', path: `${BASE}/remove-line-items`, access: 'visitor', tag, summary: 'Remove lines by id',
    request: removeLineItemsRequest,
    handler: async (ctx, input) => writtenAnswer(await removeLineItems(ctx, input.lineItemIds)),
  }),
  route({
    method: 'POST', path: `${BASE}/update-line-items-quantity`, access: 'visitor', tag, summary: 'Set line quantities (0 removes the line)',
    request: updateQuantityRequest,
    handler: async (ctx, input) => writtenAnswer(await updateLineItemsQuantity(ctx, input.lineItems)),
  }),
  route({
    method: 'POST', path: `${BASE}/remove-coupon`, access: 'visitor', tag, summary: 'Remove the applied coupon',
    request: z.object({}),
    handler: async (ctx) => writtenAnswer(await removeCoupon(ctx)),
  }),
  route({
    method: 'POST', path: `${BASE}/estimate-totals`, access: 'visitor', tag, summary: 'Price the cart for an address, shipping option and switches',
    request: estimateTotalsRequest,
    handler: (ctx, input) => estimateTotals(ctx, input),
  }),
  route({
    method: 'POST', path: `${BASE}/create-checkout`, access: 'visitor', tag, summary: 'Create a checkout from the current cart',
    request: createCheckoutFromCartRequest,
    handler: async (ctx, input) => ({ checkoutId: (await createCheckoutFromCurrentCart(ctx, input)).id }),
  }),
];
