/**
 * Owner hooks for running one order: its payments and refunds, fulfillments, tags, comments and edits,
 * and the abandoned-checkout list. Every mutation refetches everything under the orders key, so the
 * order, its timeline, its transactions and the lists all show the write at once.
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule, type ClientCore } from '@vitrine/sdk';
import { abandonedCheckouts, orderFulfillments, orders, orderTransactions } from '@vitrine/sdk/ecom';
import { useVitrineMutation } from './mutation.js';
import { useVitrineClient } from './provider.js';

const ORDERS = ['vitrine', 'orders'] as const;
const ABANDONED = ['vitrine', 'abandoned-checkouts'] as const;
/** Abandoned checkouts one page shows. */
export const ABANDONED_PAGE = 25;

type Price = { amount: string };

/** The order's payments and refunds (`orderTransactions.listTransactionsForSingleOrder`). */
export function useOrderTransactions(orderId: string | undefined): UseQueryResult<orderTransactions.OrderTransactions> {
  const client = useVitrineClient();
  return useQuery({
    queryKey: [...ORDERS, 'transactions', orderId ?? ''],
    queryFn: async () => (await bindModule(orderTransactions, client).listTransactionsForSingleOrder(orderId!)).orderTransactions,
    enabled: Boolean(orderId),
  });
}

/** The order's fulfillments (`orderFulfillments.listFulfillmentsForSingleOrder`). */
export function useOrderFulfillments(orderId: string | undefined) {
  const client = useVitrineClient();
  return useQuery({
    queryKey: [...ORDERS, 'fulfillments', orderId ?? ''],
    queryFn: async () => (await bindModule(orderFulfillments, client).listFulfillmentsForSingleOrder(orderId!)).orderWithFulfillments.fulfillments,
    enabled: Boolean(orderId),
  });
}

/** Whether, and how much, the order can still be refunded (`orders.getRefundabilityStatus`). */
export function useRefundability(orderId: string | undefined) {
  const client = useVitrineClient();
  return useQuery({ queryKey: [...ORDERS, 'refundability', orderId ?? ''], queryFn: () => bindModule(orders, client).getRefundabilityStatus(orderId!), enabled: Boolean(orderId) });
}

/** Whether the order can still be charged, and how much (`orders.getPaymentCollectabilityStatus`). */
export function useCollectability(orderId: string | undefined) {
  const client = useVitrineClient();
  return useQuery({ queryKey: [...ORDERS, 'collectability', orderId ?? ''], queryFn: () => bindModule(orders, client).getPaymentCollectabilityStatus(orderId!), enabled: Boolean(orderId) });
}

/** One owner action on an order; afterwards everything about orders is refetched. */
function useOrderAction<V, R>(run: (client: ClientCore, v: V) => Promise<R>) {
  return useVitrineMutation(run, () => [ORDERS]);
}

export const useMarkOrderPaid = () => useOrderAction((c, orderId: string) => bindModule(orders, c).paymentCollectionMarkOrderAsPaid(orderId));
export const useRecordManualPayment = () =>
  useOrderAction((c, v: { orderId: string; amount: Price }) => bindModule(orders, c).recordManuallyCollectedPayment(v.orderId, v.amount));
export const useCapturePayment = () =>
  useOrderAction((c, v: { orderId: string; paymentId: string; amount?: Price }) =>
    bindModule(orders, c).captureAuthorizedPayments(v.orderId, [{ paymentId: v.paymentId, ...(v.amount ? { amount: v.amount } : {}) }]));
export const useVoidPayment = () =>
  useOrderAction((c, v: { orderId: string; paymentId: string }) => bindModule(orders, c).voidAuthorizedPayments(v.orderId, [v.paymentId]));

export interface RefundRequest {
  orderId: string;
  paymentId: string;
  amount: Price;
  /** Line items and quantities the refund covers (empty: an amount only). */
  items: { lineItemId: string; quantity: number }[];
  restock: boolean;
  reason?: string;
  sendEmail: boolean;
}
export const useRefundOrder = () =>
  useOrderAction((c, v: RefundRequest) =>
    bindModule(orders, c).triggerRefund(v.orderId, [{ paymentId: v.paymentId, amount: v.amount }], {
      details: { items: v.items, ...(v.reason ? { reason: v.reason } : {}) },
      sideEffects: {
        restockInfo: v.restock && v.items.length > 0 ? { type: 'SOME_ITEMS', items: v.items } : { type: 'NO_ITEMS' },
        sendOrderRefundedEmail: v.sendEmail,
      },
    }));

