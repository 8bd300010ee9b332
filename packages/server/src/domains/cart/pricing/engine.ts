/**
 * The pricing engine: one pure function from a cart and its store settings to every price the cart and
 * checkout contracts show. No I/O and no clock: `now` is an input. Order of work (docs/pricing.md says why):
 *   1. line prices;  2. automatic item discounts, then automatic cart discounts;  3. the coupon;
 *   4. merchant discounts;  5. shipping rates on the discounted goods, then shipping discounts;
 *   6. tax on what is left of each line, on shipping (spread over the lines it carries) and on fees;
 *   7. the summary: total = subtotal - discount + shipping + additional fees + tax added on top.
 */
import { PricingInputError } from './errors.js';
import { DISCOUNT_TARGETS, discountLines, discountOneUnit, lineDiscount, liveRuleValues, scopeMatches, type LiveRuleValue, type Remaining } from './discounts.js';
import { isoInstant, readDiscountAmount, readLines, readMerchantDiscount, type DiscountAmount, type Line } from './lines.js';
import {
  allocate, currencyOf, DEFAULT_ROUNDING_MODE, formatMoney, formatRate, parseMoney, sum,
  type Currency, type RoundingMode,
} from './money.js';
import type {
  AdditionalFeeOut, AppliedDiscount, CalculatedLineItem, CalculationErrors, CouponInput, DiscountTargetType, ErrorDetails,
  PricingInput, PricingResult, SelectedCarrierServiceOption, ShippingInformation, TaxableAddressType, Violation,
} from './model.js';
import { findShippingRegion, priceOptions, type PricedOption } from './shipping.js';
import { combine, findTaxRegion, taxAmount, taxDetails, TaxRates, type TaxedAmount } from './tax.js';

export const MAX_MERCHANT_DISCOUNTS = 50;
export const MAX_ADDITIONAL_FEES = 50;
const ROUNDING_MODES: readonly RoundingMode[] = ['HALF_UP', 'HALF_EVEN'];

/** One discount as applied: its source, what it took from each line, and from shipping. */
interface Applied {
  targetType: DiscountTargetType;
  source:
    | { kind: 'rule'; id: string; name: string }
    | { kind: 'coupon'; coupon: CouponInput }
    | { kind: 'merchant'; percentage: number | null };
  lines: Map<string, bigint>;
  shipping: bigint;
}

const detail = (code: string, description: string, data: Record<string, unknown> = {}): ErrorDetails => ({ applicationError: { code, description, data } });

