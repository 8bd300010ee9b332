/**
 * The frame of every change of an order's payments: one transaction that reads the order, takes the
 * order's payments lock (PostgreSQL; a SQLite transaction holds the database's write lock already),
 * reads its payments, lets the change run, and stores the payment status the payments now give on the
 * order (through the orders domain) before it commits.
 */
import type { RequestContext } from '../../http/context.js';
import { needsRowLocks } from '../../storage/dialect.js';
import { inTransaction } from '../../storage/transaction.js';
import type { OrderLedger, OrderPaymentStatus, Payment } from './model.js';
import { toAmount, toMinor } from './money.js';
import { loadOrder, updateOrderPayment, type OrderForPayment, type PaymentUpdate } from './orders.js';
import { listPayments, listRefunds, lockOrderPayments } from './store.js';
import { orderMoney, orderPaymentStatus, wasPaid } from './status.js';

export interface OrderPayments {
  /** The request context on the change's transaction. */
  ctx: RequestContext;
  order: OrderForPayment;
  /** The order's total in minor units. */
  total: bigint;
  /** The order's payments when the lock was taken. */
  payments: Payment[];
  /** The payment status those payments gave. */
  before: OrderPaymentStatus;
  now: string;
}

export async function withOrderPayments<T>(ctx: RequestContext, orderId: string, fn: (op: OrderPayments) => Promise<T>): Promise<T> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx: RequestContext = { ...ctx, db: trx };
    // The order first: an unknown id is a 404 before anything is written.
    const order = await loadOrder(tctx, orderId);
    if (needsRowLocks(ctx.dialect)) await lockOrderPayments(trx, ctx.site.id, order.id);
    return frame(tctx, order, fn);
  });
}

/** The same frame for answers that change nothing (collectability, refundability): no transaction, no lock. */
export async function readOrderPayments<T>(ctx: RequestContext, orderId: string, fn: (op: OrderPayments) => Promise<T>): Promise<T> {
  return frame(ctx, await loadOrder(ctx, orderId), fn);
}

async function frame<T>(ctx: RequestContext, order: OrderForPayment, fn: (op: OrderPayments) => Promise<T>): Promise<T> {
  const payments = await listPayments(ctx.db, ctx.site.id, [order.id]);
  const total = toMinor(order.total, order.currency, 'order.total', { allowZero: true });
  return fn({ ctx, order, total, payments, before: orderPaymentStatus(total, payments), now: new Date().toISOString() });
}

export type ActivityType =
  | 'ORDER_REFUNDED' | 'AUTHORIZED_PAYMENT_CREATED' | 'AUTHORIZED_PAYMENT_CAPTURED' | 'AUTHORIZED_PAYMENT_VOIDED'
  | 'REFUND_INITIATED' | 'PAYMENT_REFUND_FAILED' | 'PAYMENT_PENDING' | 'PAYMENT_DECLINED' | 'PAYMENT_CANCELED';

export interface SyncExtras {
  /** What happened, for the order's activity log (`amount` only on refund activities). */
  activity?: { type: ActivityType; amount?: string };
  refund?: PaymentUpdate['refund'];
}

/**
 * Stores on the order the payment status its payments give now, the amount paid, the change's
 * activity and refund effects (restock, e-mail). Becoming PAID is reported once (`becamePaid`), so the order is
 * approved, stock committed and the paid e-mail sent once however the money arrived; the orders
 * domain records ORDER_PAID after the change's own activity (a capture shows as captured, then paid).
 */
export async function syncOrder(op: OrderPayments, extras: SyncExtras = {}): Promise<OrderPaymentStatus> {
  const payments = await listPayments(op.ctx.db, op.ctx.site.id, [op.order.id]);
  const after = orderPaymentStatus(op.total, payments);
  const becamePaid = after === 'PAID' && !wasPaid(op.before);
  const activity = extras.activity ?? (!becamePaid && after === 'PARTIALLY_PAID' && op.before !== after ? { type: 'ORDER_PARTIALLY_PAID' as const } : undefined);
  const captured = orderMoney(op.total, payments).captured;
  // The paid amount too: a second partial payment leaves the status as it was but not the balance.
  const paidMoved = captured !== toMinor(op.order.paid, op.order.currency, 'order.paid', { allowZero: true });
  if (after !== op.order.paymentStatus || paidMoved || becamePaid || activity || extras.refund) {
    await updateOrderPayment(op.ctx, op.order.id, {
      paymentStatus: after,
      becamePaid,
      paidAmount: toAmount(captured, op.order.currency),
      ...(activity ? { activity } : {}),
      ...(extras.refund ? { refund: extras.refund } : {}),
    });
  }
  return after;
}

/** Every payment and refund of the orders (in the order given; unknown ids get empty lists). */
export async function loadLedgers(ctx: RequestContext, orderIds: readonly string[]): Promise<OrderLedger[]> {
  const [payments, refunds] = await Promise.all([listPayments(ctx.db, ctx.site.id, orderIds), listRefunds(ctx.db, ctx.site.id, orderIds)]);
  return orderIds.map((orderId) => {
    const own = payments.filter((p) => p.orderId === orderId);
    const ownRefunds = refunds.filter((r) => r.orderId === orderId);
    return { orderId, currency: own[0]?.currency ?? ownRefunds[0]?.currency ?? '', payments: own, refunds: ownRefunds };
  });
}

export async function loadLedger(ctx: RequestContext, orderId: string): Promise<OrderLedger> {
  const [ledger] = await loadLedgers(ctx, [orderId]);
  return ledger!;
}
