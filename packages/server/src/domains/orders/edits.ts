import type { RequestContext } from '../../http/context.js';
import { conflict, notFound, violation } from '../../http/errors.js';
import { currencyOf, price, scaled, toMinor, type Currency } from './amounts.js';
import { amountsAddUp, buildLineItem, buildPriceSummary, lineCount } from './build.js';
import { STORES_APP_ID, type Order, type OrderDraftChanges, type OrderRecord } from './model.js';
import { becomePaid } from './paid.js';
import { changeOrder, newActivity, type OrderEvent } from './record.js';
import { editStock } from './stock.js';
import { findOrder, insertEdit } from './store.js';

/**
 * Order edits (commit-deltas): a draft's changes to lines, shipping and totals applied to the order
 * at once, with stock following the new quantities, a DRAFT_ORDER_CHANGES_APPLIED activity and the
 * `committed` / `updated` events. A draft id commits once. The reasons an order cannot be edited
 * are checked first, each an application error with its own code (docs/orders.md).
 */

/** Channels whose orders can be edited here. */
export const EDITABLE_CHANNELS = ['WEB', 'BACKOFFICE_MERCHANT', 'POS'];
const EDITABLE_STATUSES = ['INITIALIZED', 'APPROVED', 'PENDING'];

const refuse = (code: string, description: string, data: Record<string, unknown> = {}) => conflict(code, description, data);

function taxableFee(fee: Record<string, unknown>): boolean {
  const details = fee.taxDetails && typeof fee.taxDetails === 'object' ? fee.taxDetails as Record<string, unknown> : {};
  const rate = fee.taxRate ?? details.taxRate;
  return details.taxable === true || (typeof rate === 'string' && Number(rate) !== 0) || (typeof rate === 'number' && rate !== 0);
}

/** Why this order cannot be edited, or nothing. */
export function editBlocker(ctx: RequestContext, order: Order): { code: string; description: string } | undefined {
  const siteWeight = typeof ctx.site.settings.weightUnit === 'string' ? ctx.site.settings.weightUnit : 'KG';
  if (order.paymentStatus === 'PARTIALLY_REFUNDED' || order.paymentStatus === 'FULLY_REFUNDED') return { code: 'ORDER_PARTIALLY_OR_FULLY_REFUNDED', description: 'A refunded order cannot be edited' };
  if (!EDITABLE_CHANNELS.includes(order.channelInfo.type)) return { code: 'UNSUPPORTED_CHANNEL_TYPE', description: `Orders of channel ${order.channelInfo.type} cannot be edited` };
  if (!EDITABLE_STATUSES.includes(order.status)) return { code: 'ORDER_STATUS_NOT_SUPPORTED', description: `An order in status ${order.status} cannot be edited` };
  if (order.currency !== ctx.site.currency) return { code: 'INCONSISTENT_ORDER_AND_SITE_CURRENCIES', description: `The order is in ${order.currency}, the site in ${ctx.site.currency}` };
  if (order.weightUnit !== 'UNSPECIFIED_WEIGHT_UNIT' && order.weightUnit !== siteWeight) return { code: 'INCONSISTENT_WEIGHT_UNITS', description: `The order weighs in ${order.weightUnit}, the site in ${siteWeight}` };
  if (order.lineItems.some((li) => li.subscriptionInfo)) return { code: 'SUBSCRIPTION_LINE_ITEM_EXISTS', description: 'An order with a subscription line cannot be edited' };
  if ((order.additionalFees ?? []).some(taxableFee)) return { code: 'TAXABLE_EXISTING_ADDITIONAL_FEE', description: 'An order with a taxed additional fee cannot be edited' };
  return undefined;
}

type OrderLine = Order['lineItems'][number];

/** A line's tax as the order holds it (its tax details' total; none given is none). */
function lineTax(line: OrderLine, cur: Currency): bigint {
  const total = (line.taxDetails as { totalTax?: { amount?: unknown } } | undefined)?.totalTax?.amount;
  return typeof total === 'string' ? toMinor(total, cur, 'taxDetails.totalTax') : 0n;
}

/**
 * A line at a new unit price or quantity. Its discount and tax keep their share of the line's price
 * (the rate and discount it was sold with): a 3rd unit of an item taxed 8% is taxed 8% too, where
 * copying the old amounts, or dropping them, left the order's tax wrong.
 */
