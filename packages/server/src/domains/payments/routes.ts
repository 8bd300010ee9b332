import { route, type RouteDef } from '../../http/route.js';
import { orderAnswer } from './orders.js';
import { bulkMetadata, presentTransactions, transactionsAnswer } from './present.js';
import {
  addPaymentsRequest, bulkMarkAsPaidRequest, bulkUpdatePaymentStatusesRequest, captureRequest, chargeMembershipsRequest,
  createGatewayOrderRequest, listByIdsRequest, manualPaymentRequest, orderIdRequest, orderTransactionsRequest, payGatewayOrderRequest,
  prepareRequest, triggerRefundRequest, updatePaymentStatusRequest, voidRequest,
} from './schema.js';
import {
  addPayments, bulkMarkOrdersAsPaid, bulkUpdatePaymentStatuses, captureAuthorizedPayments, chargeMemberships, createPaymentGatewayOrder,
  getCollectability, getRefundability, listTransactions, loadLedger, loadLedgers, markOrderAsPaid, payGatewayOrder, preparePaymentCollection,
  recordManualPayment, triggerRefund, updatePaymentStatus, voidAuthorizedPayments,
} from './service.js';

const tag = 'Payments';
const COLLECTOR = '/ecom/v1/payments-collector/orders';

/**
 * The payments collector and order transactions calls (docs/payments.md). Everything that moves or
 * records money is elevated and honours Idempotency-Key; buyers pay only through a payment gateway
 * order (the hosted-payment call below) or the checkout.
 */
