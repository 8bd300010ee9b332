/**
 * Shipping rates: the region for the shipping address, each of its options priced for the cart
 * (flat, free, by weight, by subtotal, free over a threshold, plus other charges), and delivery windows
 * placed after `now`. Options a cart cannot use (weight above every range) are left out.
 */
import { PricingInputError } from './errors.js';
import { decimalNumberMicros } from './lines.js';
import { parseMoney, sum, type Currency } from './money.js';
import type { DeliveryLogistics, PricingAddress, ShippingOptionInput, ShippingRegionInput } from './model.js';

export const MAX_SHIPPING_REGIONS = 200;
export const MAX_SHIPPING_OPTIONS = 50;
export const MAX_RATE_RANGES = 50;
export const MAX_OTHER_CHARGES = 10;
/** A delivery window further out than a year is a typo. */
export const MAX_DELIVERY_HOURS = 24 * 366;
const HOUR_MS = 3_600_000;
/** Delivery slots count from the start of the minute of pricing. */
export const SLOT_STEP_MS = 60_000;

/**
 * Where a delivery window starts counting: the start of `nowMs`'s minute. A window of hours needs no
 * finer start, and every pricing within one minute gives the same slots, so a priced answer with a
 * slot stays true until the minute ends (estimate.ts keeps it that long).
 */
export const slotBase = (nowMs: number): number => nowMs - (nowMs % SLOT_STEP_MS);

const upper = (s: string | null | undefined) => (s ?? '').trim().toUpperCase();

/** A region naming the subdivision beats one covering the whole country; ties go to the smaller id. */
export function findShippingRegion(regions: readonly ShippingRegionInput[], address: PricingAddress | null | undefined): ShippingRegionInput | null {
  if (regions.length > MAX_SHIPPING_REGIONS) throw new PricingInputError('shipping.regions', `must have at most ${MAX_SHIPPING_REGIONS} regions`, 'MAX_SIZE');
  const country = upper(address?.country);
  if (!country) return null;
  const subdivision = upper(address?.subdivision);
  let best: { region: ShippingRegionInput; specific: boolean } | null = null;
  for (const region of regions) {
    for (const d of region.destinations) {
      if (upper(d.country) !== country) continue;
      const subs = (d.subdivisions ?? []).map(upper);
      const specific = subs.length > 0;
      if (specific && !subs.includes(subdivision)) continue;
      if (!best || (specific && !best.specific) || (specific === best.specific && region.id < best.region.id)) best = { region, specific };
    }
  }
  return best?.region ?? null;
}

export interface PricedOption {
  option: ShippingOptionInput;
  /** The rate for this cart (zero when free). */
  rate: bigint;
  otherCharges: { type: 'HANDLING_FEE' | 'INSURANCE'; price: bigint; details: string | null }[];
  /** rate + other charges: what the buyer pays before shipping discounts. */
  cost: bigint;
  logistics: DeliveryLogistics;
}

export interface ShippableCart { subtotalAfterItemDiscounts: bigint; weightMicros: bigint }

export function priceOptions(region: ShippingRegionInput, regionIndex: number, cart: ShippableCart, currency: Currency, nowMs: number): PricedOption[] {
  if (region.options.length > MAX_SHIPPING_OPTIONS) throw new PricingInputError(`shipping.regions[${regionIndex}].options`, `must have at most ${MAX_SHIPPING_OPTIONS} options`, 'MAX_SIZE');
  const codes = new Set<string>();
  const out: PricedOption[] = [];
  region.options.forEach((option, i) => {
    const field = `shipping.regions[${regionIndex}].options[${i}]`;
    if (codes.has(option.code)) throw new PricingInputError(`${field}.code`, 'must be unique in its region');
    codes.add(option.code);
    const rate = rateFor(option, cart, currency, field);
    if (rate === null) return;
    if ((option.otherCharges?.length ?? 0) > MAX_OTHER_CHARGES) throw new PricingInputError(`${field}.otherCharges`, `must have at most ${MAX_OTHER_CHARGES} charges`, 'MAX_SIZE');
    const otherCharges = (option.otherCharges ?? []).map((c, k) => ({ type: c.type, price: parseMoney(c.price, currency, `${field}.otherCharges[${k}].price`), details: c.details ?? null }));
    out.push({ option, rate, otherCharges, cost: rate + sum(otherCharges.map((c) => c.price)), logistics: logisticsFor(option, nowMs, field) });
  });
  return out;
}

