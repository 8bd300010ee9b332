import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../storage/database.js';
import type { Bool01 } from '../../storage/schema.js';
import { allColumns, columnsOf, preparedQuery } from '../../storage/prepared.js';
import type {
  CaptureStatus, GatewayOrder, Payment, PaymentExtras, PaymentKind, ProviderName, Refund, RefundDetails, RefundTransactionRecord,
  RefundTransactionStatus, RestockLine, TransactionPaymentStatus,
} from './model.js';

/** bigint columns: PostgreSQL's driver answers text, SQLite's a number; amounts stay below 2^53. */
type BigCol = string | number | bigint;

interface PaymentsTable {
  id: string;
  site_id: string;
  order_id: string;
  position: number;
  kind: PaymentKind;
  provider: ProviderName;
  currency: string;
  amount: BigCol;
  status: TransactionPaymentStatus;
  captured: BigCol;
  refunded: BigCol;
  refund_pending: BigCol;
  offline: Bool01;
  refund_disabled: Bool01;
  declined_reason: string | null;
  card_brand: string | null;
  card_last4: string | null;
  payment_method: string | null;
  provider_transaction_id: string | null;
  gateway_order_id: string | null;
  charge_correlation_id: string | null;
  delayed_capture: Bool01;
  authorized_date: string | null;
  capture_id: string | null;
  capture_status: CaptureStatus | null;
  capture_amount: BigCol | null;
  capture_date: string | null;
  capture_failure: string | null;
  void_status: CaptureStatus | null;
  void_date: string | null;
  void_reason: string | null;
  void_failure: string | null;
  extras: string;
  created_date: string;
  updated_date: string;
}

interface PaymentRefundsTable {
  id: string;
  site_id: string;
  order_id: string;
  position: number;
  currency: string;
  details: string;
  restock: string;
  created_date: string;
}

interface PaymentRefundTransactionsTable {
  site_id: string;
  refund_id: string;
  payment_id: string;
  amount: BigCol;
  status: RefundTransactionStatus;
  external: Bool01;
  provider_refund_id: string | null;
  reason_code: string | null;
  description: string | null;
  created_date: string;
  updated_date: string;
}

interface PaymentGatewayOrdersTable {
  id: string;
  site_id: string;
  order_id: string;
  currency: string;
  amount: BigCol;
  delayed_capture: Bool01;
  scheduled_action: 'VOID' | 'CAPTURE' | null;
  delay_minutes: number | null;
  status: 'OPEN' | 'PAID' | 'CANCELED';
  charged_by: string | null;
  created_date: string;
  updated_date: string;
}

interface PaymentOrderLocksTable {
  site_id: string;
  order_id: string;
  version: number;
}

declare module '../../storage/schema.js' {
  interface Database {
    payments: PaymentsTable;
    payment_refunds: PaymentRefundsTable;
    payment_refund_transactions: PaymentRefundTransactionsTable;
    payment_gateway_orders: PaymentGatewayOrdersTable;
    payment_order_locks: PaymentOrderLocksTable;
  }
}

const big = (v: BigCol): bigint => BigInt(v);
const bit = (b: boolean): Bool01 => (b ? 1 : 0);
/** Amounts are written as decimal text: exact on both drivers (SQLite's integer affinity stores them as integers). */
const text = (v: bigint): string => v.toString();

const orderPaymentsLock = preparedQuery((db, p: { siteId: string; orderId: string }) => db.insertInto('payment_order_locks')
  .values({ site_id: p.siteId, order_id: p.orderId, version: 1 })
  .onConflict((oc) => oc.columns(['site_id', 'order_id']).doUpdateSet({ version: sql`payment_order_locks.version + 1` })));

/**
 * Serializes every change of one order's payments on PostgreSQL: the first statement of each changing
 * transaction (upsert bumping the order's row: a row lock until commit), so a second change of the same
 * order waits instead of charging too. SQLite needs none: its transactions begin holding the
 * database's one write lock (storage/database.ts), so a second process's change waits at its begin.
 */
export async function lockOrderPayments(db: Executor, siteId: string, orderId: string): Promise<void> {
  await orderPaymentsLock.run(db, { siteId, orderId });
}

