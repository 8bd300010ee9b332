import type {
  CheckoutSettings, Coupon, DiscountRule, DiscountRuleStatus, ManualTaxRate, ShippingRegion, TaxGroup, TaxRegion, TaxSettings,
} from '@vitrine/types/ecom-rules';
import type {
  CouponRecord, DiscountRuleRecord, ManualRateRecord, PricingSettings, ShippingRegionRecord, StoredCheckoutSettings, TaxGroupRecord, TaxRegionRecord,
} from './model.js';
import { DEFAULT_ROUNDING_MODE } from '../pricing/index.js';

/** Wire objects of the pricing rules (the same for answers and event payloads: only owners read them). */

/** LIVE while active and inside its window; PENDING before the start; EXPIRED after the end or when switched off. */
export function ruleStatus(rule: Pick<DiscountRuleRecord, 'active' | 'activeTimeInfo'>, now: Date): DiscountRuleStatus {
  const t = now.getTime();
  const start = rule.activeTimeInfo?.start ? Date.parse(rule.activeTimeInfo.start) : null;
  const end = rule.activeTimeInfo?.end ? Date.parse(rule.activeTimeInfo.end) : null;
  if (end !== null && t >= end) return 'EXPIRED';
  if (start !== null && t < start) return 'PENDING';
  return rule.active ? 'LIVE' : 'EXPIRED';
}

export function presentDiscountRule(r: DiscountRuleRecord, now = new Date()): DiscountRule {
  const out: DiscountRule = {
    id: r.id, revision: String(r.revision), createdDate: r.createdDate, updatedDate: r.updatedDate, active: r.active, name: r.name,
    discounts: r.discounts, status: ruleStatus(r, now), usageCount: r.usageCount,
  };
  if (r.trigger) out.trigger = r.trigger;
  if (r.activeTimeInfo) out.activeTimeInfo = r.activeTimeInfo;
  return out;
}

export function presentTaxGroup(g: TaxGroupRecord): TaxGroup {
  return { id: g.id, name: g.name, revision: String(g.revision), createdDate: g.createdDate, updatedDate: g.updatedDate };
}

export function presentTaxRegion(t: TaxRegionRecord): TaxRegion {
  return {
    id: t.id, country: t.country, subdivision: t.subdivision, appId: t.appId, taxIncludedInPrice: t.taxIncludedInPrice,
    revision: String(t.revision), createdDate: t.createdDate, updatedDate: t.updatedDate,
  };
}

export function presentManualRate(m: ManualRateRecord): ManualTaxRate {
  return { id: m.id, taxGroupId: m.taxGroupId, taxRate: m.taxRate, taxName: m.taxName, taxType: m.taxType, jurisdiction: m.jurisdiction, jurisdictionType: m.jurisdictionType };
}

export function presentTaxSettings(p: PricingSettings): TaxSettings {
  return { taxableAddressType: p.taxableAddressType, taxShipping: p.taxShipping, businessAddress: p.businessAddress, roundingMode: p.roundingMode ?? DEFAULT_ROUNDING_MODE };
}

export function presentCheckoutSettings(s: StoredCheckoutSettings, dates: { createdDate: string | null; updatedDate: string | null }): CheckoutSettings {
  const out: CheckoutSettings = { ...s };
  if (dates.createdDate) out.createdDate = dates.createdDate;
  if (dates.updatedDate) out.updatedDate = dates.updatedDate;
  return out;
}

/** How the coupon reads to a person: "10% off", "5.00 off", "Free shipping", "Fixed price 3.00". */
function discountDescription(c: CouponRecord, currency: string): string {
  const s = c.specification;
  if (s.freeShipping) return 'Free shipping';
  if (s.percentOffRate != null) return `${s.percentOffRate}% off`;
  if (s.fixedPriceAmount != null) return `Fixed price ${s.fixedPriceAmount} ${currency}`;
  return `${s.moneyOffAmount ?? '0'} ${currency} off`;
}

export function presentCoupon(c: CouponRecord, currency: string, now = new Date()): Coupon {
  const s = c.specification;
  const expired = (s.expirationTime != null && Date.parse(s.expirationTime) <= now.getTime()) || (s.usageLimit != null && c.numberOfUsages >= s.usageLimit);
  return {
    id: c.id,
    specification: s,
    numberOfUsages: c.numberOfUsages,
    expired,
    displayData: { name: s.name, code: s.code, discountDescription: discountDescription(c, currency) },
    dateCreated: c.createdDate,
    dateUpdated: c.updatedDate,
  };
}

export function presentShippingRegion(r: ShippingRegionRecord): ShippingRegion {
  return { id: r.id, name: r.name, destinations: r.destinations, options: r.options, revision: String(r.revision), createdDate: r.createdDate, updatedDate: r.updatedDate };
}