export const paymentsRoutes: RouteDef[] = [
  route({
    method: 'POST', path: `${COLLECTOR}/:ecomOrderId/prepare-payment-collection`, access: 'elevated', tag, idempotent: true,
    summary: 'Open (or reset) a payment gateway order for an amount of the order, optionally with delayed capture',
    request: prepareRequest,
    handler: async (ctx, input) => ({ paymentGatewayOrderId: await preparePaymentCollection(ctx, input.ecomOrderId, { ...input, amount: input.amount.amount }) }),
  }),
  route({
    method: 'POST', path: `${COLLECTOR}/:ecomOrderId/create-payment-gateway-order`, access: 'elevated', tag, idempotent: true,
    summary: 'Open a payment gateway order for what is left to pay of the order',
    request: createGatewayOrderRequest,
    handler: async (ctx, input) => ({ paymentGatewayOrderId: await createPaymentGatewayOrder(ctx, input.ecomOrderId, input.chargedBy) }),
  }),
  route({
    method: 'GET', path: `${COLLECTOR}/:ecomOrderId/payment-collectability-status`, access: 'elevated', tag,
    summary: 'Whether money can be collected for the order now, and how much',
    request: orderIdRequest,
    handler: async (ctx, input) => {
      const { status, amount } = await getCollectability(ctx, input.ecomOrderId);
      return { status, amount: { amount } };
    },
  }),
  route({
    method: 'POST', path: `${COLLECTOR}/:orderId/manual-payment`, access: 'elevated', tag, idempotent: true,
    summary: 'Record money collected offline as an approved payment of the order',
    request: manualPaymentRequest,
    handler: async (ctx, input) => {
      await recordManualPayment(ctx, input.orderId, input.amount.amount);
      return {};
    },
  }),
  route({
    method: 'POST', path: `${COLLECTOR}/:ecomOrderId/mark-as-paid`, access: 'elevated', tag, idempotent: true,
    summary: 'Mark the order paid: offline payments are confirmed and the rest recorded as an offline payment',
    request: orderIdRequest,
    handler: async (ctx, input) => {
      await markOrderAsPaid(ctx, input.ecomOrderId);
      return orderAnswer(ctx, input.ecomOrderId);
    },
  }),
  route({
    method: 'POST', path: '/v1/bulk/payments-collector/mark-as-paid', access: 'elevated', tag, idempotent: true,
    summary: 'Mark several orders paid, each on its own; refused orders are failed items',
    request: bulkMarkAsPaidRequest,
    handler: async (ctx, input) => {
      const items = await bulkMarkOrdersAsPaid(ctx, input.ecomOrderIds);
      return { results: items.map((itemMetadata) => ({ itemMetadata })), bulkActionMetadata: bulkMetadata(items) };
    },
  }),
  route({
    method: 'GET', path: `${COLLECTOR}/:ecomOrderId/refundability`, access: 'elevated', tag,
    summary: 'Whether and how each payment of the order can be refunded',
    request: orderIdRequest,
    handler: (ctx, input) => getRefundability(ctx, input.ecomOrderId),
  }),
  route({
    method: 'POST', path: `${COLLECTOR}/:ecomOrderId/charge-membership`, access: 'elevated', tag, idempotent: true,
    summary: 'Pay line items of the order with the buyer\'s memberships',
    request: chargeMembershipsRequest,
    handler: async (ctx, input) => {
      await chargeMemberships(ctx, input.ecomOrderId, input.memberId, input.membershipCharges);
      return {};
    },
  }),
  route({
    method: 'POST', path: `${COLLECTOR}/:ecomOrderId/trigger-refund`, access: 'elevated', tag, idempotent: true,
    summary: 'Refund a payment of the order: an amount, line items (with restock), shipping, fees',
    request: triggerRefundRequest,
    handler: async (ctx, input) => {
      const result = await triggerRefund(ctx, input.ecomOrderId, {
        payments: input.payments.map((p) => ({ paymentId: p.paymentId, ...(p.amount ? { amount: p.amount.amount } : {}), ...(p.externalRefund !== undefined ? { externalRefund: p.externalRefund } : {}) })),
        ...(input.details ? { details: input.details } : {}),
        ...(input.sideEffects ? { sideEffects: input.sideEffects } : {}),
      });
      return { orderTransactions: presentTransactions(await loadLedger(ctx, input.ecomOrderId)), ...result };
    },
  }),
  route({
    method: 'POST', path: `${COLLECTOR}/:ecomOrderId/void-authorized-payments`, access: 'elevated', tag, idempotent: true,
    summary: 'Release authorized payments of the order',
    request: voidRequest,
    handler: async (ctx, input) => {
      await voidAuthorizedPayments(ctx, input.ecomOrderId, input.paymentIds);
      return transactionsAnswer(await loadLedger(ctx, input.ecomOrderId));
    },
  }),
  route({
    method: 'POST', path: `${COLLECTOR}/:ecomOrderId/capture-authorized-payments`, access: 'elevated', tag, idempotent: true,
    summary: 'Capture authorized payments of the order, each whole or in part',
    request: captureRequest,
    handler: async (ctx, input) => {
      await captureAuthorizedPayments(ctx, input.ecomOrderId, input.payments.map((p) => ({ paymentId: p.paymentId, ...(p.amount ? { amount: p.amount.amount } : {}) })));
      return transactionsAnswer(await loadLedger(ctx, input.ecomOrderId));
    },
  }),

  // order transactions
  route({
    method: 'GET', path: '/ecom/v1/payments/orders/:orderId', access: 'elevated', tag,
    summary: 'Every payment and refund of an order',
    request: orderTransactionsRequest,
    handler: async (ctx, input) => transactionsAnswer(await listTransactions(ctx, input.orderId)),
  }),
  route({
    method: 'POST', path: '/ecom/v1/payments/list-by-ids', access: 'elevated', tag,
    summary: 'Every payment and refund of several orders',
    request: listByIdsRequest,
    handler: async (ctx, input) => ({ orderTransactions: (await loadLedgers(ctx, [...new Set(input.orderIds)])).map(presentTransactions) }),
  }),
  route({
    method: 'POST', path: '/ecom/v1/payments/orders/:orderId/add-payment', access: 'elevated', tag, idempotent: true,
    summary: 'Record payments taken outside (another gateway, offline)',
    request: addPaymentsRequest,
    handler: async (ctx, input) => {
      const paymentsIds = await addPayments(ctx, input.orderId, input.payments);
      return { ...transactionsAnswer(await loadLedger(ctx, input.orderId)), paymentsIds };
    },
  }),
  route({
    method: 'POST', path: '/ecom/v1/payments/:paymentId/orders/:orderId/update-payment-transaction-status', access: 'elevated', tag, idempotent: true,
    summary: 'Set a pending payment\'s status (received, declined, canceled)',
    request: updatePaymentStatusRequest,
    handler: async (ctx, input) => {
      await updatePaymentStatus(ctx, input.orderId, input.paymentId, input.status);
      return transactionsAnswer(await loadLedger(ctx, input.orderId));
    },
  }),
  route({
    method: 'POST', path: '/ecom/v1/bulk/payments/update-payment-transaction-status', access: 'elevated', tag, idempotent: true,
    summary: 'Set the status of several payments, each on its own',
    request: bulkUpdatePaymentStatusesRequest,
    handler: async (ctx, input) => {
      const results = await bulkUpdatePaymentStatuses(ctx, input.paymentAndOrderIds, input.status, input.returnFullEntity ?? false);
      return { results, bulkActionMetadata: bulkMetadata(results.map((r) => r.itemMetadata)) };
    },
  }),

  // hosted payment (our extension): the buyer pays a payment gateway order with a card
  route({
    method: 'POST', path: '/_api/vitrine/payments/v1/gateway-orders/:paymentGatewayOrderId/pay', access: 'visitor', tag, idempotent: true,
    summary: 'Pay a payment gateway order with a card (test provider card numbers in docs/payments.md)',
    request: payGatewayOrderRequest,
    handler: async (ctx, input) => {
      const result = await payGatewayOrder(ctx, input.paymentGatewayOrderId, input.card);
      return { paymentId: result.transactionId, status: result.status, ...(result.declineCode ? { declinedReason: result.declineCode } : {}) };
    },
  }),
];