function toPayment(r: Selectable<PaymentsTable>): Payment {
  return {
    id: r.id, siteId: r.site_id, orderId: r.order_id, kind: r.kind, provider: r.provider, currency: r.currency,
    amount: big(r.amount), status: r.status, captured: big(r.captured), refunded: big(r.refunded), refundPending: big(r.refund_pending),
    offline: r.offline === 1, refundDisabled: r.refund_disabled === 1,
    declinedReason: r.declined_reason as Payment['declinedReason'],
    cardBrand: r.card_brand, cardLast4: r.card_last4, paymentMethod: r.payment_method,
    providerTransactionId: r.provider_transaction_id, gatewayOrderId: r.gateway_order_id, chargeCorrelationId: r.charge_correlation_id,
    delayedCapture: r.delayed_capture === 1, authorizedDate: r.authorized_date,
    capture: r.capture_id && r.capture_status && r.capture_amount !== null && r.capture_date
      ? { id: r.capture_id, status: r.capture_status, amount: big(r.capture_amount), createdDate: r.capture_date, failureCode: r.capture_failure }
      : null,
    void: r.void_status && r.void_date
      ? { status: r.void_status, date: r.void_date, reason: r.void_reason === 'SCHEDULED' ? 'SCHEDULED' : 'MANUAL', failureCode: r.void_failure }
      : null,
    extras: JSON.parse(r.extras) as PaymentExtras,
    createdDate: r.created_date, updatedDate: r.updated_date,
  };
}

const PAYMENT_COLUMNS = allColumns<PaymentsTable>({
  id: true, site_id: true, order_id: true, position: true, kind: true, provider: true, currency: true, amount: true, status: true, captured: true,
  refunded: true, refund_pending: true, offline: true, refund_disabled: true, declined_reason: true, card_brand: true, card_last4: true,
  payment_method: true, provider_transaction_id: true, gateway_order_id: true, charge_correlation_id: true, delayed_capture: true,
  authorized_date: true, capture_id: true, capture_status: true, capture_amount: true, capture_date: true, capture_failure: true,
  void_status: true, void_date: true, void_reason: true, void_failure: true, extras: true, created_date: true, updated_date: true,
});
const paymentInsert = preparedQuery((db, p: PaymentsTable) => db.insertInto('payments').values(columnsOf(p, PAYMENT_COLUMNS)));

/** Inserts a payment as the order's `position`-th (callers hold the order's payments lock). */
export async function insertPayment(db: Executor, p: Payment, position: number): Promise<void> {
  await paymentInsert.run(db, {
    id: p.id, site_id: p.siteId, order_id: p.orderId, position, kind: p.kind, provider: p.provider, currency: p.currency,
    amount: text(p.amount), status: p.status, captured: text(p.captured), refunded: text(p.refunded), refund_pending: text(p.refundPending),
    offline: bit(p.offline), refund_disabled: bit(p.refundDisabled), declined_reason: p.declinedReason,
    card_brand: p.cardBrand, card_last4: p.cardLast4, payment_method: p.paymentMethod,
    provider_transaction_id: p.providerTransactionId, gateway_order_id: p.gatewayOrderId, charge_correlation_id: p.chargeCorrelationId,
    delayed_capture: bit(p.delayedCapture), authorized_date: p.authorizedDate,
    capture_id: p.capture?.id ?? null, capture_status: p.capture?.status ?? null, capture_amount: p.capture ? text(p.capture.amount) : null,
    capture_date: p.capture?.createdDate ?? null, capture_failure: p.capture?.failureCode ?? null,
    void_status: p.void?.status ?? null, void_date: p.void?.date ?? null, void_reason: p.void?.reason ?? null, void_failure: p.void?.failureCode ?? null,
    extras: JSON.stringify(p.extras), created_date: p.createdDate, updated_date: p.updatedDate,
  });
}

export async function listPayments(db: Executor, siteId: string, orderIds: readonly string[]): Promise<Payment[]> {
  if (orderIds.length === 0) return [];
  const rows = await db.selectFrom('payments').selectAll()
    .where('site_id', '=', siteId).where('order_id', 'in', orderIds)
    .orderBy('order_id').orderBy('position').execute();
  return rows.map(toPayment);
}

export async function findPayment(db: Executor, siteId: string, paymentId: string): Promise<Payment | undefined> {
  const row = await db.selectFrom('payments').selectAll().where('site_id', '=', siteId).where('id', '=', paymentId).executeTakeFirst();
  return row ? toPayment(row) : undefined;
}

/** The fields a state change may set. */
export interface PaymentPatch {
  status?: TransactionPaymentStatus;
  captured?: bigint;
  declinedReason?: string | null;
  providerTransactionId?: string | null;
  authorizedDate?: string;
  capture?: { id: string; status: CaptureStatus; amount: bigint; date: string; failureCode: string | null };
  void?: { status: CaptureStatus; date: string; reason: 'MANUAL' | 'SCHEDULED'; failureCode: string | null };
  offline?: boolean;
}

/**
 * Changes a payment only while it is still in one of `fromStatuses` (and, with `captureNotPending`, no
 * capture or void of it is in flight): a repeated or concurrent state change finds nothing to change. Returns
 * whether it changed the row.
 */
