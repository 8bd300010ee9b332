/**
 * The platform's public client (`@wix/sdk` + `@wix/ecom` currentCart and checkout), unchanged, against
 * our cart and checkout (test/public-client.ts routes its hosts here); then our own SDK modules.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { checkout, currentCart } from '@wix/ecom';
import { createClient as vitrineClient, OAuthStrategy as VitrineOAuth } from '@vitrine/sdk';
import { checkout as ourCheckout, currentCart as ourCart } from '@vitrine/sdk/ecom';
import { usePublicClientServer } from './public-client.js';
import { productV1, STORES_APP_ID } from './cart-support.js';
import { clearDemoPricing } from './cart-support.js';

const f = usePublicClientServer();
beforeAll(async () => { await clearDemoPricing(f.t); });

describe('@wix/ecom currentCart and checkout', () => {
  it('adds, reads, changes, estimates, checks out and places the order', async () => {
    const p = await productV1(f.t, { name: 'Public Teapot', price: 24.5, quantity: 4 });
    const wix = createClient({ modules: { currentCart, checkout }, auth: OAuthStrategy({ clientId: f.t.clientId }) });
    await expect(wix.currentCart.getCurrentCart()).rejects.toMatchObject({ details: { applicationError: { code: 'CART_NOT_FOUND' } } });

    const added = await wix.currentCart.addToCurrentCart({ lineItems: [{ quantity: 2, catalogReference: { catalogItemId: p.productId, appId: STORES_APP_ID } }] });
    const cart = added.cart!;
    expect(cart._id).toEqual(expect.any(String));
    expect(cart._createdDate).toBeInstanceOf(Date);
    const li = cart.lineItems![0]!;
    expect(li).toMatchObject({ quantity: 2, productName: { original: 'Public Teapot' }, price: { amount: '24.50' }, availability: { status: 'AVAILABLE' } });

    const updated = await wix.currentCart.updateCurrentCartLineItemQuantity([{ _id: li._id!, quantity: 3 }]);
    expect(updated.cart!.lineItems![0]!.quantity).toBe(3);
    const info = await wix.currentCart.updateCurrentCart({ cartInfo: { buyerNote: 'Gift, please' } });
    expect(info.buyerNote).toBe('Gift, please');

    const totals = await wix.currentCart.estimateCurrentCartTotals({ calculateTax: true, calculateShipping: false });
    expect(totals.priceSummary).toMatchObject({ subtotal: { amount: '73.50' }, total: { amount: '73.50' } });
    expect(totals.calculatedLineItems![0]!.lineItemId).toBe(li._id);

    const { checkoutId } = await wix.currentCart.createCheckoutFromCurrentCart({ channelType: currentCart.ChannelType.WEB, email: 'public@example.com' });
    const co = await wix.checkout.getCheckout(checkoutId!);
    expect(co).toMatchObject({ _id: checkoutId, cartId: cart._id, completed: false, priceSummary: { total: { amount: '73.50' } }, buyerInfo: { email: 'public@example.com' } });
    expect(co._updatedDate).toBeInstanceOf(Date);
    const byCart = await wix.checkout.getCheckoutByCartId(cart._id!);
    expect(byCart.checkout!._id).toBe(checkoutId);
    await expect(wix.checkout.updateCheckout(checkoutId!, {}, { giftCardCode: 'G-1' })).rejects.toMatchObject({ details: { applicationError: { code: 'GIFT_CARD_NOT_SUPPORTED' } } });
    const url = await wix.checkout.getCheckoutUrl(checkoutId!);
    expect(url.checkoutUrl).toContain('/_hosted/checkout?checkoutId=');

    const order = await wix.checkout.createOrder(checkoutId!);
    expect(order.orderId).toEqual(expect.any(String));
    expect((await wix.checkout.createOrder(checkoutId!)).orderId).toBe(order.orderId);
    expect((await wix.checkout.getCheckout(checkoutId!)).completed).toBe(true);

    // Placing the order used up the cart: the next read finds none, and deleting it again is a 404 too.
    await expect(wix.currentCart.getCurrentCart()).rejects.toMatchObject({ details: { applicationError: { code: 'CART_NOT_FOUND' } } });
    await expect(wix.currentCart.deleteCurrentCart()).rejects.toMatchObject({ details: { applicationError: { code: 'CART_NOT_FOUND' } } });
  });

  it('works the same through @vitrine/sdk/ecom', async () => {
    const p = await productV1(f.t, { name: 'Own SDK Cup', price: 6 });
    const ours = vitrineClient({ modules: { currentCart: ourCart, checkout: ourCheckout }, auth: VitrineOAuth({ clientId: f.t.clientId }), host: f.t.url, fetch: f.routing.original });
    const { cart } = await ours.currentCart.addToCurrentCart({ lineItems: [{ quantity: 1, catalogReference: { catalogItemId: p.productId, appId: STORES_APP_ID } }] });
    expect(cart._createdDate).toBeInstanceOf(Date);
    const same = await ours.currentCart.getCurrentCart();
    expect(same._id).toBe(cart._id);
    const { checkoutId } = await ours.currentCart.createCheckoutFromCurrentCart({ channelType: 'WEB' });
    const co = await ours.checkout.updateCheckout(checkoutId, { buyerInfo: { email: 'own@example.com' } });
    expect(co.buyerInfo.email).toBe('own@example.com');
    expect(co.priceSummary.total.amount).toBe('6.00');
    const { orderId } = await ours.checkout.createOrder(checkoutId);
    expect(orderId).toEqual(expect.any(String));
  });
});
