/**
 * The platform's public client (`@wix/sdk` + `@wix/ecom` orders, orderFulfillments, ordersSettings),
 * unchanged, against our orders: its hosts are routed to the test server (test/public-client.ts).
 */
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { orderFulfillments, orders, ordersSettings } from '@wix/ecom';
import { usePublicClientServer } from './public-client.js';
import { STORES_APP_ID, v1Product } from './orders-support.js';

const f = usePublicClientServer();
const admin = () => createClient({ modules: { orders, orderFulfillments, ordersSettings }, auth: ApiKeyStrategy({ apiKey: f.t.apiKey, siteId: f.t.site.id }) });

describe('@wix/ecom orders against our server', () => {
  it('creates, gets, searches, comments, fulfills and cancels an order; reads and changes the settings', async () => {
    const wix = admin();
    const ref = await v1Product(f.t, 'Public Order Mug', 10);
    const created = await wix.orders.createOrder({
      channelInfo: { type: 'WEB' },
      lineItems: [{
        productName: { original: 'Public Order Mug' }, quantity: 2, price: { amount: '7.25' }, itemType: { preset: 'PHYSICAL' },
        catalogReference: { catalogItemId: ref.productId, appId: STORES_APP_ID, options: { variantId: ref.variantId } },
      }],
      priceSummary: { subtotal: { amount: '14.50' }, shipping: { amount: '0' }, tax: { amount: '0' }, discount: { amount: '0' }, total: { amount: '14.50' } },
      buyerInfo: { email: 'public@example.com' },
    });
    expect(created._id).toEqual(expect.any(String));
    expect(created.number).toBe('10001');
    expect(created._createdDate).toBeInstanceOf(Date);

    const got = await wix.orders.getOrder(created._id!);
    expect(got).toMatchObject({ _id: created._id, number: '10001', status: 'APPROVED', priceSummary: { total: { amount: '14.50' } } });
    expect(got.lineItems![0]!.quantity).toBe(2);

    const found = await wix.orders.searchOrders({ filter: { 'buyerInfo.email': 'public@example.com' }, sort: [{ fieldName: '_createdDate', order: 'DESC' }], cursorPaging: { limit: 10 } });
    expect(found.orders?.map((o) => o._id)).toEqual([created._id]);
    expect(found.metadata).toMatchObject({ count: 1, hasNext: false });

    const comment = await wix.orders.addActivity(created._id!, { merchantComment: { message: 'hello' } });
    expect(comment.activityId).toEqual(expect.any(String));

    const shipped = await wix.orderFulfillments.createFulfillment(created._id!, { lineItems: [{ _id: got.lineItems![0]!._id!, quantity: 1 }], trackingInfo: { trackingNumber: 'PUB1', shippingProvider: 'fedex' } });
    expect(shipped.fulfillmentId).toEqual(expect.any(String));
    const list = await wix.orderFulfillments.listFulfillmentsForSingleOrder(created._id!);
    expect(list.orderWithFulfillments?.fulfillments?.[0]?.trackingInfo?.trackingNumber).toBe('PUB1');
    expect((await wix.orders.getOrder(created._id!)).fulfillmentStatus).toBe('PARTIALLY_FULFILLED');

    const canceled = await wix.orders.cancelOrder(created._id!, { restockAllItems: true, sendOrderCanceledEmail: false });
    expect(canceled.order?.status).toBe('CANCELED');
    const again: unknown = await wix.orders.cancelOrder(created._id!, {}).then(() => undefined, (e: unknown) => e);
    expect((again as { details?: { applicationError?: { code?: string } } }).details?.applicationError?.code).toBe('ORDER_ALREADY_CANCELED');

    const settings = await wix.ordersSettings.getOrdersSettings();
    expect(settings.ordersSettings?.inventoryUpdateTrigger).toBe('ON_ORDER_PLACED');
    const changed = await wix.ordersSettings.updateOrdersSettings({ inventoryUpdateTrigger: 'ON_ORDER_PAID' });
    expect(changed.ordersSettings?.inventoryUpdateTrigger).toBe('ON_ORDER_PAID');
  });
});
