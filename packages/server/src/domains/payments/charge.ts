/**
 * Taking money for an order: card charges through the online provider (checkout, payment gateway
 * orders), offline payments (manual provider), mark as paid, membership charges; and what an order
 * still lets one collect.
 */
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import { ApplicationError, conflict, notFound, violation } from '../../http/errors.js';
import { enqueueJob } from '../../jobs/service.js';
import { providerCall } from './call.js';
import { inTransaction } from '../../storage/transaction.js';
import { assertChargeableCard } from './card.js';
import { scheduledActionJob } from './scheduled-job.js';
import { readOrderPayments, syncOrder, withOrderPayments, type OrderPayments } from './ledger.js';
import type {
  DeclinedReason, GatewayOrder, OrderPaymentStatus, Payment, PaymentCard, PaymentCollectabilityStatus, PaymentExtras, PaymentKind,
  ProviderName, TransactionPaymentStatus,
} from './model.js';
import { toAmount, toMinor } from './money.js';
import { onlineProvider } from './providers/index.js';
import {
  closeGatewayOrder, findGatewayOrder, insertGatewayOrder, insertPayment, updateOpenGatewayOrder, updatePaymentGuarded,
} from './store.js';
import { orderMoney } from './status.js';

/** Longest delay of a delayed capture's scheduled action. */
export const MAX_SCHEDULED_ACTION_MINUTES = 30 * 24 * 60;
/** Delay of a scheduled action when the collection names none (the provider's default). */
export const DEFAULT_SCHEDULED_ACTION_MINUTES = 7 * 24 * 60;

export type ChargePayment =
  | { method: 'CARD'; card: PaymentCard }
  | { method: 'MANUAL' };

export interface ChargeResult {
  transactionId: string;
  status: TransactionPaymentStatus;
  declineCode?: DeclinedReason;
}

function assertOpenForPayment(op: OrderPayments): void {
  if (op.order.status === 'CANCELED') throw conflict('ORDER_CANCELED', 'The order is canceled');
}

function assertUnpaid(op: OrderPayments): bigint {
  const money = orderMoney(op.total, op.payments);
  if (money.balance <= 0n) throw conflict('ORDER_ALREADY_PAID', 'Nothing is left to pay on this order', { paymentStatus: op.before });
  return money.balance;
}

interface NewPayment {
  kind?: PaymentKind;
  provider: ProviderName;
  amount: bigint;
  status: TransactionPaymentStatus;
  offline: boolean;
  paymentMethod: string | null;
  declinedReason?: DeclinedReason | null;
  cardBrand?: string | null;
  cardLast4?: string | null;
  providerTransactionId?: string | null;
  gatewayOrderId?: string | null;
  chargeCorrelationId?: string | null;
  delayedCapture?: boolean;
  refundDisabled?: boolean;
  extras?: PaymentExtras;
  createdDate?: string;
}

/** Writes a payment row of the order (the caller syncs the order afterwards). */
export async function recordPayment(op: OrderPayments, id: string, p: NewPayment): Promise<Payment> {
  const captured = p.status === 'APPROVED' ? p.amount : 0n;
  const authorized = p.status === 'AUTHORIZED' || (p.delayedCapture ?? false);
  const payment: Payment = {
    id, siteId: op.ctx.site.id, orderId: op.order.id, kind: p.kind ?? 'REGULAR', provider: p.provider, currency: op.order.currency,
    amount: p.amount, status: p.status, captured, refunded: 0n, refundPending: 0n,
    offline: p.offline, refundDisabled: p.refundDisabled ?? false, declinedReason: p.declinedReason ?? null,
    cardBrand: p.cardBrand ?? null, cardLast4: p.cardLast4 ?? null, paymentMethod: p.paymentMethod,
    providerTransactionId: p.providerTransactionId ?? null, gatewayOrderId: p.gatewayOrderId ?? null,
    chargeCorrelationId: p.chargeCorrelationId ?? null, delayedCapture: p.delayedCapture ?? false,
    authorizedDate: authorized ? op.now : null, capture: null, void: null, extras: p.extras ?? {},
    createdDate: p.createdDate ?? op.now, updatedDate: op.now,
  };
  await insertPayment(op.ctx.db, payment, op.payments.length);
  op.payments.push(payment);
  return payment;
}