export function calculatePricing(input: PricingInput): PricingResult {
  const currency = currencyOf(input.currency);
  const mode = input.roundingMode ?? DEFAULT_ROUNDING_MODE;
  if (!ROUNDING_MODES.includes(mode)) throw new PricingInputError('roundingMode', 'must be HALF_UP or HALF_EVEN', 'INVALID_ENUM_VALUE');
  const nowMs = isoInstant(input.now, 'now');
  const lines = readLines(input.lineItems, currency);
  const byId = new Map(lines.map((l) => [l.id, l]));
  const priced = lines.filter((l) => l.priced);
  const remaining: Remaining = new Map(priced.map((l) => [l.id, l.base]));
  const applied: Applied[] = [];
  const errors: CalculationErrors = {};
  const violations: Violation[] = availabilityViolations(input);
  const money = (v: bigint) => ({ amount: formatMoney(v, currency) });

  // 2. Automatic discount rules: item discounts first, then whole-cart discounts on what is left.
  const ruleValues = liveRuleValues(input.discountRules ?? [], { lines, memberId: input.buyer?.memberId ?? null, currency }, nowMs);
  for (const stage of ['SPECIFIC_ITEMS', 'GLOBAL'] as const) {
    for (const rv of ruleValues.filter((v) => v.value.targetType === stage)) {
      const targets = stage === 'GLOBAL' ? priced : priced.filter((l) => scopeMatches(rv.value.specificItemsInfo?.scopes, l));
      if (targets.length === 0) continue;
      record(applied, ruleSource(rv), stage, discountLines(rv.amount, targets, remaining, stage === 'SPECIFIC_ITEMS', mode), 0n);
    }
  }

  // 3. The coupon, if it may be used now on this cart (judged on the undiscounted subtotal).
  const coupon = input.coupon ?? null;
  const couponAmount = coupon ? readDiscountAmount(coupon.discount, currency, 'coupon.discount') : null;
  if (coupon && !DISCOUNT_TARGETS.includes(coupon.discount.targetType)) {
    throw new PricingInputError('coupon.discount.targetType', 'must be GLOBAL, SPECIFIC_ITEMS or SHIPPING', 'INVALID_ENUM_VALUE');
  }
  const couponError = coupon ? couponProblem(coupon, priced, currency, nowMs) : null;
  if (couponError) errors.couponCalculationError = couponError;
  const couponUsable = coupon && couponAmount && !couponError;
  if (couponUsable && coupon.discount.targetType !== 'SHIPPING') {
    const item = coupon.discount.targetType === 'SPECIFIC_ITEMS';
    const targets = item ? priced.filter((l) => scopeMatches(coupon.discount.specificItemsInfo?.scopes, l)) : priced;
    const taken = coupon.limitedToOneItem ? discountOneUnit(couponAmount, targets, remaining, mode) : discountLines(couponAmount, targets, remaining, item, mode);
    record(applied, { kind: 'coupon', coupon }, coupon.discount.targetType, taken, 0n);
  }

  // 4. Merchant discounts, in the order the merchant added them, on the final negotiated prices.
  const merchant = input.merchantDiscounts ?? [];
  if (merchant.length > MAX_MERCHANT_DISCOUNTS) throw new PricingInputError('merchantDiscounts', `must have at most ${MAX_MERCHANT_DISCOUNTS} discounts`, 'MAX_SIZE');
  merchant.forEach((m, i) => {
    const amount = readMerchantDiscount(m, byId, currency, `merchantDiscounts[${i}]`);
    const ids = m.lineItemIds ?? [];
    const perLine = ids.length > 0;
    const targets = perLine ? priced.filter((l) => ids.includes(l.id)) : priced;
    // A merchant amount is for the chosen lines together, split over them; a percentage is per line.
    const taken = discountLines(amount, targets, remaining, perLine && amount.type === 'PERCENTAGE', mode);
    record(applied, { kind: 'merchant', percentage: m.percentage ?? null }, perLine ? 'SPECIFIC_ITEMS' : 'GLOBAL', taken, 0n);
  });

  // 5. Shipping: rated on the shippable goods after their discounts, then shipping discounts.
  const shippable = priced.filter((l) => l.shippable);
  const shipping = chooseShipping(input, shippable, remaining, currency, nowMs, errors, violations);
  let shippingLeft = shipping.selected?.cost ?? 0n;
  const shippingDiscounts: { source: Applied['source']; amount: DiscountAmount }[] = ruleValues
    .filter((v) => v.value.targetType === 'SHIPPING').map((v) => ({ source: ruleSource(v), amount: v.amount }));
  if (couponUsable && coupon.discount.targetType === 'SHIPPING') shippingDiscounts.push({ source: { kind: 'coupon', coupon }, amount: couponAmount });
  for (const d of shippingDiscounts) {
    const taken = lineDiscount(d.amount, shippingLeft, 1n, mode);
    shippingLeft -= taken;
    record(applied, d.source, 'SHIPPING', new Map(), taken);
  }

  // 6. Tax, in the one region of the taxable address.
  const taxSettings = input.tax ?? { regions: [], manualTaxMappings: [] };
  const addressType: TaxableAddressType = taxSettings.taxableAddressType ?? 'SHIPPING';
  const taxAddress = addressType === 'BUSINESS' ? input.businessAddress
    : addressType === 'BILLING' ? input.billingAddress
    : input.shippingAddress ?? input.billingAddress; // carts that ship nothing have only a billing address
  const region = findTaxRegion(taxSettings.regions, taxAddress);
  const rates = new TaxRates(region, taxSettings.manualTaxMappings);
  const included = rates.included;
  const lineTax = new Map(priced.map((l) => [l.id, taxAmount(remaining.get(l.id) ?? 0n, rates.componentsFor(l.taxGroupId), included, mode)]));

  // Shipping is taxed at the rates of the lines it carries, split over them by what is left of each.
  const shippingNet = shippingLeft;
  const taxShipping = taxSettings.taxShipping ?? true;
  const shippingShares = shippable.length > 0 ? allocate(shippingNet, shippable.map((l) => ({ key: l.id, weight: remaining.get(l.id) ?? 0n, order: l.order }))) : new Map<string, bigint>();
  const shippingPieces = shippable.map((l) => {
    const share = shippingShares.get(l.id) ?? 0n;
    return { line: l, share, taxed: taxAmount(share, taxShipping ? rates.componentsFor(l.taxGroupId) : [], included, mode) };
  });
  const shippingTaxed = combine(shippingPieces.map((p) => p.taxed));

  // Additional fees, taxed at their own group's rate.
  const fees = input.additionalFees ?? [];
  if (fees.length > MAX_ADDITIONAL_FEES) throw new PricingInputError('additionalFees', `must have at most ${MAX_ADDITIONAL_FEES} fees`, 'MAX_SIZE');
  const feeResults = fees.map((fee, i) => {
    const price = parseMoney(fee.price, currency, `additionalFees[${i}].price`);
    (fee.lineItemIds ?? []).forEach((id, k) => { if (!byId.has(id)) throw new PricingInputError(`additionalFees[${i}].lineItemIds[${k}]`, 'must be a line item of the cart'); });
    const taxed = taxAmount(price, fee.taxable === false ? [] : rates.componentsFor(fee.taxGroupId ?? null), included, mode);
    return { fee, price, taxed };
  });

  // 7. Summary.
  const subtotal = sum(priced.map((l) => l.base));
  const itemDiscount = sum(priced.map((l) => l.base - (remaining.get(l.id) ?? 0n)));
  const shippingCost = shipping.selected?.cost ?? 0n;
  const shippingDiscount = shippingCost - shippingNet;
  const feesTotal = sum(feeResults.map((f) => f.price));
  const allTaxed: TaxedAmount[] = [...lineTax.values(), ...shippingPieces.map((p) => p.taxed), ...feeResults.map((f) => f.taxed)];
  const tax = sum(allTaxed.map((t) => t.tax));
  const total = subtotal - itemDiscount + shippingCost - shippingDiscount + feesTotal + (included ? 0n : tax);
  const aggregate = combine(allTaxed);

  const calculatedLineItems: CalculatedLineItem[] = lines.map((l) => {
    const net = remaining.get(l.id) ?? 0n;
    const t = lineTax.get(l.id) ?? taxAmount(0n, [], included, mode);
    return {
      lineItemId: l.id,
      priced: l.priced,
      taxableAddress: { addressType },
      pricesBreakdown: {
        price: money(l.unitPrice),
        fullPrice: money(l.unitFullPrice),
        priceBeforeDiscounts: money(l.unitPrice),
        lineItemPrice: money(l.base),
        totalDiscount: money(l.priced ? l.base - net : 0n),
        totalPriceBeforeTax: money(included ? net - t.tax : net),
        totalPriceAfterTax: money(included ? net : net + t.tax),
        taxDetails: taxDetails(t, currency),
      },
    };
  });

  const shippingInfo: ShippingInformation = {
    region: shipping.region ? { id: shipping.region.id, name: shipping.region.name } : null,
    carrierServiceOptions: shipping.options.length === 0 ? [] : [{
      carrierId: shipping.region?.id ?? '',
      shippingOptions: shipping.options.map((o) => ({
        code: o.option.code,
        title: o.option.title,
        logistics: o.logistics,
        cost: { price: money(o.rate), otherCharges: o.otherCharges.map((c) => ({ type: c.type, price: money(c.price), details: c.details })) },
      })),
    }],
    selectedCarrierServiceOption: shipping.selected ? selectedOption(shipping.selected, shipping.requested, shippingDiscount, shippingTaxed, shippingPieces, included, currency) : null,
  };

  const additionalFees: AdditionalFeeOut[] = feeResults.map(({ fee, price, taxed }) => ({
    code: fee.code,
    name: fee.name,
    price: money(price),
    priceBeforeTax: money(included ? price - taxed.tax : price),
    priceAfterTax: money(included ? price : price + taxed.tax),
    taxDetails: taxDetails(taxed, currency),
    lineItemIds: fee.lineItemIds ?? [],
    source: fee.source ?? 'MANUAL',
  }));

  return {
    currency: currency.code,
    calculatedLineItems,
    priceSummary: {
      subtotal: money(subtotal),
      discount: money(itemDiscount + shippingDiscount),
      shipping: money(shippingCost),
      tax: money(tax),
      additionalFees: money(feesTotal),
      total: money(total),
    },
    appliedDiscounts: presentDiscounts(applied, lines, currency),
    taxSummary: {
      taxableAmount: money(sum(allTaxed.filter((t) => t.parts.length > 0).map((t) => t.taxable))),
      totalTax: money(tax),
      taxIncludedInPrice: included,
      calculationDetails: region && rates.hasAny ? { rateType: 'MANUAL_RATE', manualRateReason: 'REGION_SETTING_TO_MANUAL' } : { rateType: 'NO_TAX_COLLECTED' },
      aggregatedTaxBreakdown: aggregate.parts.map((p) => ({
        taxRegionId: p.component.mapping.taxRegionId,
        taxGroupId: p.component.mapping.taxGroupId,
        taxName: p.component.mapping.taxName,
        taxType: p.component.mapping.taxType ?? null,
        jurisdiction: p.component.mapping.jurisdiction,
        jurisdictionTypeEnum: p.component.mapping.jurisdictionType,
        rate: formatRate(p.component.rate),
        aggregatedTaxAmount: money(p.tax),
        aggregatedTaxableAmount: money(p.taxable),
      })),
    },
    shippingInfo,
    additionalFees,
    calculationErrors: errors,
    violations,
  };
}

