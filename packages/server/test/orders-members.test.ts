/**
 * Object-level authorization of orders: a member reads and searches only their own orders (by member
 * id), never sees merchant-only parts, and changes nothing; visitors see no orders. Buyer e-mails
 * (placed, paid, shipped, refunded, canceled) go through the one mail outbox to a real SMTP receiver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { memberWithToken, serviceContext } from './member-tokens.js';
import { FAST_EVENTS, waitFor } from './events-support.js';
import { draftOf, v1Product } from './orders-support.js';
import { startMailbox, type Mailbox } from './mailbox.js';
import { applyPaymentUpdate, createOrderFromCheckout } from '../src/domains/orders/index.js';
import type { RequestContext } from '../src/http/context.js';

let t: TestServer;
let ctx: RequestContext;
/** A real SMTP receiver: what the server sends arrives here. */
let mail: Mailbox;
beforeAll(async () => {
  mail = await startMailbox();
  t = await startTestServer({ smtpUrl: mail.url, events: FAST_EVENTS });
  ctx = serviceContext(t);
});
afterAll(async () => {
  await t?.close();
  await mail?.close();
});

const O = '/ecom/v1/orders';

describe('members see only their own orders', () => {
  it('GET and search answer the member\'s own orders; another member gets 404 and nothing; writes are refused', async () => {
    const ann = await memberWithToken(t, { loginEmail: 'ann@orders.test' });
    const bob = await memberWithToken(t, { loginEmail: 'bob@orders.test' });
    const ref = await v1Product(t, 'Member Mug', 10);
    const mine = await createOrderFromCheckout(ctx, draftOf([{ ref, quantity: 1 }], { memberId: ann.id, email: 'ann@orders.test' }));
    const theirs = await createOrderFromCheckout(ctx, draftOf([{ ref, quantity: 1 }], { memberId: bob.id, email: 'bob@orders.test' }));
    await call(t.url, '/ecom/v1/bulk/orders/update-tags', { ...asOwner(t), body: { orderIds: [mine.orderId], assignTags: { privateTags: { tagIds: ['fraud-check'] }, tags: { tagIds: ['gift'] } } } });
    await call(t.url, `${O}/${mine.orderId}/activities`, { ...asOwner(t), body: { activity: { merchantComment: { message: 'internal note' } } } });

    const own = await call(t.url, `${O}/${mine.orderId}`, { auth: ann.token });
    expect(own.status).toBe(200);
    expect(own.body.order.id).toBe(mine.orderId);
    expect(own.body.order.tags).toEqual({ tags: { tagIds: ['gift'] } });
    expect(own.body.order.activities.map((a: { type: string }) => a.type)).toEqual(['ORDER_PLACED']);
    expect(own.body.order.createdBy).toBeUndefined();

    const other = await call(t.url, `${O}/${theirs.orderId}`, { auth: ann.token });
    expect([other.status, other.body.details.applicationError.code]).toEqual([404, 'ORDER_NOT_FOUND']);

    const search = await call(t.url, `${O}/search`, { auth: ann.token, body: { search: {} } });
    expect(search.body.orders.map((o: { id: string }) => o.id)).toEqual([mine.orderId]);
    // Asking for another member's orders by filter still answers only the caller's own.
    const sneaky = await call(t.url, `${O}/search`, { auth: ann.token, body: { search: { filter: { $or: [{ 'buyerInfo.memberId': bob.id }, { id: theirs.orderId }] } } } });
    expect(sneaky.body.orders).toEqual([]);

    const visitor = (await visitorTokens(t)).accessToken;
    expect((await call(t.url, `${O}/search`, { auth: visitor, body: { search: {} } })).body.orders).toEqual([]);
    expect((await call(t.url, `${O}/${mine.orderId}`, { auth: visitor })).status).toBe(404);

    for (const [path, method, body] of [
      [`${O}/${mine.orderId}/cancel`, 'POST', {}],
      [`${O}/${mine.orderId}`, 'PATCH', { order: { id: mine.orderId, buyerNote: 'x' } }],
      [`${O}/${mine.orderId}/activities`, 'POST', { activity: { merchantComment: { message: 'hi' } } }],
      ['/ecom/v1/fulfillments/orders/' + mine.orderId, 'GET', undefined],
    ] as const) {
      const res = await call(t.url, path, { auth: ann.token, method, ...(body ? { body } : {}) });
      expect([path, res.status]).toEqual([path, 403]);
    }
    const after = await call(t.url, `${O}/${mine.orderId}`, asOwner(t));
    expect(after.body.order.status).toBe('INITIALIZED');
    expect(after.body.order.buyerNote).toBeUndefined();
  });
});