/**
 * Charges `amount` of the order to a card through the online provider and records the payment:
 * APPROVED (captured), AUTHORIZED (to capture later), PENDING (outcome arrives later) or DECLINED.
 * A declined card is a recorded DECLINED payment, not an error: the order stays NOT_PAID.
 */
async function chargeCard(op: OrderPayments, amount: bigint, cardInput: PaymentCard, opts: { authorizeOnly: boolean; gatewayOrderId?: string; scheduled?: GatewayOrder }): Promise<ChargeResult> {
  const provider = onlineProvider();
  if (!provider) throw new ApplicationError(409, 'PAYMENT_METHODS_NOT_FOUND', 'The site takes no online payments');
  const card = assertChargeableCard(cardInput, new Date(op.now));
  const id = randomUUID();
  const outcome = await provider.authorize(providerCall(op.ctx), { reference: id, amount, currency: op.order.currency, card, authorizeOnly: opts.authorizeOnly });
  const scheduledAction = outcome.status === 'AUTHORIZED' || (outcome.status === 'PENDING' && opts.authorizeOnly) ? scheduledActionOf(op, opts.scheduled) : undefined;
  await recordPayment(op, id, {
    provider: provider.name, amount, status: outcome.status, offline: false, paymentMethod: 'CreditCard',
    declinedReason: outcome.status === 'DECLINED' ? outcome.reason : null,
    cardBrand: outcome.brand, cardLast4: card.number.slice(-4), providerTransactionId: outcome.providerTransactionId,
    gatewayOrderId: opts.gatewayOrderId ?? null, delayedCapture: opts.authorizeOnly,
    extras: scheduledAction ? { scheduledAction } : {},
  });
  if (scheduledAction) {
    await enqueueJob(op.ctx.db, scheduledActionJob, { siteId: op.ctx.site.id, orderId: op.order.id, paymentId: id, action: scheduledAction.actionType },
      { siteId: op.ctx.site.id, runAt: new Date(scheduledAction.executionDate) });
  }
  const activity = outcome.status === 'AUTHORIZED' ? { type: 'AUTHORIZED_PAYMENT_CREATED' as const }
    : outcome.status === 'DECLINED' ? { type: 'PAYMENT_DECLINED' as const }
      : outcome.status === 'PENDING' ? { type: 'PAYMENT_PENDING' as const }
        : undefined;
  await syncOrder(op, activity ? { activity } : {});
  return { transactionId: id, status: outcome.status, ...(outcome.status === 'DECLINED' ? { declineCode: outcome.reason } : {}) };
}

function scheduledActionOf(op: OrderPayments, gateway: GatewayOrder | undefined): PaymentExtras['scheduledAction'] {
  if (!gateway?.scheduledAction) return undefined;
  const minutes = gateway.delayMinutes ?? DEFAULT_SCHEDULED_ACTION_MINUTES;
  return { actionType: gateway.scheduledAction, executionDate: new Date(Date.parse(op.now) + minutes * 60_000).toISOString() };
}

/**
 * Pays what is left of an order: by card through the online provider (captured at once, or only
 * authorized with `delayedCapture`), or MANUAL: an offline payment the merchant confirms later (mark
 * as paid), which leaves the order NOT_PAID. In the caller's transaction when ctx.db is one.
 */
