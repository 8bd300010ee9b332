/**
 * The coupon form's fields as typed, checked and turned into the specification the server takes. One
 * place for the new-coupon form and the edit dialog, so both name a typo the same way.
 */
import type { coupons } from '@vitrine/sdk/ecom';
import { amountText, percentValue } from './money';

export type CouponKind = 'percent' | 'amount' | 'shipping';

export interface CouponFields { kind: CouponKind; value: string; minimum: string; limit: string; expires: string }

/** What a coupon's discount, minimum, use limit and last day set (each field, cleared ones as null). */
export type CouponTerms = Pick<coupons.CouponSpecification, 'percentOffRate' | 'moneyOffAmount' | 'freeShipping' | 'minimumSubtotal' | 'usageLimit' | 'expirationTime'>;

/** The terms of `fields`, or the first field in error in words the owner can act on. */
export function couponTerms(f: CouponFields): { terms: CouponTerms } | { error: string } {
  const percentOffRate = f.kind === 'percent' ? percentValue(f.value) : undefined;
  const moneyOffAmount = f.kind === 'amount' ? amountText(f.value) : undefined;
  if (f.kind === 'percent' && percentOffRate === undefined) return { error: 'Coupon discount: a percentage above 0 and at most 100' };
  if (f.kind === 'amount' && moneyOffAmount === undefined) return { error: 'Coupon discount: an amount such as 5 or 4.99' };
  const minimumSubtotal = f.minimum.trim() ? amountText(f.minimum) : undefined;
  if (f.minimum.trim() && minimumSubtotal === undefined) return { error: 'Minimum subtotal: an amount such as 50 or 49.99' };
  const usageLimit = f.limit.trim() ? Number(f.limit) : undefined;
  if (usageLimit !== undefined && !(Number.isInteger(usageLimit) && usageLimit >= 1)) return { error: 'Uses: a whole number of at least 1' };
  // A date picked in the owner's zone ends at the end of that day there.
  const expirationTime = f.expires ? new Date(`${f.expires}T23:59:59`).toISOString() : undefined;
  return {
    terms: {
      percentOffRate: percentOffRate ?? null,
      moneyOffAmount: moneyOffAmount ?? null,
      freeShipping: f.kind === 'shipping' ? true : null,
      minimumSubtotal: minimumSubtotal ?? null,
      usageLimit: usageLimit ?? null,
      expirationTime: expirationTime ?? null,
    },
  };
}

/** The labels of the coupon form's fields, by the specification field the server names in a violation. */
const COUPON_LABELS: Record<string, string> = {
  percentOffRate: 'Coupon discount', moneyOffAmount: 'Coupon discount', minimumSubtotal: 'Coupon minimum subtotal', usageLimit: 'Uses', expirationTime: 'Last day',
};

/** A refused coupon's field violation in the form's words ("Last day: must be after the coupon starts"). */
export function describeCouponViolation({ field, description }: { field: string; description: string }): string | undefined {
  const label = COUPON_LABELS[field.replace(/^(coupon\.)?specification\./, '')];
  return label ? `${label}: ${description.replace('startTime', 'the day the coupon starts (today for a new one)')}` : undefined;
}

/** The form fields of a stored coupon (the last day in the owner's zone). */
export function couponFields(spec: coupons.CouponSpecification): CouponFields {
  const kind: CouponKind = spec.percentOffRate != null ? 'percent' : spec.moneyOffAmount != null ? 'amount' : 'shipping';
  const expires = spec.expirationTime ? localDay(new Date(spec.expirationTime)) : '';
  return {
    kind,
    value: kind === 'percent' ? String(spec.percentOffRate) : kind === 'amount' ? String(spec.moneyOffAmount) : '',
    minimum: spec.minimumSubtotal ?? '',
    limit: spec.usageLimit != null ? String(spec.usageLimit) : '',
    expires,
  };
}

/** YYYY-MM-DD of `date` in the browser's zone (what a date input shows). */
function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Whether the edit dialog can show the coupon whole (not a fixed-price or item-scoped coupon). */
export function editableCoupon(spec: coupons.CouponSpecification): boolean {
  return spec.fixedPriceAmount == null && spec.scope == null && !spec.limitedToOneItem;
}