export interface FulfillmentDraft { lineItems: { _id: string; quantity: number }[]; trackingNumber: string; carrier: string; trackingLink?: string }
const fulfillmentInput = (f: FulfillmentDraft) => ({
  lineItems: f.lineItems,
  trackingInfo: { trackingNumber: f.trackingNumber || null, shippingProvider: f.carrier || null, trackingLink: f.trackingLink || null },
});
export const useCreateFulfillment = () =>
  useOrderAction((c, v: { orderId: string; fulfillment: FulfillmentDraft }) => bindModule(orderFulfillments, c).createFulfillment(v.orderId, fulfillmentInput(v.fulfillment)));
export const useUpdateFulfillment = () =>
  useOrderAction((c, v: { orderId: string; fulfillmentId: string; fulfillment: FulfillmentDraft }) =>
    bindModule(orderFulfillments, c).updateFulfillment({ orderId: v.orderId, fulfillmentId: v.fulfillmentId }, fulfillmentInput(v.fulfillment)));
export const useDeleteFulfillment = () =>
  useOrderAction((c, v: { orderId: string; fulfillmentId: string }) => bindModule(orderFulfillments, c).deleteFulfillment(v));

export const useOrderTags = () =>
  useOrderAction((c, v: { orderId: string; assign?: string[]; unassign?: string[] }) =>
    bindModule(orders, c).bulkUpdateOrderTags([v.orderId], {
      ...(v.assign?.length ? { assignTags: { tags: { tagIds: v.assign } } } : {}),
      ...(v.unassign?.length ? { unassignTags: { tags: { tagIds: v.unassign } } } : {}),
    }));

export const useAddOrderComment = () =>
  useOrderAction((c, v: { orderId: string; message: string }) => bindModule(orders, c).addActivity(v.orderId, { merchantComment: { message: v.message } }));
export const useUpdateOrderComment = () =>
  useOrderAction((c, v: { orderId: string; activityId: string; message: string }) =>
    bindModule(orders, c).updateActivity(v.orderId, v.activityId, { merchantComment: { message: v.message } }));
export const useDeleteOrderComment = () =>
  useOrderAction((c, v: { orderId: string; activityId: string }) => bindModule(orders, c).deleteActivity(v.orderId, v.activityId));

/** An order edit as the server takes it: new quantities per line item (0 removes the line). */
const quantityChanges = (quantities: Record<string, number>): orders.DraftChanges => ({
  lineItems: Object.entries(quantities).map(([lineItemId, quantity]) =>
    quantity === 0 ? { lineItemId, lineItemRemoved: true } : { lineItemId, changedDetails: { quantity } }),
});

/**
 * The draft of an order edit: the order as it would be after the changes (`orders.previewDeltas`,
 * nothing stored; the same refusals as the commit). Keyed by the changes, so each edit previews once.
 */
export function useOrderEditPreview(orderId: string, quantities: Record<string, number>) {
  const client = useVitrineClient();
  return useQuery({
    queryKey: [...ORDERS, 'edit-preview', orderId, quantities],
    queryFn: async () => (await bindModule(orders, client).previewDeltas(orderId, quantityChanges(quantities))).order,
    enabled: Object.keys(quantities).length > 0,
    retry: false,
  });
}

/** Commits the edit the preview showed (`orders.commitDeltas`, a new draft id each time). */
export const useEditOrderQuantities = () =>
  useOrderAction((c, v: { orderId: string; quantities: Record<string, number>; reason?: string }) =>
    bindModule(orders, c).commitDeltas(v.orderId, {
      draftOrderId: `edit-${v.orderId}-${Date.now()}`,
      changes: quantityChanges(v.quantities),
      ...(v.reason ? { reason: v.reason } : {}),
    }));

/** Abandoned checkouts, newest first (`abandonedCheckouts.searchAbandonedCheckouts`). */
export function useAbandonedCheckouts(status: string, cursor: string | undefined) {
  const client = useVitrineClient();
  return useQuery({
    queryKey: [...ABANDONED, status, cursor ?? ''],
    queryFn: () => bindModule(abandonedCheckouts, client).searchAbandonedCheckouts({
      ...(status ? { filter: { status } } : {}),
      sort: [{ fieldName: '_createdDate', order: 'DESC' }],
      cursorPaging: { limit: ABANDONED_PAGE, ...(cursor ? { cursor } : {}) },
    }),
  });
}
export const useDeleteAbandonedCheckout = () =>
  useVitrineMutation((c, id: string) => bindModule(abandonedCheckouts, c).deleteAbandonedCheckout(id), () => [ABANDONED]);
