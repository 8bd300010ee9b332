/**
 * The platform's public client (`@wix/sdk` + `@wix/ecom` orders, orderFulfillments, ordersSettings),
 * unchanged, against our orders: its hosts are routed to the test server (test/public-client.ts).
 */
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { orderFulfillments, orders, ordersSettings } from '@wix/ecom';
import { ApiKeyStrategy as VitrineApiKey, createClient as createVitrine, VitrineError } from '@vitrine/sdk';
import * as ours from '@vitrine/sdk/ecom';
import { usePublicClientServer } from './public-client.js';
import { digitalProduct, paidDigitalOrder, STORES_APP_ID, v1Product } from './orders-support.js';

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

    const comment = await wix.orders.addActivities(created._id!, { orderActivities: [{ merchantComment: { message: 'hello' }, activityType: 'MERCHANT_COMMENT' }] });
    expect(comment.activityIds).toEqual([expect.any(String)]);
    expect(comment.order?.activities?.map((a) => a.type)).toEqual(['ORDER_PLACED', 'MERCHANT_COMMENT']);

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

describe('@vitrine/sdk ecom orders against our server', () => {
  it('creates, gets, searches, updates, fulfills and reads settings with the same call names', async () => {
    const client = createVitrine({ modules: { orders: ours.orders, orderFulfillments: ours.orderFulfillments, ordersSettings: ours.ordersSettings }, auth: VitrineApiKey({ apiKey: f.t.apiKey, siteId: f.t.site.id }), host: f.t.url });
    const ref = await v1Product(f.t, 'SDK Order Mug', 5);
    const order = await client.orders.createOrder({
      lineItems: [{ productName: { original: 'SDK Mug' }, quantity: 1, price: { amount: '3.00' }, catalogReference: { catalogItemId: ref.productId, appId: STORES_APP_ID, options: { variantId: ref.variantId } } }],
      buyerInfo: { email: 'sdk@example.com' },
    });
    expect(order._createdDate).toBeInstanceOf(Date);
    expect(order.activities[0]!._createdDate).toBeInstanceOf(Date);
    expect((await client.orders.getOrder(order._id)).number).toBe(order.number);
    const found = await client.orders.searchOrders({ filter: { 'buyerInfo.email': 'sdk@example.com' } });
    expect(found.orders.map((o) => o._id)).toEqual([order._id]);
    const updated = await client.orders.updateOrder(order._id, { buyerNote: 'ring twice' }, { fieldMask: ['buyerNote'] });
    expect(updated.buyerNote).toBe('ring twice');
    const shipped = await client.orderFulfillments.createFulfillment(order._id, { trackingInfo: { trackingNumber: 'SDK1' } });
    expect(shipped.orderWithFulfillments.fulfillments[0]!._createdDate).toBeInstanceOf(Date);
    expect((await client.orders.getOrder(order._id)).fulfillmentStatus).toBe('FULFILLED');
    const settings = await client.ordersSettings.getOrdersSettings();
    expect(['ON_ORDER_PLACED', 'ON_ORDER_PAID']).toContain(settings.ordersSettings.inventoryUpdateTrigger);
    const err: unknown = await client.orders.cancelOrder('missing').then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(VitrineError);
    expect((err as VitrineError).code).toBe('ORDER_NOT_FOUND');
  });
});

describe('a paid digital line through both clients', () => {
  it('reads the download link with its expiry as a Date, in @wix/ecom and in @vitrine/sdk alike', async () => {
    const notes = await digitalProduct(f.t, 'Notes', '%PDF-1.7 notes', '4');
    const fileId = notes.fileId;
    const created = await admin().orders.createOrder(paidDigitalOrder(notes, 'Notes (PDF)', '4.00', { email: 'digital@example.com' }));
    const wixLine = (await admin().orders.getOrder(created._id!)).lineItems![0]!;
    expect(wixLine.digitalFile).toEqual({ fileId, link: expect.stringContaining('/_api/vitrine/orders/v1/downloads/'), expirationDate: expect.any(Date) });
    const client = createVitrine({ modules: { orders: ours.orders }, auth: VitrineApiKey({ apiKey: f.t.apiKey, siteId: f.t.site.id }), host: f.t.url });
    const ourLine = (await client.orders.getOrder(created._id!)).lineItems[0]!;
    expect(ourLine.digitalFile).toEqual(wixLine.digitalFile);
    expect(await (await fetch(ourLine.digitalFile!.link)).text()).toBe('%PDF-1.7 notes');
  });
});
