import { z } from 'zod';
import { publicRoute, route, type RouteDef } from '../../http/route.js';
import { checkoutPage, checkoutPageApi, completeAndRedirect } from './checkout-page.js';
import {
  addToCheckout, checkoutAnswer, createCheckout, getCheckout, getCheckoutByCartId, getCheckoutUrl, markAsCompleted, removeCheckoutCoupon,
  removeCheckoutLines, removeGiftCard, removeOverrideCheckoutUrl, updateCheckout, updateCheckoutQuantities,
} from './checkout-service.js';
import { placeOrder, placeOrderAndCharge } from './place-order.js';
import {
  addToCheckoutRequest, checkoutIdRequest, checkoutQuantityRequest, createCheckoutRequest, createOrderAndChargeRequest, createOrderRequest, idRequest, removeCheckoutLinesRequest,
  redirectTokenRequest, updateCheckoutRequest,
} from './schema.js';

const tag = 'Checkout';
const pageAccess = z.object({ rs: z.string().max(200).optional(), checkoutId: z.string().max(100).optional(), token: z.string().max(200).optional() });
const BASE = '/ecom/v1/checkouts';

/** Checkouts (docs/checkout.md): a visitor or member reaches only its own; owners reach every checkout of the site. */
export const checkoutRoutes: RouteDef[] = [
  route({
    method: 'POST', path: BASE, access: 'visitor', tag, summary: 'Create a checkout from lines (custom lines and a checkout URL by owners only)',
    request: createCheckoutRequest,
    handler: async (ctx, input) => checkoutAnswer(await createCheckout(ctx, input)),
  }),
  route({
    method: 'GET', path: `${BASE}/:id`, access: 'visitor', tag, summary: 'A checkout: priced now while open, as it was bought once completed',
    request: idRequest,
    handler: (ctx, input) => getCheckout(ctx, input.id),
  }),
  route({
    method: 'GET', path: `${BASE}/by-cart-id/:id`, access: 'visitor', tag, summary: 'The newest checkout made from a cart',
    request: idRequest,
    handler: (ctx, input) => getCheckoutByCartId(ctx, input.id),
  }),
  route({
    method: 'PATCH', path: `${BASE}/:checkoutId`, access: 'visitor', tag, summary: 'Update addresses, e-mail, shipping option, coupon, lines (gift cards are refused)',
    request: updateCheckoutRequest.extend({ checkoutId: checkoutIdRequest.shape.checkoutId }),
    handler: async (ctx, input) => checkoutAnswer(await updateCheckout(ctx, input.checkoutId, input)),
  }),
  route({
    method: 'POST', path: `${BASE}/:id/add-to-checkout`, access: 'visitor', tag, summary: 'Add lines to a checkout',
    request: addToCheckoutRequest,
    handler: async (ctx, input) => checkoutAnswer(await addToCheckout(ctx, input.id, input.lineItems, input.customLineItems)),
  }),
  route({
    method: 'POST', path: `${BASE}/:id/remove-line-items`, access: 'visitor', tag, summary: 'Remove lines from a checkout',
    request: removeCheckoutLinesRequest,
    handler: async (ctx, input) => checkoutAnswer(await removeCheckoutLines(ctx, input.id, input.lineItemIds)),
  }),
  route({
    method: 'POST', path: `${BASE}/:id/update-line-items-quantity`, access: 'visitor', tag, summary: 'Set line quantities (0 removes the line)',
    request: checkoutQuantityRequest,
    handler: async (ctx, input) => checkoutAnswer(await updateCheckoutQuantities(ctx, input.id, input.lineItems)),
  }),
  route({
    method: 'POST', path: `${BASE}/:id/remove-coupon`, access: 'visitor', tag, summary: 'Remove the coupon',
    request: idRequest,
    handler: async (ctx, input) => checkoutAnswer(await removeCheckoutCoupon(ctx, input.id)),
  }),
  route({
    method: 'POST', path: `${BASE}/:id/remove-gift-card`, access: 'visitor', tag, summary: 'Remove the gift card (none can be applied here)',
    request: idRequest,
    handler: (ctx, input) => removeGiftCard(ctx, input.id),
  }),
  route({
    method: 'POST', path: `${BASE}/:id/remove-override-checkout-url`, access: 'visitor', tag, summary: 'Go back to the hosted checkout page',
    request: idRequest,
    handler: async (ctx, input) => checkoutAnswer(await removeOverrideCheckoutUrl(ctx, input.id)),
  }),
  route({
    method: 'GET', path: `${BASE}/:id/checkout-url`, access: 'visitor', tag, summary: 'Where the buyer completes this checkout (the override URL when set)',
    request: idRequest,
    handler: (ctx, input) => getCheckoutUrl(ctx, input.id, { ignoreOverride: false }),
  }),
  route({
    method: 'GET', path: `${BASE}/:id/wix-checkout-url`, access: 'visitor', tag, summary: "The server's hosted checkout page for this checkout",
    request: idRequest,
    handler: (ctx, input) => getCheckoutUrl(ctx, input.id, { ignoreOverride: true }),
  }),
  route({
    method: 'POST', path: `${BASE}/:id/mark-as-completed`, access: 'visitor', tag, summary: 'Mark the checkout completed (paid outside this server)',
    request: idRequest,
    handler: (ctx, input) => markAsCompleted(ctx, input.id),
  }),
  route({
    method: 'POST', path: `${BASE}/:id/create-order`, access: 'visitor', tag, summary: "Create the checkout's order (the same order on every repeat)",
    request: createOrderRequest,
    handler: async (ctx, input) => ({ orderId: (await placeOrder(ctx, input.id)).orderId }),
  }),
  route({
    method: 'POST', path: `${BASE}/:id/create-order-and-charge`, access: 'visitor', tag, summary: "Create the checkout's order and charge it (paymentToken: the test card as JSON; none: offline payment)",
    request: createOrderAndChargeRequest,
    handler: (ctx, input) => placeOrderAndCharge(ctx, input.id, input),
  }),
  publicRoute({
    method: 'GET', path: `${BASE}/mark-checkout-as-completed-and-redirect-to-url`, raw: true, tag,
    summary: 'Mark a checkout completed and redirect to its thank-you URL (token: <checkoutId>.<page token>)',
    request: redirectTokenRequest,
    handler: (ctx, input) => completeAndRedirect(ctx, input.token),
  }),
  publicRoute({
    method: 'GET', path: '/_hosted/checkout', raw: true, tag, summary: 'Hosted checkout page (an ecomCheckout redirect session, or the checkout URL)',
    request: pageAccess,
    handler: (ctx, input) => checkoutPage(ctx, input),
  }),
  publicRoute({
    method: 'POST', path: '/_hosted/checkout/api', tag, summary: 'Steps of the hosted checkout page: save the buyer\'s details, place and pay the order',
    request: pageAccess.extend({
      action: z.enum(['update', 'place']),
      email: z.string().max(254).optional(),
      shippingOption: z.string().max(100).nullish(),
      address: z.object({
        firstName: z.string().max(200).optional(), lastName: z.string().max(200).optional(), addressLine: z.string().max(200).optional(), city: z.string().max(200).optional(),
        postalCode: z.string().max(40).optional(), country: z.string().max(2).optional(), subdivision: z.string().max(20).nullish(),
      }).optional(),
      card: z.object({ number: z.string().max(30), expMonth: z.number().int(), expYear: z.number().int(), cvc: z.string().max(4) }).optional(),
    }),
    handler: (ctx, input) => checkoutPageApi(ctx, input),
  }),
];
