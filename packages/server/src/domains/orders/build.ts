import { randomUUID } from 'node:crypto';
import { ValidationError, type FieldViolation } from '../../http/errors.js';
import { currencyOf, normalizePrice, price, toMinor, type Currency } from './amounts.js';
import type { Order, OrderDraft, OrderInput, OrderLineItem, OrderLineItemInput, OrderPrice, OrderPriceSummary } from './model.js';

/** Building order documents from a checkout draft or an owner's input: amounts normalized and checked. */

export const ORDER_BUILD_LIMITS = {
  /** Line items of one order. */
  lineItems: 300,
  /** Units of one line. */
  quantityMax: 100_000,
} as const;

type LineLike = OrderLineItemInput & { fullPrice?: OrderPrice; sku?: string | null };

export function buildLineItem(li: LineLike, cur: Currency, field: string): OrderLineItem {
  const p = (v: OrderPrice | undefined, name: string) => normalizePrice(v, cur, `${field}.${name}`);
  const quantity = li.quantity;
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > ORDER_BUILD_LIMITS.quantityMax) {
    throw new ValidationError([{ field: `${field}.quantity`, description: `must be an integer from 1 to ${ORDER_BUILD_LIMITS.quantityMax}`, violatedRule: 'MAX', data: { max: ORDER_BUILD_LIMITS.quantityMax } }]);
  }
  const unit = toMinor(li.price.amount, cur, `${field}.price.amount`);
  const physical = li.physicalProperties ?? (li.sku ? { sku: li.sku } : undefined);
  const out: OrderLineItem = {
    id: li.id ?? randomUUID(),
    productName: li.productName,
    quantity,
    price: price(unit, cur),
    priceBeforeDiscounts: p(li.priceBeforeDiscounts ?? li.fullPrice, 'priceBeforeDiscounts') ?? price(unit, cur),
    totalPriceBeforeTax: p(li.totalPriceBeforeTax, 'totalPriceBeforeTax') ?? price(unit * BigInt(quantity), cur),
    totalPriceAfterTax: p(li.totalPriceAfterTax, 'totalPriceAfterTax') ?? price(unit * BigInt(quantity), cur),
    totalDiscount: p(li.totalDiscount, 'totalDiscount') ?? price(0n, cur),
    refundQuantity: 0,
    restockQuantity: 0,
  };
  if (li.catalogReference) out.catalogReference = li.catalogReference;
  if (li.taxDetails) out.taxDetails = li.taxDetails;
  if (li.descriptionLines) out.descriptionLines = li.descriptionLines;
  if (li.image !== undefined) out.image = li.image;
  if (physical) out.physicalProperties = physical;
  out.itemType = li.itemType ?? { preset: 'PHYSICAL' };
  out.paymentOption = li.paymentOption ?? 'FULL_PAYMENT_ONLINE';
  if (li.subscriptionInfo) out.subscriptionInfo = li.subscriptionInfo;
  if (li.rootCatalogItemId !== undefined) out.rootCatalogItemId = li.rootCatalogItemId;
  return out;
}

/** The price summary as given (normalized), or computed from the lines when absent; the total must add up. */
export function buildPriceSummary(given: (OrderPriceSummary & { additionalFees?: OrderPrice }) | undefined, lines: OrderLineItem[], cur: Currency, field: string): OrderPriceSummary {
  const m = (v: OrderPrice | undefined, name: string) => toMinor(v?.amount, cur, `${field}.${name}.amount`);
  const subtotal = given ? m(given.subtotal, 'subtotal') : lines.reduce((s, li) => s + toMinor(li.price.amount, cur, 'lineItems') * BigInt(li.quantity), 0n);
  const shipping = m(given?.shipping, 'shipping');
  const tax = m(given?.tax, 'tax');
  const discount = m(given?.discount, 'discount');
  const fees = m(given?.totalAdditionalFees ?? given?.additionalFees, 'totalAdditionalFees');
  const total = given ? m(given.total, 'total') : subtotal + shipping + fees - discount;
  return {
    subtotal: price(subtotal, cur), shipping: price(shipping, cur), tax: price(tax, cur), discount: price(discount, cur),
    total: price(total, cur), totalAdditionalFees: price(fees, cur),
  };
}

/** Checks that total = subtotal + shipping + tax + fees − discount (tax left out when included in prices). */
export function amountsAddUp(order: Pick<Order, 'priceSummary' | 'currency' | 'taxIncludedInPrices'>): boolean {
  const cur = currencyOf(order.currency);
  const s = order.priceSummary;
  const m = (v: OrderPrice | undefined) => toMinor(v?.amount, cur, 'priceSummary', { allowNegative: true });
  const base = m(s.subtotal) + m(s.shipping) + m(s.totalAdditionalFees) - m(s.discount);
  const total = m(s.total);
  return total === base + m(s.tax) || (order.taxIncludedInPrices && total === base);
}

export function lineCount(count: number, field: string): void {
  if (count < 1 || count > ORDER_BUILD_LIMITS.lineItems) {
    throw new ValidationError([{ field, description: `give 1 to ${ORDER_BUILD_LIMITS.lineItems} line items`, violatedRule: 'MAX_SIZE', data: { max: ORDER_BUILD_LIMITS.lineItems } }]);
  }
}

function uniqueLineIds(lines: OrderLineItem[], field: string): void {
  const seen = new Set<string>();
  const v: FieldViolation[] = [];
  lines.forEach((l, i) => {
    if (seen.has(l.id)) v.push({ field: `${field}[${i}].id`, description: 'is used by another line item', violatedRule: 'FORMAT', data: {} });
    seen.add(l.id);
  });
  if (v.length) throw new ValidationError(v);
}