function ruleSource(rv: LiveRuleValue): Applied['source'] {
  return { kind: 'rule', id: rv.rule.id, name: rv.rule.name };
}

/** Adds to the entry of the same source and target, so a rule with two values is one applied discount. */
function record(applied: Applied[], source: Applied['source'], targetType: DiscountTargetType, lines: Map<string, bigint>, shipping: bigint): void {
  const sameRule = (a: Applied) => a.targetType === targetType && a.source.kind === 'rule' && source.kind === 'rule' && a.source.id === source.id;
  const same = applied.find(sameRule);
  const entry = same ?? { targetType, source, lines: new Map<string, bigint>(), shipping: 0n };
  for (const [id, v] of lines) entry.lines.set(id, (entry.lines.get(id) ?? 0n) + v);
  entry.shipping += shipping;
  if (!same) applied.push(entry);
}

function presentDiscounts(applied: readonly Applied[], lines: readonly Line[], currency: Currency): AppliedDiscount[] {
  const money = (v: bigint) => ({ amount: formatMoney(v, currency) });
  const out: AppliedDiscount[] = [];
  for (const a of applied) {
    const touched = lines.filter((l) => (a.lines.get(l.id) ?? 0n) > 0n);
    const amount = sum(a.lines.values()) + a.shipping;
    // A discount that took nothing is not shown, except the coupon: the buyer entered it and should see it.
    if (amount === 0n && a.source.kind !== 'coupon') continue;
    const base: AppliedDiscount = {
      discountType: a.targetType,
      lineItemIds: touched.map((l) => l.id),
      lineItemDiscounts: touched.map((l) => ({ id: l.id, totalDiscountAmount: money(a.lines.get(l.id) ?? 0n) })),
    };
    if (a.source.kind === 'rule') base.discountRule = { id: a.source.id, name: { original: a.source.name }, amount: money(amount) };
    else if (a.source.kind === 'coupon') base.coupon = { id: a.source.coupon.id, code: a.source.coupon.code, name: a.source.coupon.name, amount: money(amount) };
    else base.merchantDiscount = { amount: money(amount), percentage: a.source.percentage };
    out.push(base);
  }
  return out;
}

