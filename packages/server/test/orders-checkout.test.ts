/**
 * What other domains use of orders (domains/orders/index.ts): a checkout becomes an order inside the
 * caller's transaction, payments reads it and applies payment changes. Real server, real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { serviceContext } from './member-tokens.js';
import { draftOf, eventSlugs, onHand, v1Product, v3Product } from './orders-support.js';
import { applyPaymentUpdate, createOrderFromCheckout, getOrderForPayment } from '../src/domains/orders/index.js';
import { inTransaction } from '../src/storage/transaction.js';
import type { RequestContext } from '../src/http/context.js';

let t: TestServer;
let ctx: RequestContext;
beforeAll(async () => {
  t = await startTestServer();
  ctx = serviceContext(t);
});
afterAll(() => t?.close());

const codeOf = (e: unknown) => (e as { code?: string }).code;

describe('createOrderFromCheckout / getOrderForPayment / applyPaymentUpdate', () => {
  it('writes the order with number, placed activity, created event and stock taken (ON_ORDER_PLACED default)', async () => {
    const a = await v1Product(t, 'Mug', 10);
    const b = await v3Product(t, 'Cap', 5);
    const draft = draftOf([{ ref: a, quantity: 2 }, { ref: b, quantity: 1 }], { email: 'ann@example.com', memberId: 'm-1' });
    const first = await inTransaction(ctx.db, (trx) => createOrderFromCheckout({ ...ctx, db: trx }, draft));
    expect(first.number).toBe('10001');
    const second = await createOrderFromCheckout(ctx, draftOf([{ ref: a, quantity: 1 }]));
    expect(second.number).toBe('10002');

    expect(await onHand(ctx, a)).toEqual({ quantity: 7, reserved: 0 });
    expect(await onHand(ctx, b)).toEqual({ quantity: 4, reserved: 0 });
    expect(await eventSlugs(ctx, first.orderId)).toEqual(['created']);

    const view = await getOrderForPayment(ctx, first.orderId);
    expect(view).toEqual({
      id: first.orderId, number: '10001', currency: 'USD', total: '15.00', status: 'INITIALIZED', paymentStatus: 'NOT_PAID',
      paid: '0.00', shipping: '0.00', additionalFees: [], buyer: { memberId: 'm-1', email: 'ann@example.com' },
      lineItems: [{ id: 'line-1', quantity: 2, price: '5.00', refundedQuantity: 0, subscription: false }, { id: 'line-2', quantity: 1, price: '5.00', refundedQuantity: 0, subscription: false }],
    });

    await inTransaction(ctx.db, (trx) => applyPaymentUpdate({ ...ctx, db: trx }, first.orderId, { paymentStatus: 'PAID', becamePaid: true }));
    expect(await getOrderForPayment(ctx, first.orderId)).toMatchObject({ status: 'APPROVED', paymentStatus: 'PAID', paid: '15.00' });
    expect(await eventSlugs(ctx, first.orderId)).toEqual(['created', 'approved', 'payment_status_updated', 'updated']);

    // A refund of 5.00 with one mug back in stock.
    await applyPaymentUpdate(ctx, first.orderId, { paymentStatus: 'PARTIALLY_REFUNDED', refund: { amount: '5.00', restock: [{ lineItemId: 'line-1', quantity: 1 }] } });
    expect(await onHand(ctx, a)).toEqual({ quantity: 8, reserved: 0 });
    const after = await getOrderForPayment(ctx, first.orderId);
    expect(after.paymentStatus).toBe('PARTIALLY_REFUNDED');
    expect(after.lineItems[0]).toEqual({ id: 'line-1', quantity: 2, price: '5.00', refundedQuantity: 1, subscription: false });
  });

  it('rolls back with the caller when stock is short (InsufficientStockError propagates)', async () => {
    const a = await v1Product(t, 'Scarce', 1);
    await expect(createOrderFromCheckout(ctx, draftOf([{ ref: a, quantity: 2 }]))).rejects.toMatchObject({ code: 'INSUFFICIENT_STOCK' });
    expect(await onHand(ctx, a)).toEqual({ quantity: 1, reserved: 0 });
  });

  it('answers 404 ORDER_NOT_FOUND for an unknown order', async () => {
    const e = await getOrderForPayment(ctx, 'nope').catch((x: unknown) => x);
    expect(codeOf(e)).toBe('ORDER_NOT_FOUND');
  });
});
