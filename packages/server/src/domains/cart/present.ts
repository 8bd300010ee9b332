/** Cart and checkout on the wire (`@vitrine/types/ecom-cart`), from stored documents, resolved lines and an engine result. */
import type {
  AdditionalFee, AppliedDiscount, CalculatedLineItem, Cart, CartDiscountInfo, CartLineItem, Checkout, CheckoutLineItem, EstimateTotalsResponse,
  ItemTaxFullDetails, MembershipOptions, MultiCurrencyPrice, PriceSummary, ShippingInformation, TaxSummary, Violation,
} from '@vitrine/types/ecom-cart';
import { ownedUtf8, stringifyForWire } from '../../http/wire.js';
import { currencyOf, displayAmount, formatMoney, parseMoney, type PricingResult } from './pricing/index.js';
import type { ItemTaxFullDetails as EngineTax, Price, ShippingInformation as EngineShipping } from './pricing/index.js';
import type { BuyerRef, CartDoc, ResolvedLine, StoredCart, StoredCheckout } from './model.js';

export function money(amount: string, currency: string): MultiCurrencyPrice {
  const text = displayAmount(amount, currency);
  return { amount, convertedAmount: amount, formattedAmount: text, formattedConvertedAmount: text };
}

const m = (p: Price, currency: string) => money(p.amount, currency);

/** price x quantity, exact. */
function times(amount: string, quantity: number, currency: string): string {
  const c = currencyOf(currency);
  return formatMoney(parseMoney(amount, c, 'price') * BigInt(quantity), c);
}

function buyerInfo(buyer: BuyerRef, email: string | null) {
  return { ...buyer, ...(email ? { email } : {}) };
}

/**
 * Wire JSON bytes of kept (frozen) resolved lines, encoded once per line object: such a line is the
 * same object while everything it was resolved from is the same (kept-lines.ts). Only the bytes are
 * kept, not the presented object they were encoded from: each add-to-cart makes one new kept line
 * that lives until that line changes again, so whatever it holds is promoted and later marked by
 * the collector (docs/performance-log.md, twenty-fifth session).
 */
const encodedLines = new WeakMap<ResolvedLine, { currency: string; bytes: Buffer }>();

function lineBytes(l: ResolvedLine, currency: string): Buffer {
  // The lookup before the frozen check: Object.isFrozen is a runtime call, and most lines are kept.
  const kept = encodedLines.get(l);
  if (kept?.currency === currency) return kept.bytes;
  const text = stringifyForWire(buildLine(l, currency));
  if (!Object.isFrozen(l)) return Buffer.from(text);
  const bytes = ownedUtf8(text);
  encodedLines.set(l, { currency, bytes });
  return bytes;
}

const COMMA = Buffer.from(',');

/** A cart on its way to an answer: its lines as resolved (encoded from kept bytes), everything else presented. */
export interface CartOnWire {
  id: string;
  lines: ResolvedLine[];
  currency: string;
  rest: Omit<Cart, 'id' | 'lineItems'>;
}

/**
 * A cart as the UTF-8 of the wire JSON `stringifyForWire` gives for `presentCart`, between the texts
 * `open` and `close` of the answer around it. A kept line's bytes are reused and the answer is copied
 * together from bytes: joining a 20-line cart's text, flattening and encoding it again was about a
 * tenth of an add-to-cart (docs/performance-log.md, nineteenth session).
 */
export function encodeCart(cart: CartOnWire, open = '', close = ''): Buffer<ArrayBuffer> {
  const parts: Buffer[] = [Buffer.from(`${open}{"id":${JSON.stringify(cart.id)},"lineItems":[`)];
  for (let i = 0; i < cart.lines.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(lineBytes(cart.lines[i]!, cart.currency));
  }
  parts.push(Buffer.from(`],${stringifyForWire(cart.rest).slice(1)}${close}`));
  return Buffer.concat(parts);
}