export const COUPON_ERRORS = {
  inactive: 'COUPON_INACTIVE',
  notStarted: 'COUPON_NOT_STARTED',
  expired: 'COUPON_EXPIRED',
  usageLimit: 'COUPON_USAGE_LIMIT_REACHED',
  minimumSubtotal: 'COUPON_MINIMUM_SUBTOTAL_NOT_MET',
  notApplicable: 'COUPON_NOT_APPLICABLE',
} as const;

function couponProblem(coupon: CouponInput, priced: readonly Line[], currency: Currency, nowMs: number): ErrorDetails | null {
  if (coupon.active === false) return detail(COUPON_ERRORS.inactive, 'This coupon is not active');
  if (coupon.startTime && isoInstant(coupon.startTime, 'coupon.startTime') > nowMs) return detail(COUPON_ERRORS.notStarted, 'This coupon cannot be used yet');
  if (coupon.expirationTime && isoInstant(coupon.expirationTime, 'coupon.expirationTime') <= nowMs) return detail(COUPON_ERRORS.expired, 'This coupon has expired');
  if (coupon.remainingUses != null && coupon.remainingUses <= 0) return detail(COUPON_ERRORS.usageLimit, 'This coupon has reached its usage limit');
  if (coupon.minimumSubtotal != null) {
    const minimum = parseMoney(coupon.minimumSubtotal, currency, 'coupon.minimumSubtotal');
    if (sum(priced.map((l) => l.base)) < minimum) {
      return detail(COUPON_ERRORS.minimumSubtotal, 'The cart subtotal is below the coupon minimum', { minimumSubtotal: formatMoney(minimum, currency) });
    }
  }
  const d = coupon.discount;
  const applicable = d.targetType === 'SPECIFIC_ITEMS' ? priced.some((l) => scopeMatches(d.specificItemsInfo?.scopes, l) && !!d.specificItemsInfo?.scopes?.length)
    : d.targetType === 'SHIPPING' ? priced.some((l) => l.shippable)
    : priced.length > 0;
  return applicable ? null : detail(COUPON_ERRORS.notApplicable, 'This coupon does not apply to any item in the cart');
}