export async function chargeOrder(ctx: RequestContext, orderId: string, payment: ChargePayment, opts: { delayedCapture?: boolean } = {}): Promise<ChargeResult> {
  return withOrderPayments(ctx, orderId, async (op) => {
    assertOpenForPayment(op);
    const balance = assertUnpaid(op);
    if (payment.method === 'CARD') return chargeCard(op, balance, payment.card, { authorizeOnly: opts.delayedCapture ?? false });
    const id = randomUUID();
    await recordPayment(op, id, { provider: 'manual', amount: balance, status: 'PENDING_MERCHANT', offline: true, paymentMethod: 'Offline' });
    await syncOrder(op);
    return { transactionId: id, status: 'PENDING_MERCHANT' };
  });
}

// ---- payment gateway orders (prepare / create, then a buyer pays them) ----

export interface PrepareInput {
  amount: string;
  paymentGatewayOrderId?: string | null;
  delayedCapture?: boolean;
  delayedCaptureSettings?: { scheduledAction?: 'VOID' | 'CAPTURE'; delayDuration?: { count: number; unit: 'MINUTES' | 'HOURS' | 'DAYS' } };
}

const UNIT_MINUTES = { MINUTES: 1, HOURS: 60, DAYS: 24 * 60 } as const;

export async function preparePaymentCollection(ctx: RequestContext, orderId: string, input: PrepareInput): Promise<string> {
  return withOrderPayments(ctx, orderId, async (op) => {
    assertOpenForPayment(op);
    const balance = assertUnpaid(op);
    const amount = toMinor(input.amount, op.order.currency, 'amount');
    if (amount > balance) throw new ApplicationError(400, 'INVALID_AMOUNT', 'The amount is more than the order has left to pay', { balance: toAmount(balance, op.order.currency) });
    const settings = input.delayedCaptureSettings;
    const delayMinutes = settings?.delayDuration ? settings.delayDuration.count * UNIT_MINUTES[settings.delayDuration.unit] : null;
    if (delayMinutes !== null && delayMinutes > MAX_SCHEDULED_ACTION_MINUTES) {
      throw violation('delayedCaptureSettings.delayDuration.count', `must be at most ${MAX_SCHEDULED_ACTION_MINUTES} minutes in all`, 'MAX', { maxMinutes: MAX_SCHEDULED_ACTION_MINUTES });
    }
    const delayedCapture = (input.delayedCapture ?? false) || settings?.scheduledAction !== undefined;
    const set = { amount, delayedCapture, scheduledAction: settings?.scheduledAction ?? null, delayMinutes };
    if (input.paymentGatewayOrderId) {
      const existing = await findGatewayOrder(op.ctx.db, op.ctx.site.id, input.paymentGatewayOrderId);
      if (!existing) throw notFound('PAYMENT_GATEWAY_ID_NOT_FOUND', 'No payment gateway order with this id');
      if (existing.orderId !== op.order.id) throw new ApplicationError(400, 'NO_ASSOCIATED_ECOM_ORDER', 'The payment gateway order belongs to another order');
      if (!(await updateOpenGatewayOrder(op.ctx.db, op.ctx.site.id, existing.id, set, op.now))) {
        throw conflict('PAYMENT_GATEWAY_ORDER_CLOSED', 'The payment gateway order is already paid');
      }
      return existing.id;
    }
    const id = randomUUID();
    await insertGatewayOrder(op.ctx.db, op.ctx.site.id, { id, orderId: op.order.id, currency: op.order.currency, status: 'OPEN', createdDate: op.now, ...set }, undefined, op.now);
    return id;
  });
}

export async function createPaymentGatewayOrder(ctx: RequestContext, orderId: string, chargedBy: unknown): Promise<string> {
  return withOrderPayments(ctx, orderId, async (op) => {
    assertOpenForPayment(op);
    const balance = assertUnpaid(op);
    const id = randomUUID();
    await insertGatewayOrder(op.ctx.db, op.ctx.site.id, {
      id, orderId: op.order.id, currency: op.order.currency, amount: balance, delayedCapture: false, scheduledAction: null, delayMinutes: null,
      status: 'OPEN', createdDate: op.now,
    }, chargedBy, op.now);
    return id;
  });
}

/**
 * A buyer pays a payment gateway order with a card (our hosted-payment call). A declined card leaves
 * the gateway order open for another try; any other outcome closes it.
 */