function rescaledLine(old: OrderLine, unit: bigint, quantity: number, cur: Currency, included: boolean): OrderLine {
  const oldGross = toMinor(old.price.amount, cur, 'price') * BigInt(old.quantity);
  const gross = unit * BigInt(quantity);
  const discount = scaled(toMinor(old.totalDiscount?.amount, cur, 'totalDiscount'), gross, oldGross);
  const tax = scaled(lineTax(old, cur), gross, oldGross);
  const net = gross - discount;
  const line: OrderLine = {
    ...old, quantity, price: price(unit, cur), totalDiscount: price(discount, cur),
    totalPriceBeforeTax: price(included ? net - tax : net, cur), totalPriceAfterTax: price(included ? net : net + tax, cur),
  };
  if (old.taxDetails) line.taxDetails = { ...old.taxDetails, totalTax: price(tax, cur) };
  return line;
}

function applyLines(order: Order, changes: OrderDraftChanges): Order['lineItems'] {
  const cur = currencyOf(order.currency);
  const included = order.taxIncludedInPrices;
  let lines = [...order.lineItems];
  (changes.lineItems ?? []).forEach((d, i) => {
    const at = `changes.lineItems[${i}]`;
    if (d.lineItemAdded) {
      if (!d.lineItem) throw violation(`${at}.lineItem`, 'is required for an added line', 'REQUIRED_FIELD');
      const ref = d.lineItem.catalogReference;
      if (!ref || ref.appId !== STORES_APP_ID) throw refuse('UNSUPPORTED_CATALOG_ITEM', 'Only store catalog items can be added to an order', { index: i });
      if (d.lineItem.subscriptionInfo) throw refuse('SUBSCRIPTION_LINE_ITEM_EXISTS', 'Subscription lines cannot be added', { index: i });
      const line = buildLineItem(d.lineItem, cur, `${at}.lineItem`);
      if (lines.some((l) => l.id === line.id)) throw violation(`${at}.lineItem.id`, 'is used by another line item', 'FORMAT');
      lines.push(line);
      return;
    }
    const index = lines.findIndex((l) => l.id === d.lineItemId);
    if (!d.lineItemId || index < 0) throw notFound('LINE_ITEM_NOT_FOUND', `The order has no line item ${d.lineItemId ?? ''}`, { index: i });
    if (d.lineItemRemoved) {
      lines = lines.filter((_, j) => j !== index);
      return;
    }
    const old = lines[index]!;
    const quantity = d.changedDetails?.quantity ?? old.quantity;
    const unit = d.changedDetails?.price ? toMinor(d.changedDetails.price.amount, cur, `${at}.changedDetails.price.amount`) : toMinor(old.price.amount, cur, 'price');
    lines[index] = rescaledLine(old, unit, quantity, cur, included);
  });
  lineCount(lines.length, 'changes.lineItems');
  return lines;
}

/** The order as a draft's changes would leave it (lines, shipping, discounts, fees, totals, balance); nothing is stored. */
function applyDraft(before: Order, c: OrderDraftChanges): Order {
  const cur = currencyOf(before.currency);
  const lineItems = applyLines(before, c);
  const order: Order = { ...before, lineItems, activities: [...before.activities] };
  if (c.changedShippingInfo) order.shippingInfo = c.changedShippingInfo;
  if (c.shippingInfoRemoved) delete order.shippingInfo;
  if (c.appliedDiscounts) order.appliedDiscounts = c.appliedDiscounts;
  if (c.additionalFees) order.additionalFees = c.additionalFees;
  if (c.taxSummary) order.taxSummary = c.taxSummary;
  const subtotal = lineItems.reduce((s, li) => s + toMinor(li.price.amount, cur, 'price') * BigInt(li.quantity), 0n);
  if (c.priceSummary) {
    order.priceSummary = buildPriceSummary(c.priceSummary, lineItems, cur, 'changes.priceSummary');
    if (toMinor(order.priceSummary.subtotal.amount, cur, 'subtotal') !== subtotal || !amountsAddUp(order)) {
      throw refuse('AMOUNTS_DO_NOT_ADD_UP', 'The new price summary does not add up with the edited lines', { expectedSubtotal: price(subtotal, cur).amount });
    }
  } else {
    // The lines' discounts and taxes move the order's by as much as they moved (shipping's stay).
    const s = before.priceSummary;
    const m = (v: { amount: string } | undefined) => toMinor(v?.amount, cur, 'priceSummary');
    const sumOf = (lines: readonly OrderLine[], of: (l: OrderLine) => bigint) => lines.reduce((acc, l) => acc + of(l), 0n);
    const lineDiscount = (l: OrderLine) => toMinor(l.totalDiscount?.amount, cur, 'totalDiscount');
    const tax = m(s.tax) + sumOf(lineItems, (l) => lineTax(l, cur)) - sumOf(before.lineItems, (l) => lineTax(l, cur));
    const discount = m(s.discount) + sumOf(lineItems, lineDiscount) - sumOf(before.lineItems, lineDiscount);
    const total = subtotal + m(s.shipping) + m(s.totalAdditionalFees) - discount + (before.taxIncludedInPrices ? 0n : tax);
    order.priceSummary = buildPriceSummary({ ...s, subtotal: price(subtotal, cur), tax: price(tax, cur), discount: price(discount, cur), total: price(total, cur) }, lineItems, cur, 'priceSummary');
  }
  const total = toMinor(order.priceSummary.total.amount, cur, 'total');
  const paid = toMinor(before.balanceSummary.paid.amount, cur, 'paid');
  order.balanceSummary = { ...before.balanceSummary, balance: price(total > paid ? total - paid : 0n, cur) };
  // An edit that raises a paid order's total leaves part of it to pay; one that lowers a part-paid
  // order's total to what was paid leaves nothing to pay (commitDeltas brings what being paid brings).
  if (order.paymentStatus === 'PAID' && total > paid) order.paymentStatus = 'PARTIALLY_PAID';
  else if (order.paymentStatus === 'PARTIALLY_PAID' && total <= paid) order.paymentStatus = 'PAID';
  return order;
}