function buildLine(l: ResolvedLine, currency: string): CartLineItem {
  return {
    id: l.id,
    quantity: l.quantity,
    ...(l.catalogReference ? { catalogReference: l.catalogReference } : {}),
    productName: { original: l.productName, translated: l.productName },
    ...(l.url ? { url: l.url } : {}),
    price: money(l.price, currency),
    fullPrice: money(l.fullPrice, currency),
    priceBeforeDiscounts: money(l.price, currency),
    lineItemPrice: money(times(l.price, l.quantity, currency), currency),
    descriptionLines: l.descriptionLines,
    ...(l.image ? { image: l.image } : {}),
    availability: l.availability,
    ...(l.physicalProperties ? { physicalProperties: l.physicalProperties } : {}),
    itemType: l.itemType === 'CUSTOM_AMOUNT_ITEM' ? { custom: 'CUSTOM_AMOUNT_ITEM' } : { preset: l.itemType },
    paymentOption: l.paymentOption,
    rootCatalogItemId: l.rootCatalogItemId ?? null,
    ...(l.priceDescription ? { priceDescription: { original: l.priceDescription } } : {}),
    taxGroupId: l.taxGroupId ?? null,
    customLineItem: l.customLineItem,
    ...(l.subscriptionOptionInfo ? { subscriptionOptionInfo: l.subscriptionOptionInfo } : {}),
    fixedQuantity: false,
    priceUndetermined: false,
    membersOnly: false,
  };
}

function cartDiscounts(doc: CartDoc, currency: string, result?: PricingResult): CartDiscountInfo[] {
  const out: CartDiscountInfo[] = [];
  if (doc.coupon) out.push({ coupon: { id: doc.coupon.id, code: doc.coupon.code } });
  for (const a of result?.appliedDiscounts ?? []) if (a.merchantDiscount) out.push({ merchantDiscount: { amount: m(a.merchantDiscount.amount, currency) } });
  return out;
}

export function cartOnWire(cart: StoredCart, lines: ResolvedLine[], currency: string, result?: PricingResult): CartOnWire {
  const d = cart.doc;
  return {
    id: cart.id,
    lines,
    currency,
    rest: {
      buyerNote: d.buyerNote,
      buyerInfo: buyerInfo(d.buyer, d.email),
      currency, conversionCurrency: currency, paymentCurrency: currency,
      buyerLanguage: d.buyerLanguage,
      siteLanguage: 'en',
      taxIncludedInPrices: result?.taxSummary.taxIncludedInPrice ?? false,
      weightUnit: 'KG',
      checkoutId: d.checkoutId,
      appliedDiscounts: cartDiscounts(d, currency, result),
      createdDate: cart.createdDate,
      updatedDate: cart.updatedDate,
      contactInfo: d.contactInfo,
      overrideCheckoutUrl: d.overrideCheckoutUrl,
      selectedShippingOption: d.selectedShippingOption,
      businessLocationId: d.businessLocationId,
    },
  };
}

/** The cart as an object (for events), the same JSON `encodeCart` writes. */
export function cartObject(c: CartOnWire): Cart {
  return { id: c.id, lineItems: c.lines.map((l) => buildLine(l, c.currency)), ...c.rest };
}

export function presentCart(cart: StoredCart, lines: ResolvedLine[], currency: string, result?: PricingResult): Cart {
  return cartObject(cartOnWire(cart, lines, currency, result));
}

function tax(t: EngineTax, c: string): ItemTaxFullDetails {
  return {
    taxableAmount: m(t.taxableAmount, c), taxRate: t.taxRate, totalTax: m(t.totalTax, c),
    rateBreakdown: t.rateBreakdown.map((r) => ({ name: r.name, rate: r.rate, tax: m(r.tax, c) })),
    taxBreakdown: t.taxBreakdown.map((b) => ({
      jurisdiction: b.jurisdiction, jurisdictionType: b.jurisdictionType, taxName: b.taxName, taxType: b.taxType, rate: b.rate,
      taxableAmount: m(b.taxableAmount, c), taxAmount: m(b.taxAmount, c),
    })),
  };
}

function summary(r: PricingResult, c: string): PriceSummary {
  const s = r.priceSummary;
  return { subtotal: m(s.subtotal, c), discount: m(s.discount, c), shipping: m(s.shipping, c), tax: m(s.tax, c), additionalFees: m(s.additionalFees, c), total: m(s.total, c) };
}

function zeroSummary(c: string): PriceSummary {
  const z = money(formatMoney(0n, currencyOf(c)), c);
  return { subtotal: z, discount: z, shipping: z, tax: z, additionalFees: z, total: z };
}