export async function payGatewayOrder(ctx: RequestContext, gatewayOrderId: string, card: PaymentCard): Promise<ChargeResult> {
  return inTransaction(ctx.db, async (trx) => {
    const gateway = await findGatewayOrder(trx, ctx.site.id, gatewayOrderId);
    if (!gateway) throw notFound('PAYMENT_GATEWAY_ID_NOT_FOUND', 'No payment gateway order with this id');
    return withOrderPayments({ ...ctx, db: trx }, gateway.orderId, async (op) => {
      // Object level: a member pays only their own order (the gateway order id itself is unguessable).
      if (ctx.caller.kind === 'member' && op.order.buyer.memberId && op.order.buyer.memberId !== ctx.caller.memberId) {
        throw new ApplicationError(403, 'FORBIDDEN', 'This order belongs to another buyer');
      }
      assertOpenForPayment(op);
      const balance = assertUnpaid(op);
      if (gateway.amount > balance) throw new ApplicationError(400, 'INVALID_AMOUNT', 'The amount is more than the order has left to pay');
      // Re-read under the order's lock: a concurrent payment of the same gateway order closed it.
      const current = await findGatewayOrder(op.ctx.db, op.ctx.site.id, gateway.id);
      if (current?.status !== 'OPEN') throw conflict('PAYMENT_GATEWAY_ORDER_CLOSED', 'The payment gateway order is already paid');
      const result = await chargeCard(op, gateway.amount, card, { authorizeOnly: gateway.delayedCapture, gatewayOrderId: gateway.id, scheduled: gateway });
      if (result.status !== 'DECLINED') await closeGatewayOrder(op.ctx.db, op.ctx.site.id, gateway.id, op.now);
      return result;
    });
  });
}

// ---- collectability ----

export async function getCollectability(ctx: RequestContext, orderId: string): Promise<{ status: PaymentCollectabilityStatus; amount: string }> {
  return readOrderPayments(ctx, orderId, async (op) => {
    const money = orderMoney(op.total, op.payments);
    return { status: collectability(op, money.balance), amount: toAmount(money.balance, op.order.currency) };
  });
}

function collectability(op: OrderPayments, balance: bigint): PaymentCollectabilityStatus {
  switch (op.order.status) {
    case 'CANCELED': return 'NONCOLLECTABLE_ORDER_IS_CANCELLED';
    case 'PENDING': return 'NONCOLLECTABLE_ORDER_IS_PENDING';
    case 'REJECTED': return 'NONCOLLECTABLE_ORDER_IS_REJECTED';
    default: break;
  }
  // A subscription line is billed on its own schedule, not collected once on the order.
  if (op.order.lineItems.some((li) => li.subscription)) return 'NONCOLLECTABLE_ORDER_HAS_SUBSCRIPTIONS';
  if (balance <= 0n) return 'NONCOLLECTABLE_ORDER_IS_PAID';
  if (!onlineProvider()) return 'NONCOLLECTABLE_MISSING_PAYMENT_METHOD';
  return 'COLLECTABLE';
}

// ---- offline money: manual payments and mark as paid ----

/** Records money the merchant collected offline (cash, transfer): an APPROVED offline payment of `amount`. */
export async function recordManualPayment(ctx: RequestContext, orderId: string, amountText: string): Promise<void> {
  await withOrderPayments(ctx, orderId, async (op) => {
    assertOpenForPayment(op);
    const balance = assertUnpaid(op);
    const amount = toMinor(amountText, op.order.currency, 'amount');
    if (amount > balance) throw new ApplicationError(400, 'INVALID_AMOUNT', 'The amount is more than the order has left to pay', { balance: toAmount(balance, op.order.currency) });
    await recordPayment(op, randomUUID(), { provider: 'manual', amount, status: 'APPROVED', offline: true, paymentMethod: 'Offline' });
    await syncOrder(op);
  });
}