interface Base { id: string; number: number; now: string }

/** The order a checkout becomes (status INITIALIZED, not paid; a free order is paid and approved at once). */
export function orderFromDraft(draft: OrderDraft, base: Base): Order {
  const cur = currencyOf(draft.currency);
  lineCount(draft.lineItems.length, 'lineItems');
  const lineItems = draft.lineItems.map((li, i) => buildLineItem(li, cur, `lineItems[${i}]`));
  uniqueLineIds(lineItems, 'lineItems');
  const priceSummary = buildPriceSummary(draft.priceSummary, lineItems, cur, 'priceSummary');
  const free = toMinor(priceSummary.total.amount, cur, 'priceSummary.total.amount') === 0n;
  const b = draft.buyerInfo;
  const order: Order = {
    id: base.id, number: String(base.number), createdDate: base.now, updatedDate: base.now, purchasedDate: base.now,
    lineItems,
    buyerInfo: {
      ...(b.visitorId ? { visitorId: b.visitorId } : {}), ...(b.memberId ? { memberId: b.memberId } : {}),
      ...(b.contactId ? { contactId: b.contactId } : {}), ...(b.email ? { email: b.email } : {}),
    },
    paymentStatus: free ? 'PAID' : 'NOT_PAID',
    fulfillmentStatus: 'NOT_FULFILLED',
    status: free ? 'APPROVED' : 'INITIALIZED',
    buyerLanguage: draft.buyerLanguage ?? null,
    weightUnit: draft.weightUnit ?? 'KG',
    currency: cur.code,
    taxIncludedInPrices: draft.taxIncludedInPrices ?? false,
    priceSummary,
    balanceSummary: { balance: free ? price(0n, cur) : priceSummary.total, paid: price(0n, cur), refunded: price(0n, cur) },
    archived: false,
    activities: [],
    channelInfo: { type: draft.channelType ?? 'WEB' },
    createdBy: b.memberId ? { memberId: b.memberId } : b.visitorId ? { visitorId: b.visitorId } : {},
    checkoutId: draft.checkoutId,
    seenByAHuman: false,
    tags: { privateTags: { tagIds: [] }, tags: { tagIds: [] } },
    imported: false,
  };
  if (draft.billingInfo) order.billingInfo = draft.billingInfo;
  if (draft.shippingInfo) order.shippingInfo = draft.shippingInfo;
  if (draft.buyerNote) order.buyerNote = draft.buyerNote;
  if (draft.taxSummary) order.taxSummary = draft.taxSummary;
  if (draft.appliedDiscounts) order.appliedDiscounts = draft.appliedDiscounts;
  if (draft.additionalFees) order.additionalFees = draft.additionalFees;
  if (draft.customFields) order.customFields = draft.customFields;
  return order;
}

/** The order an owner creates or imports. */
export function orderFromInput(input: OrderInput, base: Base & { currency: string; createdBy: Order['createdBy']; imported: boolean }): Order {
  const cur = currencyOf(input.currency ?? base.currency, 'order.currency');
  lineCount(input.lineItems.length, 'order.lineItems');
  const lineItems = input.lineItems.map((li, i) => buildLineItem(li, cur, `order.lineItems[${i}]`));
  uniqueLineIds(lineItems, 'order.lineItems');
  const priceSummary = buildPriceSummary(input.priceSummary, lineItems, cur, 'order.priceSummary');
  const paymentStatus = input.paymentStatus ?? 'NOT_PAID';
  const paid = paymentStatus === 'PAID' ? toMinor(priceSummary.total.amount, cur, 'order.priceSummary.total.amount') : 0n;
  const total = toMinor(priceSummary.total.amount, cur, 'order.priceSummary.total.amount');
  const order: Order = {
    id: base.id, number: String(base.number), createdDate: base.now, updatedDate: base.now, purchasedDate: input.purchasedDate ?? base.now,
    lineItems,
    buyerInfo: input.buyerInfo ?? {},
    paymentStatus,
    fulfillmentStatus: input.fulfillmentStatus ?? 'NOT_FULFILLED',
    status: input.status ?? 'APPROVED',
    buyerLanguage: input.buyerLanguage ?? null,
    weightUnit: input.weightUnit ?? 'KG',
    currency: cur.code,
    taxIncludedInPrices: input.taxIncludedInPrices ?? false,
    priceSummary,
    balanceSummary: { balance: price(total - paid, cur), paid: price(paid, cur), refunded: price(0n, cur) },
    archived: input.archived ?? false,
    activities: [],
    channelInfo: input.channelInfo ?? { type: base.imported ? 'OTHER_PLATFORM' : 'BACKOFFICE_MERCHANT' },
    createdBy: base.createdBy ?? {},
    checkoutId: input.checkoutId ?? null,
    seenByAHuman: false,
    tags: { privateTags: { tagIds: input.tags?.privateTags?.tagIds ?? [] }, tags: { tagIds: input.tags?.tags?.tagIds ?? [] } },
    imported: base.imported,
  };
  if (input.billingInfo) order.billingInfo = input.billingInfo;
  if (input.shippingInfo) order.shippingInfo = input.shippingInfo;
  if (input.recipientInfo) order.recipientInfo = input.recipientInfo;
  if (input.buyerNote) order.buyerNote = input.buyerNote;
  if (input.taxSummary) order.taxSummary = input.taxSummary;
  if (input.appliedDiscounts) order.appliedDiscounts = input.appliedDiscounts;
  if (input.additionalFees) order.additionalFees = input.additionalFees;
  if (input.customFields) order.customFields = input.customFields;
  return order;
}