interface Mail { template: string; to: string; subject: string; text: string; status: string }
/** Mails to one address as the outbox has them, once SMTP took them. */
async function mails(to: string): Promise<Mail[]> {
  const res = await call(t.url, '/notifications/v1/mails', { ...asOwner(t), query: { limit: '100' } });
  return (res.body.mails as Mail[]).filter((m) => m.to === to && m.status === 'SENT');
}
const arrived = (to: string) => mail.to(to);

describe('buyer e-mails through the outbox', () => {
  it('placed, paid, shipped, refunded and canceled mails reach the buyer', async () => {
    const ref = await v1Product(t, 'Mailed', 10);
    const to = 'mailme@orders.test';
    const { orderId, number } = await createOrderFromCheckout(ctx, draftOf([{ ref, quantity: 2 }], { email: to }));
    await applyPaymentUpdate(ctx, orderId, { paymentStatus: 'PAID', becamePaid: true });
    const shipped = await call(t.url, `/ecom/v1/fulfillments/orders/${orderId}/create-fulfillment`, { ...asOwner(t), body: { fulfillment: { trackingInfo: { trackingNumber: 'ZX9', shippingProvider: 'dhl' } } } });
    expect(shipped.status).toBe(200);
    await applyPaymentUpdate(ctx, orderId, { paymentStatus: 'PARTIALLY_REFUNDED', refund: { amount: '5.00' } });
    await call(t.url, `${O}/${orderId}/cancel`, { ...asOwner(t), body: { customMessage: 'Out of stock' } });
    const silent = await createOrderFromCheckout(ctx, draftOf([{ ref, quantity: 1 }], { email: 'quiet@orders.test' }));
    await call(t.url, `${O}/${silent.orderId}/cancel`, { ...asOwner(t), body: { sendOrderCanceledEmail: false } });

    await waitFor(async () => (await mails(to)).length >= 5, 15_000, 'five buyer mails');
    const got = await mails(to);
    expect(got.map((m) => m.template).sort()).toEqual(['order-canceled', 'order-confirmation', 'order-paid', 'order-refunded', 'order-shipped']);
    const by = Object.fromEntries(got.map((m) => [m.template, m]));
    expect(by['order-confirmation']!.subject).toBe(`Your order #${number} at ${t.site.name}`);
    expect(by['order-paid']!.subject).toBe(`Payment received for order #${number}`);
    expect(by['order-shipped']!.text).toContain('Tracking number: ZX9 (dhl)');
    expect(by['order-refunded']!.text).toContain('We refunded $5.00 of order');
    expect(by['order-canceled']!.text).toContain('Out of stock');
    // The same five arrived at the SMTP receiver.
    const subjects = arrived(to).map((r) => r.subject).sort();
    expect(subjects).toEqual([
      `Payment received for order #${number}`, `Refund for order #${number}`, `Your order #${number} at ${t.site.name}`,
      `Your order #${number} is on its way`, `Your order #${number} was canceled`,
    ].sort());
    await waitFor(async () => (await mails('quiet@orders.test')).length >= 1, 15_000, 'the quiet buyer\'s confirmation');
    expect((await mails('quiet@orders.test')).map((m) => m.template)).toEqual(['order-confirmation']);
    expect(arrived('quiet@orders.test')).toHaveLength(1);
  });
});
