/** Reading and checking the engine's input into exact internal values (minor units, millionths). */
import { PricingInputError } from './errors.js';
import { parseDecimal, parseMoney, parsePercentage, RATE_SCALE, rescale, type Currency } from './money.js';
import type { DiscountRuleType, ItemType, MerchantDiscountInput, PricingLineItem } from './model.js';

export const MAX_LINE_ITEMS = 300;
export const MAX_QUANTITY = 100_000;

export interface Line {
  id: string;
  /** Position in the input, only to give outputs back in the caller's order. */
  index: number;
  quantity: bigint;
  unitPrice: bigint;
  unitFullPrice: bigint;
  /** unitPrice * quantity: the line's share of the subtotal. */
  base: bigint;
  itemType: ItemType;
  appId: string | null;
  catalogItemIds: string[];
  taxGroupId: string | null;
  shippable: boolean;
  /** Weight of the whole line in millionths of the weight unit. */
  weightMicros: bigint;
  /** Lines that are not found or not available are shown but left out of every total. */
  priced: boolean;
  /** Where the line stands when a split leaves a minor unit to give (allocationOrder), computed once. */
  order: string;
}

export function isoInstant(text: string, field: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(ms)) throw new PricingInputError(field, 'must be an ISO 8601 date-time with a time zone');
  return ms;
}

/** A non-negative decimal number (weights) in millionths, read through its decimal spelling. */
export function decimalNumberMicros(value: number, field: string): bigint {
  if (!Number.isFinite(value) || value < 0) throw new PricingInputError(field, 'must be a non-negative number');
  const text = String(value);
  return rescale(parseDecimal(/e/i.test(text) ? value.toFixed(RATE_SCALE) : text, field), RATE_SCALE, field, 'weight');
}

export function boundedCount(value: number, field: string, minimum: number, maximum: number): bigint {
  if (!Number.isInteger(value) || value < minimum || value > maximum) throw new PricingInputError(field, `must be an integer from ${minimum} to ${maximum}`, value < minimum ? 'MIN' : 'MAX');
  return BigInt(value);
}

export function readLines(items: readonly PricingLineItem[], currency: Currency): Line[] {
  if (items.length > MAX_LINE_ITEMS) throw new PricingInputError('lineItems', `must have at most ${MAX_LINE_ITEMS} items`, 'MAX_SIZE');
  const seen = new Set<string>();
  return items.map((item, index) => {
    const field = `lineItems[${index}]`;
    if (!item.id) throw new PricingInputError(`${field}.id`, 'is required', 'REQUIRED_FIELD');
    if (seen.has(item.id)) throw new PricingInputError(`${field}.id`, 'must be unique in the cart');
    seen.add(item.id);
    const quantity = boundedCount(item.quantity, `${field}.quantity`, 1, MAX_QUANTITY);
    const unitPrice = parseMoney(item.price, currency, `${field}.price`);
    const unitFullPrice = item.fullPrice == null ? unitPrice : parseMoney(item.fullPrice, currency, `${field}.fullPrice`);
    const weight = item.physicalProperties?.weight;
    const unitWeight = weight == null ? 0n : decimalNumberMicros(weight, `${field}.physicalProperties.weight`);
    const status = item.availability?.status ?? 'AVAILABLE';
    const ids = [item.catalogReference?.catalogItemId, item.rootCatalogItemId].filter((v): v is string => !!v);
    const line: Line = {
      id: item.id,
      index,
      quantity,
      unitPrice,
      unitFullPrice,
      base: unitPrice * quantity,
      itemType: item.itemType,
      appId: item.catalogReference?.appId ?? null,
      catalogItemIds: ids,
      taxGroupId: item.taxGroupId ?? null,
      shippable: item.physicalProperties?.shippable ?? item.itemType === 'PHYSICAL',
      weightMicros: unitWeight * quantity,
      priced: status === 'AVAILABLE' || status === 'PARTIALLY_AVAILABLE',
      order: '',
    };
    line.order = allocationOrder(line);
    return line;
  });
}

/** A discount's value: a rate for PERCENTAGE, an amount for the two fixed kinds. */
export type DiscountAmount =
  | { type: 'PERCENTAGE'; rate: bigint; percentage: number }
  | { type: 'FIXED_AMOUNT' | 'FIXED_PRICE'; amount: bigint };

export function readDiscountAmount(
  value: { discountType: DiscountRuleType; percentage?: number | null; fixedAmount?: string | null; fixedPrice?: string | null },
  currency: Currency,
  field: string,
): DiscountAmount {
  switch (value.discountType) {
    case 'PERCENTAGE':
      if (value.percentage == null) throw new PricingInputError(`${field}.percentage`, 'is required for PERCENTAGE', 'REQUIRED_FIELD');
      return { type: 'PERCENTAGE', rate: parsePercentage(value.percentage, `${field}.percentage`), percentage: value.percentage };
    case 'FIXED_AMOUNT':
      if (value.fixedAmount == null) throw new PricingInputError(`${field}.fixedAmount`, 'is required for FIXED_AMOUNT', 'REQUIRED_FIELD');
      return { type: 'FIXED_AMOUNT', amount: parseMoney(value.fixedAmount, currency, `${field}.fixedAmount`) };
    case 'FIXED_PRICE':
      if (value.fixedPrice == null) throw new PricingInputError(`${field}.fixedPrice`, 'is required for FIXED_PRICE', 'REQUIRED_FIELD');
      return { type: 'FIXED_PRICE', amount: parseMoney(value.fixedPrice, currency, `${field}.fixedPrice`) };
    default:
      throw new PricingInputError(`${field}.discountType`, 'must be PERCENTAGE, FIXED_AMOUNT or FIXED_PRICE', 'INVALID_ENUM_VALUE');
  }
}

/**
 * A merchant discount read and checked (`field` names it in errors): exactly one of amount and
 * percentage, and only lines of `lineIds`. The engine reads it so, and the cart checks it so before it
 * stores one (a stored discount the engine refuses would fail every later read of the cart).
 */
export function readMerchantDiscount(m: MerchantDiscountInput, lineIds: { has(id: string): boolean }, currency: Currency, field: string): DiscountAmount {
  if ((m.amount == null) === (m.percentage == null)) throw new PricingInputError(field, 'must have exactly one of amount and percentage', 'ONE_OF_ALIGNMENT');
  (m.lineItemIds ?? []).forEach((id, k) => { if (!lineIds.has(id)) throw new PricingInputError(`${field}.lineItemIds[${k}]`, 'must be a line item of the cart'); });
  return m.amount != null
    ? { type: 'FIXED_AMOUNT', amount: parseMoney(m.amount, currency, `${field}.amount`) }
    : { type: 'PERCENTAGE', rate: parsePercentage(m.percentage!, `${field}.percentage`), percentage: m.percentage! };
}

/**
 * Where a line stands when a split leaves a minor unit to give: by what the line is (item, price,
 * quantity, tax group), not by its id, so the same cart priced with lines added in another order (and
 * so with other ids) gets every cent in the same place. Lines alike in all of these are interchangeable.
 */
export function allocationOrder(l: Line): string {
  return [l.appId ?? '', l.catalogItemIds.join(','), l.taxGroupId ?? '', l.unitPrice, l.quantity, l.itemType].join('|');
}