/**
 * Marks the order paid: offline payments awaiting the merchant become APPROVED, and what is still
 * missing is recorded as one more offline payment. A second call finds nothing to pay (409
 * ORDER_ALREADY_PAID) and changes nothing.
 */
export async function markOrderAsPaid(ctx: RequestContext, orderId: string): Promise<OrderPaymentStatus> {
  return withOrderPayments(ctx, orderId, async (op) => {
    assertOpenForPayment(op);
    let confirmed = 0;
    for (const p of op.payments.filter((x) => x.offline && x.status === 'PENDING_MERCHANT')) {
      if (await updatePaymentGuarded(op.ctx.db, op.ctx.site.id, p.id, { fromStatuses: ['PENDING_MERCHANT'] }, { status: 'APPROVED', captured: p.amount }, op.now)) {
        Object.assign(p, { status: 'APPROVED', captured: p.amount });
        confirmed++;
      }
    }
    const missing = op.total - orderMoney(op.total, op.payments).captured;
    // A free order counts as paid once one (zero) payment says so.
    const freeAndUnmarked = op.total === 0n && !op.payments.some((p) => p.status === 'APPROVED');
    if (missing > 0n || freeAndUnmarked) {
      await recordPayment(op, randomUUID(), { provider: 'manual', amount: missing > 0n ? missing : 0n, status: 'APPROVED', offline: true, paymentMethod: 'Offline' });
    } else if (confirmed === 0) {
      throw conflict('ORDER_ALREADY_PAID', 'The order is already paid', { paymentStatus: op.before });
    }
    return syncOrder(op);
  });
}

// ---- memberships ----

export interface MembershipCharge {
  membershipId: string;
  lineItemId: string;
  appId?: string;
  membershipName?: { original?: string; translated?: string | null };
}

/** Pays line items with the buyer's memberships: one APPROVED membership payment per charge, for the line's price. */
export async function chargeMemberships(ctx: RequestContext, orderId: string, memberId: string, charges: readonly MembershipCharge[]): Promise<void> {
  await withOrderPayments(ctx, orderId, async (op) => {
    assertOpenForPayment(op);
    let balance = assertUnpaid(op);
    if (op.order.buyer.memberId && op.order.buyer.memberId !== memberId) {
      throw new ApplicationError(403, 'MEMBER_IS_NOT_THE_BUYER', 'The member is not the buyer of this order');
    }
    const charged = new Set(op.payments.filter((p) => p.kind === 'MEMBERSHIP' && p.status === 'APPROVED').map((p) => p.extras.membership?.lineItemId));
    for (const [index, c] of charges.entries()) {
      const line = op.order.lineItems.find((l) => l.id === c.lineItemId);
      if (!line) throw violation(`membershipCharges[${index}].lineItemId`, 'is not a line item of the order', 'FORMAT');
      if (charged.has(c.lineItemId)) throw conflict('LINE_ITEM_ALREADY_CHARGED', 'This line item is already paid with a membership', { lineItemId: c.lineItemId });
      charged.add(c.lineItemId);
      const amount = toMinor(line.price, op.order.currency, `membershipCharges[${index}]`, { allowZero: true }) * BigInt(line.quantity);
      // Never more than is left to pay: a line already paid another way is not charged again.
      if (amount > balance) throw new ApplicationError(400, 'INVALID_AMOUNT', 'The line costs more than the order has left to pay', { lineItemId: c.lineItemId });
      balance -= amount;
      await recordPayment(op, randomUUID(), {
        kind: 'MEMBERSHIP', provider: 'membership', amount, status: 'APPROVED', offline: false, paymentMethod: 'Membership', refundDisabled: true,
        extras: { membership: { membershipId: c.membershipId, lineItemId: c.lineItemId, status: 'CHARGED', voided: false, ...(c.appId ? { providerAppId: c.appId } : {}), ...(c.membershipName ? { name: c.membershipName } : {}) } },
      });
    }
    await syncOrder(op);
  });
}