function applied(r: PricingResult, c: string): AppliedDiscount[] {
  return r.appliedDiscounts.map((a) => ({
    discountType: a.discountType,
    ...(a.coupon ? { coupon: { id: a.coupon.id, code: a.coupon.code, name: a.coupon.name, amount: m(a.coupon.amount, c) } } : {}),
    ...(a.merchantDiscount ? { merchantDiscount: { amount: m(a.merchantDiscount.amount, c), percentage: a.merchantDiscount.percentage } } : {}),
    ...(a.discountRule ? { discountRule: { id: a.discountRule.id, name: a.discountRule.name, amount: m(a.discountRule.amount, c) } } : {}),
    lineItemIds: a.lineItemIds,
    lineItemDiscounts: a.lineItemDiscounts.map((d) => ({ id: d.id, totalDiscountAmount: m(d.totalDiscountAmount, c) })),
  }));
}

function taxSummary(r: PricingResult, c: string): TaxSummary {
  const t = r.taxSummary;
  return {
    taxableAmount: m(t.taxableAmount, c), totalTax: m(t.totalTax, c), taxIncludedInPrice: t.taxIncludedInPrice,
    calculationDetails: { rateType: t.calculationDetails.rateType, ...(t.calculationDetails.manualRateReason ? { manualRateReason: t.calculationDetails.manualRateReason } : {}) },
    aggregatedTaxBreakdown: t.aggregatedTaxBreakdown.map((b) => ({
      taxName: b.taxName, taxType: b.taxType, jurisdiction: b.jurisdiction, jurisdictionTypeEnum: b.jurisdictionTypeEnum, rate: b.rate,
      aggregatedTaxAmount: m(b.aggregatedTaxAmount, c), aggregatedTaxableAmount: m(b.aggregatedTaxableAmount, c),
    })),
  };
}

function logistics(l: EngineShipping['carrierServiceOptions'][number]['shippingOptions'][number]['logistics']) {
  return {
    deliveryTime: l.deliveryTime, deliveryTimeSlot: l.deliveryTimeSlot, instructions: l.instructions,
    pickupDetails: l.pickupDetails ? { address: l.pickupDetails.address as Record<string, string | null>, businessLocation: l.pickupDetails.businessLocation, pickupMethod: l.pickupDetails.pickupMethod } : null,
  };
}

function shipping(s: EngineShipping, c: string): ShippingInformation {
  const sel = s.selectedCarrierServiceOption;
  return {
    region: s.region,
    selectedCarrierServiceOption: sel ? {
      code: sel.code, title: sel.title, logistics: logistics(sel.logistics), requestedShippingOption: sel.requestedShippingOption,
      cost: { price: m(sel.cost.price, c), totalDiscount: m(sel.cost.totalDiscount, c), totalPriceBeforeTax: m(sel.cost.totalPriceBeforeTax, c), totalPriceAfterTax: m(sel.cost.totalPriceAfterTax, c), taxDetails: tax(sel.cost.taxDetails, c) },
    } : null,
    carrierServiceOptions: s.carrierServiceOptions.map((o) => ({
      carrierId: o.carrierId,
      shippingOptions: o.shippingOptions.map((so) => ({
        code: so.code, title: so.title, logistics: logistics(so.logistics),
        cost: { price: m(so.cost.price, c), otherCharges: so.cost.otherCharges.map((oc) => ({ type: oc.type, price: m(oc.price, c), details: oc.details })) },
      })),
    })),
  };
}

function calculated(r: PricingResult, lines: ResolvedLine[], c: string): CalculatedLineItem[] {
  const option = new Map(lines.map((l) => [l.id, l.paymentOption]));
  return r.calculatedLineItems.map((cl) => {
    const p = cl.pricesBreakdown;
    return {
      lineItemId: cl.lineItemId,
      pricesBreakdown: {
        price: m(p.price, c), fullPrice: m(p.fullPrice, c), priceBeforeDiscounts: m(p.priceBeforeDiscounts, c), lineItemPrice: m(p.lineItemPrice, c),
        totalDiscount: m(p.totalDiscount, c), totalPriceBeforeTax: m(p.totalPriceBeforeTax, c), totalPriceAfterTax: m(p.totalPriceAfterTax, c), taxDetails: tax(p.taxDetails, c),
      },
      paymentOption: option.get(cl.lineItemId) ?? 'FULL_PAYMENT_ONLINE',
      taxableAddress: cl.taxableAddress,
    };
  });
}