export async function commitDeltas(ctx: RequestContext, orderId: string, input: { draftOrderId: string; changes: OrderDraftChanges; reason?: string | null | undefined }): Promise<Order> {
  const rec = await changeOrder(ctx, orderId, async (tctx, rec) => {
    const blocker = editBlocker(ctx, rec.order);
    if (blocker) throw refuse(blocker.code, blocker.description, { orderId });
    if (!(await insertEdit(tctx.db, ctx.site.id, { draftOrderId: input.draftOrderId, orderId, reason: input.reason ?? null }, new Date().toISOString()))) {
      throw conflict('DRAFT_ORDER_ALREADY_COMMITTED', `Draft ${input.draftOrderId} was committed already`, { draftOrderId: input.draftOrderId });
    }
    const before = rec.order;
    const order = applyDraft(before, input.changes);
    order.activities.push(newActivity('DRAFT_ORDER_CHANGES_APPLIED', { draftOrderChangesApplied: { draftOrderId: input.draftOrderId, ...(input.reason ? { reason: input.reason } : {}) } }));
    let next: OrderRecord = { ...rec, order };
    next.stockState = await editStock(tctx, next, before);
    const events: OrderEvent[] = [{ slug: 'committed', data: { draftOrderId: input.draftOrderId } }];
    if (order.paymentStatus === 'PAID' && before.paymentStatus === 'PARTIALLY_PAID') {
      next = await becomePaid(tctx, next, events);
      next.order.activities.push(newActivity('ORDER_PAID'));
      events.push({ slug: 'payment_status_updated', data: { previousPaymentStatus: before.paymentStatus, paymentStatus: 'PAID', mail: 'PAID' } });
    }
    events.push({ slug: 'updated' });
    return { rec: next, events };
  });
  return rec.order;
}

/** What a preview answers: the order as committing would leave it, and each line's quantity change. */
export interface DraftPreview {
  order: Order;
  lineItemChanges: { lineItemId: string; quantityBefore: number; quantityAfter: number }[];
}

/**
 * The draft, made real without a draft store: the same changes commit-deltas takes, checked against the
 * same refusals and applied the same way, answered without writing anything (no activity, event, stock
 * or draft id). The dashboard shows it while the owner edits, then commits the same changes.
 */
export async function previewDeltas(ctx: RequestContext, orderId: string, changes: OrderDraftChanges): Promise<DraftPreview> {
  const rec = await findOrder(ctx.db, ctx.site.id, orderId);
  if (!rec) throw notFound('ORDER_NOT_FOUND', `Order ${orderId} not found`, { orderId });
  const blocker = editBlocker(ctx, rec.order);
  if (blocker) throw refuse(blocker.code, blocker.description, { orderId });
  const order = applyDraft(rec.order, changes);
  const before = new Map(rec.order.lineItems.map((l) => [l.id, l.quantity]));
  const after = new Map(order.lineItems.map((l) => [l.id, l.quantity]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  const lineItemChanges = ids
    .map((id) => ({ lineItemId: id, quantityBefore: before.get(id) ?? 0, quantityAfter: after.get(id) ?? 0 }))
    .filter((c) => c.quantityBefore !== c.quantityAfter);
  return { order, lineItemChanges };
}