export async function updatePaymentGuarded(
  db: Executor, siteId: string, paymentId: string,
  guard: { fromStatuses: readonly TransactionPaymentStatus[]; captureNotPending?: boolean },
  patch: PaymentPatch, now: string,
): Promise<boolean> {
  let q = db.updateTable('payments').set({
    updated_date: now,
    ...(patch.status !== undefined ? { status: patch.status } : {}),
    ...(patch.captured !== undefined ? { captured: text(patch.captured) } : {}),
    ...(patch.declinedReason !== undefined ? { declined_reason: patch.declinedReason } : {}),
    ...(patch.providerTransactionId !== undefined ? { provider_transaction_id: patch.providerTransactionId } : {}),
    ...(patch.authorizedDate !== undefined ? { authorized_date: patch.authorizedDate } : {}),
    ...(patch.offline !== undefined ? { offline: bit(patch.offline) } : {}),
    ...(patch.capture ? {
      capture_id: patch.capture.id, capture_status: patch.capture.status, capture_amount: text(patch.capture.amount),
      capture_date: patch.capture.date, capture_failure: patch.capture.failureCode,
    } : {}),
    ...(patch.void ? { void_status: patch.void.status, void_date: patch.void.date, void_reason: patch.void.reason, void_failure: patch.void.failureCode } : {}),
  }).where('site_id', '=', siteId).where('id', '=', paymentId).where('status', 'in', guard.fromStatuses);
  if (guard.captureNotPending) {
    q = q.where((eb) => eb.or([eb('capture_status', 'is', null), eb('capture_status', '!=', 'PENDING')]))
      .where((eb) => eb.or([eb('void_status', 'is', null), eb('void_status', '!=', 'PENDING')]));
  }
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Statuses whose captured money may be refunded. */
const REFUNDABLE_STATUSES: readonly TransactionPaymentStatus[] = ['APPROVED', 'PARTIALLY_REFUNDED'];

/**
 * Reserves `amount` of a payment for a refund in flight, in one guarded statement: it happens only
 * while refunded + in-flight + amount stays within what was captured, so concurrent refunds can never
 * add up to more than the payment.
 */
export async function reserveRefund(db: Executor, siteId: string, paymentId: string, amount: bigint, now: string): Promise<boolean> {
  const a = text(amount);
  const result = await db.updateTable('payments')
    .set({ refund_pending: sql`refund_pending + ${a}`, updated_date: now })
    .where('site_id', '=', siteId).where('id', '=', paymentId).where('status', 'in', REFUNDABLE_STATUSES)
    .where(sql<boolean>`refunded + refund_pending + ${a} <= captured`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends a reservation: a succeeded refund moves it to `refunded` (and the status with it); a failed one releases it. */
export async function settleRefund(db: Executor, siteId: string, paymentId: string, amount: bigint, succeeded: boolean, now: string): Promise<void> {
  const a = text(amount);
  const q = db.updateTable('payments').where('site_id', '=', siteId).where('id', '=', paymentId);
  if (succeeded) {
    await q.set({
      refund_pending: sql`refund_pending - ${a}`,
      refunded: sql`refunded + ${a}`,
      status: sql`CASE WHEN refunded + ${a} >= captured THEN 'REFUNDED' ELSE 'PARTIALLY_REFUNDED' END`,
      updated_date: now,
    }).execute();
  } else {
    await q.set({ refund_pending: sql`refund_pending - ${a}`, updated_date: now }).execute();
  }
}

/** Inserts a refund as the order's `position`-th (callers hold the order's payments lock). */
export async function insertRefund(db: Executor, siteId: string, refund: Refund, position: number, now: string): Promise<void> {
  await db.insertInto('payment_refunds').values({
    id: refund.id, site_id: siteId, order_id: refund.orderId, position, currency: refund.currency,
    details: JSON.stringify(refund.details), restock: JSON.stringify(refund.restock), created_date: refund.createdDate,
  }).execute();
  await db.insertInto('payment_refund_transactions').values(refund.transactions.map((t) => ({
    site_id: siteId, refund_id: refund.id, payment_id: t.paymentId, amount: text(t.amount), status: t.status, external: bit(t.external),
    provider_refund_id: t.providerRefundId, reason_code: t.reasonCode, description: t.description, created_date: now, updated_date: now,
  }))).execute();
}

/** Moves a refund transaction out of an in-flight status; false when it was already settled. */
export async function settleRefundTransaction(
  db: Executor, siteId: string, refundId: string, paymentId: string,
  to: { status: RefundTransactionStatus; providerRefundId?: string | null; reasonCode?: string | null; description?: string | null }, now: string,
): Promise<boolean> {
  const result = await db.updateTable('payment_refund_transactions')
    .set({
      status: to.status, updated_date: now,
      ...(to.providerRefundId !== undefined ? { provider_refund_id: to.providerRefundId } : {}),
      ...(to.reasonCode !== undefined ? { reason_code: to.reasonCode } : {}),
      ...(to.description !== undefined ? { description: to.description } : {}),
    })
    .where('site_id', '=', siteId).where('refund_id', '=', refundId).where('payment_id', '=', paymentId)
    .where('status', 'in', ['PENDING', 'SCHEDULED', 'STARTED'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findRefundTransaction(db: Executor, siteId: string, refundId: string, paymentId: string): Promise<RefundTransactionRecord | undefined> {
  const r = await db.selectFrom('payment_refund_transactions').selectAll()
    .where('site_id', '=', siteId).where('refund_id', '=', refundId).where('payment_id', '=', paymentId).executeTakeFirst();
  return r ? toRefundTransaction(r) : undefined;
}

function toRefundTransaction(r: Selectable<PaymentRefundTransactionsTable>): RefundTransactionRecord {
  return {
    paymentId: r.payment_id, amount: big(r.amount), status: r.status, external: r.external === 1,
    providerRefundId: r.provider_refund_id, reasonCode: r.reason_code, description: r.description,
  };
}

export async function listRefunds(db: Executor, siteId: string, orderIds: readonly string[]): Promise<Refund[]> {
  if (orderIds.length === 0) return [];
  const refunds = await db.selectFrom('payment_refunds').selectAll()
    .where('site_id', '=', siteId).where('order_id', 'in', orderIds)
    .orderBy('order_id').orderBy('position').execute();
  if (refunds.length === 0) return [];
  const transactions = await db.selectFrom('payment_refund_transactions').selectAll()
    .where('site_id', '=', siteId).where('refund_id', 'in', refunds.map((r) => r.id))
    .orderBy('created_date').orderBy('payment_id').execute();
  return refunds.map((r) => ({
    id: r.id, orderId: r.order_id, currency: r.currency,
    details: JSON.parse(r.details) as RefundDetails, restock: JSON.parse(r.restock) as RestockLine[],
    transactions: transactions.filter((t) => t.refund_id === r.id).map(toRefundTransaction),
    createdDate: r.created_date,
  }));
}

function toGatewayOrder(r: Selectable<PaymentGatewayOrdersTable>): GatewayOrder {
  return {
    id: r.id, orderId: r.order_id, currency: r.currency, amount: big(r.amount), delayedCapture: r.delayed_capture === 1,
    scheduledAction: r.scheduled_action, delayMinutes: r.delay_minutes, status: r.status, createdDate: r.created_date,
  };
}

export async function insertGatewayOrder(db: Executor, siteId: string, g: GatewayOrder, chargedBy: unknown, now: string): Promise<void> {
  await db.insertInto('payment_gateway_orders').values({
    id: g.id, site_id: siteId, order_id: g.orderId, currency: g.currency, amount: text(g.amount), delayed_capture: bit(g.delayedCapture),
    scheduled_action: g.scheduledAction, delay_minutes: g.delayMinutes, status: g.status,
    charged_by: chargedBy === undefined ? null : JSON.stringify(chargedBy), created_date: g.createdDate, updated_date: now,
  }).execute();
}

export async function findGatewayOrder(db: Executor, siteId: string, id: string): Promise<GatewayOrder | undefined> {
  const r = await db.selectFrom('payment_gateway_orders').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
  return r ? toGatewayOrder(r) : undefined;
}

/** Resets an open gateway order's amount and capture settings (prepare-payment-collection with an existing id). */
export async function updateOpenGatewayOrder(
  db: Executor, siteId: string, id: string,
  set: { amount: bigint; delayedCapture: boolean; scheduledAction: 'VOID' | 'CAPTURE' | null; delayMinutes: number | null }, now: string,
): Promise<boolean> {
  const result = await db.updateTable('payment_gateway_orders')
    .set({ amount: text(set.amount), delayed_capture: bit(set.delayedCapture), scheduled_action: set.scheduledAction, delay_minutes: set.delayMinutes, updated_date: now })
    .where('site_id', '=', siteId).where('id', '=', id).where('status', '=', 'OPEN')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Closes an open gateway order once it is paid (only one payment can do so). */
export async function closeGatewayOrder(db: Executor, siteId: string, id: string, now: string): Promise<boolean> {
  const result = await db.updateTable('payment_gateway_orders').set({ status: 'PAID', updated_date: now })
    .where('site_id', '=', siteId).where('id', '=', id).where('status', '=', 'OPEN')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
