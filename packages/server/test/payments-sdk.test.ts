/**
 * `@vitrine/sdk/ecom` payments modules against a real server: the payments collector calls and
 * orderTransactions, with dates decoded and errors as VitrineError.
 */
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@vitrine/sdk';
import { orderTransactions, paymentsCollector } from '@vitrine/sdk/ecom';
import { newOrder, TEST_CARDS, card, paymentStatusOf, usePaymentsServer } from './payments-support.js';

const f = usePaymentsServer();
const admin = () => createClient({ modules: { orderTransactions, paymentsCollector }, auth: ApiKeyStrategy({ apiKey: f.t.apiKey, siteId: f.t.site.id }), host: f.t.url });

describe('@vitrine/sdk payments modules', () => {
  it('collects, captures, refunds and lists through the SDK', async () => {
    const id = await newOrder(f, 2);
    const client = admin();
    expect(await client.paymentsCollector.getPaymentCollectabilityStatus(id)).toEqual({ status: 'COLLECTABLE', amount: { amount: '10.00' } });
    const { paymentGatewayOrderId } = await client.paymentsCollector.preparePaymentCollection(id, { amount: '10.00' }, { delayedCapture: true });
    const paid = await client.paymentsCollector.payGatewayOrder(paymentGatewayOrderId, card(TEST_CARDS.success));
    expect(paid.status).toBe('AUTHORIZED');
    const captured = await client.paymentsCollector.captureAuthorizedPayments(id, [{ paymentId: paid.paymentId, amount: { amount: '10.00' } }]);
    const payment = captured.orderTransactions.payments[0]!;
    expect(payment._id).toBe(paid.paymentId);
    expect(payment._createdDate).toBeInstanceOf(Date);
    expect(payment.regularPaymentDetails?.authorizationDetails?.authorizedDate).toBeInstanceOf(Date);
    expect(await paymentStatusOf(f, id)).toBe('PAID');

    const refunded = await client.paymentsCollector.triggerRefund(id, [{ paymentId: paid.paymentId, amount: { amount: '4.00' } }], { details: { reason: 'sdk' } });
    expect(refunded.failedPaymentIds).toEqual([]);
    expect(refunded.orderTransactions.refunds[0]?._createdDate).toBeInstanceOf(Date);
    expect((await client.paymentsCollector.getRefundabilityStatus(id)).refundabilities).toEqual([{ paymentId: paid.paymentId, refundabilityStatus: 'REFUNDABLE' }]);

    const listed = await client.orderTransactions.listTransactionsForSingleOrder(id);
    expect(listed.orderTransactions.refunds.map((r) => r.summary.refunded.amount)).toEqual(['4.00']);
    expect(await paymentStatusOf(f, id)).toBe('PARTIALLY_REFUNDED');

    const other = await newOrder(f, 1);
    const bulk = await client.paymentsCollector.paymentCollectionBulkMarkOrdersAsPaid([other, 'missing']);
    expect(bulk.results.map((r) => [r.itemMetadata._id, r.itemMetadata.success])).toEqual([[other, true], ['missing', false]]);
    const error = await client.paymentsCollector.paymentCollectionMarkOrderAsPaid(other).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ORDER_ALREADY_PAID', status: 409 });
  });
});
