/**
 * The platform's public client (`@wix/sdk` + `@wix/ecom` orders and orderTransactions), unchanged,
 * against our payments routes: collectability, prepare + pay, capture, and the transactions calls.
 */
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { orders, orderTransactions } from '@wix/ecom';
import { createOrderFromCheckout } from '../src/domains/orders/index.js';
import { serviceContext } from './member-tokens.js';
import { draftOf, v1Product } from './orders-support.js';
import { usePublicClientServer } from './public-client.js';
import { call } from './harness.js';
import { card, TEST_CARDS } from './payments-support.js';

const f = usePublicClientServer();
const admin = () => createClient({ modules: { orders, orderTransactions }, auth: ApiKeyStrategy({ apiKey: f.t.apiKey, siteId: f.t.site.id }) });

async function order(quantity: number): Promise<string> {
  const ctx = serviceContext(f.t);
  const product = await v1Product(f.t, `Public client item ${Math.random()}`, 100);
  return (await createOrderFromCheckout(ctx, draftOf([{ ref: product, quantity }]))).orderId;
}

describe('@wix/ecom payments calls', () => {
  it('collectability, prepare-payment-collection, capture and the transactions listing', async () => {
    const id = await order(2);
    const client = admin();
    expect(await client.orders.getPaymentCollectabilityStatus(id)).toEqual({ status: 'COLLECTABLE', amount: { amount: '10.00' } });
    const prepared = await client.orders.preparePaymentCollection(id, { amount: '10.00' }, { delayedCapture: true });
    expect(prepared.paymentGatewayOrderId).toMatch(/^[0-9a-f-]{36}$/);

    const paid = await call(f.t.url, `/_api/vitrine/payments/v1/gateway-orders/${prepared.paymentGatewayOrderId}/pay`, { auth: f.t.apiKey, siteId: f.t.site.id, body: { card: card(TEST_CARDS.success) } });
    expect(paid.body.status).toBe('AUTHORIZED');

    const captured = await client.orders.captureAuthorizedPayments(id, [{ paymentId: paid.body.paymentId }]);
    expect(captured.orderTransactions?.payments?.[0]).toMatchObject({ _id: paid.body.paymentId, status: 'APPROVED', amount: { amount: '10.00' } });
    // Dates come back as Date objects through the client's own decoding.
    expect(captured.orderTransactions?.payments?.[0]?._createdDate).toBeInstanceOf(Date);

    const listed = await client.orderTransactions.listTransactionsForSingleOrder(id);
    expect(listed.orderTransactions?.orderId).toBe(id);
    expect(listed.orderTransactions?.payments?.map((p) => [p._id, p.status])).toEqual([[paid.body.paymentId, 'APPROVED']]);
    expect(await client.orders.getPaymentCollectabilityStatus(id)).toEqual({ status: 'NONCOLLECTABLE_ORDER_IS_PAID', amount: { amount: '0.00' } });
  });

  it('addPayments, updatePaymentStatus, listTransactionsForMultipleOrders; a refused call throws the application error', async () => {
    const a = await order(1);
    const b = await order(1);
    const client = admin();
    const added = await client.orderTransactions.addPayments(a, [{ amount: { amount: '5.00' }, status: 'PENDING', regularPaymentDetails: { offlinePayment: true } }]);
    const [paymentId] = added.paymentsIds!;
    const updated = await client.orderTransactions.updatePaymentStatus({ orderId: a, paymentId: paymentId! }, { status: 'APPROVED' });
    expect(updated.orderTransactions?.payments?.[0]?.status).toBe('APPROVED');
    const many = await client.orderTransactions.listTransactionsForMultipleOrders([a, b]);
    expect(many.orderTransactions?.map((o) => [o.orderId, o.payments?.length])).toEqual([[a, 1], [b, 0]]);

    const error = await client.orderTransactions.updatePaymentStatus({ orderId: a, paymentId: paymentId! }, { status: 'REFUNDED' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ details: { applicationError: { code: 'PAYMENT_STATUS_TRANSITION_NOT_ALLOWED' } } });
  });
});