function fees(r: PricingResult, c: string): AdditionalFee[] {
  return r.additionalFees.map((f) => ({
    code: f.code, name: f.name, price: m(f.price, c), priceBeforeTax: m(f.priceBeforeTax, c), priceAfterTax: m(f.priceAfterTax, c),
    taxDetails: tax(f.taxDetails, c), lineItemIds: f.lineItemIds, source: f.source,
  }));
}

function violations(r: PricingResult): Violation[] {
  return r.violations.map((v) => ({ severity: v.severity, target: v.target, description: v.description }));
}

const noMemberships = (): MembershipOptions => ({ eligibleMemberships: [], invalidMemberships: [], selectedMemberships: { memberships: [] } });

/** Estimated totals as wire JSON bytes, the cart through `encodeCart`. */
export function encodeTotals(cart: StoredCart, lines: ResolvedLine[], r: PricingResult): Buffer<ArrayBuffer> {
  const c = r.currency;
  const rest: Omit<EstimateTotalsResponse, 'cart'> = {
    calculatedLineItems: calculated(r, lines, c),
    priceSummary: summary(r, c),
    payNow: summary(r, c),
    payLater: zeroSummary(c),
    taxSummary: taxSummary(r, c),
    shippingInfo: shipping(r.shippingInfo, c),
    appliedDiscounts: applied(r, c),
    calculationErrors: r.calculationErrors,
    weightUnit: 'KG',
    currency: c,
    membershipOptions: noMemberships(),
    additionalFees: fees(r, c),
    violations: violations(r),
  };
  return encodeCart(cartOnWire(cart, lines, c, r), '{"cart":', `,${stringifyForWire(rest).slice(1)}`);
}

export function presentCheckout(co: StoredCheckout, lines: ResolvedLine[], r: PricingResult): Checkout {
  const c = r.currency;
  const d = co.doc;
  const byId = new Map(r.calculatedLineItems.map((cl) => [cl.lineItemId, cl.pricesBreakdown]));
  const checkoutLines: CheckoutLineItem[] = lines.map((l) => {
    const base = buildLine(l, c);
    const p = byId.get(l.id)!;
    return {
      ...base,
      price: m(p.price, c), priceBeforeDiscounts: m(p.priceBeforeDiscounts, c), lineItemPrice: m(p.lineItemPrice, c),
      totalPriceBeforeTax: m(p.totalPriceBeforeTax, c), totalPriceAfterTax: m(p.totalPriceAfterTax, c), taxDetails: tax(p.taxDetails, c),
      discount: m(p.totalDiscount, c), totalDiscount: m(p.totalDiscount, c),
      ...(base.image ? { media: base.image } : {}),
    };
  });
  const createdBy = d.buyer.memberId ? { memberId: d.buyer.memberId } : d.buyer.visitorId ? { visitorId: d.buyer.visitorId } : d.buyer.userId ? { userId: d.buyer.userId } : {};
  return {
    id: co.id,
    lineItems: checkoutLines,
    billingInfo: d.billingInfo,
    shippingInfo: { shippingDestination: d.shippingDestination, ...shipping(r.shippingInfo, c) },
    buyerNote: d.buyerNote,
    buyerInfo: buyerInfo(d.buyer, d.email),
    conversionCurrency: c, paymentCurrency: c,
    priceSummary: summary(r, c),
    payNow: summary(r, c),
    payLater: zeroSummary(c),
    calculationErrors: r.calculationErrors,
    appliedDiscounts: applied(r, c),
    customFields: d.customFields,
    weightUnit: 'KG',
    taxSummary: taxSummary(r, c),
    currency: c,
    channelType: d.channelType,
    siteLanguage: 'en',
    buyerLanguage: d.buyerLanguage ?? 'en',
    completed: co.completed,
    taxIncludedInPrice: r.taxSummary.taxIncludedInPrice,
    createdBy,
    createdDate: co.createdDate,
    updatedDate: co.updatedDate,
    membershipOptions: noMemberships(),
    additionalFees: fees(r, c),
    cartId: co.cartId,
    violations: violations(r),
    overrideCheckoutUrl: d.overrideCheckoutUrl,
  };
}