interface ShippingChoice { region: { id: string; name: string } | null; options: PricedOption[]; selected: PricedOption | null; requested: boolean }

function chooseShipping(input: PricingInput, shippable: readonly Line[], remaining: Remaining, currency: Currency, nowMs: number, errors: CalculationErrors, violations: Violation[]): ShippingChoice {
  const none: ShippingChoice = { region: null, options: [], selected: null, requested: false };
  // Nothing to ship, or no address yet (an estimate before checkout): no shipping and nothing wrong.
  if (shippable.length === 0 || !input.shippingAddress?.country) return none;
  const regions = input.shipping?.regions ?? [];
  const region = findShippingRegion(regions, input.shippingAddress);
  const options = region ? priceOptions(region, regions.indexOf(region), {
    subtotalAfterItemDiscounts: sum(shippable.map((l) => remaining.get(l.id) ?? 0n)),
    weightMicros: sum(shippable.map((l) => l.weightMicros)),
  }, currency, nowMs) : [];
  if (options.length === 0) {
    errors.generalShippingCalculationError = detail('NO_SHIPPING_OPTIONS', 'No shipping option delivers this cart to the address', { country: input.shippingAddress.country });
    violations.push({ severity: 'ERROR', target: { other: { name: 'OTHER_DEFAULT' } }, description: 'We do not ship these items to this address.' });
    return { ...none, region };
  }
  const code = input.shipping?.selectedShippingOption?.code;
  const requested = code ? options.find((o) => o.option.code === code) ?? null : null;
  if (code && !requested) {
    errors.selectedShippingOptionError = detail('SELECTED_SHIPPING_OPTION_UNAVAILABLE', 'The selected shipping option is not available for this cart', { code });
  }
  // Without a usable choice, the cheapest delivery (then the smallest code) is selected. A pickup is
  // never chosen for the buyer (it means going to the store) unless nothing is delivered to the address.
  const delivered = options.filter((o) => !o.option.pickup);
  const cheapest = [...(delivered.length > 0 ? delivered : options)]
    .sort((a, b) => (a.cost === b.cost ? (a.option.code < b.option.code ? -1 : 1) : a.cost < b.cost ? -1 : 1))[0] ?? null;
  return { region, options, selected: requested ?? cheapest, requested: requested !== null };
}

function selectedOption(
  o: PricedOption, requested: boolean, discount: bigint, taxed: TaxedAmount,
  pieces: readonly { line: Line; share: bigint; taxed: TaxedAmount }[], included: boolean, currency: Currency,
): SelectedCarrierServiceOption {
  const money = (v: bigint) => ({ amount: formatMoney(v, currency) });
  const net = o.cost - discount;
  return {
    code: o.option.code,
    title: o.option.title,
    logistics: o.logistics,
    requestedShippingOption: requested,
    cost: {
      price: money(o.cost),
      totalDiscount: money(discount),
      totalPriceBeforeTax: money(included ? net - taxed.tax : net),
      totalPriceAfterTax: money(included ? net : net + taxed.tax),
      taxDetails: taxDetails(taxed, currency),
    },
    lineAllocations: pieces.map((p) => ({ lineItemId: p.line.id, amount: money(p.share), tax: money(p.taxed.tax) })),
  };
}

function availabilityViolations(input: PricingInput): Violation[] {
  const out: Violation[] = [];
  for (const item of input.lineItems) {
    const a = item.availability;
    if (!a) continue;
    if (a.status === 'NOT_FOUND' || a.status === 'NOT_AVAILABLE') {
      out.push({ severity: 'ERROR', target: { lineItem: { name: 'LINE_ITEM_DEFAULT', id: item.id, suggestedFix: 'REMOVE_LINE_ITEM' } }, description: 'This item is no longer available.' });
    } else if (a.status === 'PARTIALLY_AVAILABLE') {
      out.push({ severity: 'WARNING', target: { lineItem: { name: 'LINE_ITEM_DEFAULT', id: item.id } }, description: `Only ${a.quantityAvailable ?? 0} of this item are available.` });
    }
  }
  return out;
}