/** The option's rate for the cart, or null when the option cannot carry it. */
function rateFor(option: ShippingOptionInput, cart: ShippableCart, currency: Currency, field: string): bigint | null {
  const threshold = option.freeOver == null ? null : parseMoney(option.freeOver, currency, `${field}.freeOver`);
  const rate = option.rate;
  let price: bigint | null;
  switch (rate.type) {
    case 'FREE': price = 0n; break;
    case 'FLAT': price = parseMoney(rate.price, currency, `${field}.rate.price`); break;
    case 'BY_WEIGHT':
      price = fromRanges(rate.ranges, `${field}.rate.ranges`, currency, cart.weightMicros, (v, f) => decimalNumberMicros(v, f));
      break;
    case 'BY_SUBTOTAL':
      price = fromRanges(rate.ranges, `${field}.rate.ranges`, currency, cart.subtotalAfterItemDiscounts, (v, f) => parseMoney(v, currency, f));
      break;
    default:
      throw new PricingInputError(`${field}.rate.type`, 'must be FLAT, FREE, BY_WEIGHT or BY_SUBTOTAL', 'INVALID_ENUM_VALUE');
  }
  if (price === null) return null;
  return threshold !== null && cart.subtotalAfterItemDiscounts >= threshold ? 0n : price;
}

/** Ranges must rise; the first whose `upTo` is at least `value` wins, a missing `upTo` means "and above". */
function fromRanges<T>(ranges: readonly { upTo?: T | null; price: string }[], field: string, currency: Currency, value: bigint, read: (v: T, f: string) => bigint): bigint | null {
  if (ranges.length === 0 || ranges.length > MAX_RATE_RANGES) throw new PricingInputError(field, `must have 1 to ${MAX_RATE_RANGES} ranges`, 'MAX_SIZE');
  let previous = -1n;
  let found: bigint | null = null;
  ranges.forEach((range, i) => {
    const price = parseMoney(range.price, currency, `${field}[${i}].price`);
    const upTo = range.upTo == null ? null : read(range.upTo, `${field}[${i}].upTo`);
    if (upTo === null && i !== ranges.length - 1) throw new PricingInputError(`${field}[${i}].upTo`, 'only the last range may be open');
    if (upTo !== null && upTo <= previous) throw new PricingInputError(`${field}[${i}].upTo`, 'must be above the previous range');
    if (upTo !== null) previous = upTo;
    if (found === null && (upTo === null || value <= upTo)) found = price;
  });
  return found;
}

function logisticsFor(option: ShippingOptionInput, nowMs: number, field: string): DeliveryLogistics {
  let deliveryTimeSlot: DeliveryLogistics['deliveryTimeSlot'] = null;
  if (option.deliveryWindow) {
    const { fromHours, toHours } = option.deliveryWindow;
    const ok = (h: number) => Number.isInteger(h) && h >= 0 && h <= MAX_DELIVERY_HOURS;
    if (!ok(fromHours) || !ok(toHours) || fromHours > toHours) {
      throw new PricingInputError(`${field}.deliveryWindow`, `must be whole hours from 0 to ${MAX_DELIVERY_HOURS}, fromHours <= toHours`);
    }
    const base = slotBase(nowMs);
    deliveryTimeSlot = { from: new Date(base + fromHours * HOUR_MS).toISOString(), to: new Date(base + toHours * HOUR_MS).toISOString() };
  }
  return {
    deliveryTime: option.deliveryTime ?? null,
    deliveryTimeSlot,
    instructions: option.pickup?.instructions ?? null,
    pickupDetails: option.pickup ? { address: option.pickup.address, businessLocation: option.pickup.pickupMethod === 'STORE_PICKUP', pickupMethod: option.pickup.pickupMethod } : null,
  };
}
