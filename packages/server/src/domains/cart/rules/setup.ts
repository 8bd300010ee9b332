import type { RequestContext } from '../../../http/context.js';
import { ApplicationError, notFound } from '../../../http/errors.js';
import {
  DEFAULT_ROUNDING_MODE, type AdditionalFeeInput, type CouponInput, type DiscountRuleInput, type PricingAddress, type RoundingMode,
  type ShippingRegionInput, type TaxSettingsInput,
} from '../pricing/index.js';
import { couponCodeKey, couponToEngine } from './coupon-map.js';
import { shippingRegionToEngine } from './shipping-map.js';
import { MAX_DISCOUNT_RULES, MAX_SHIPPING_REGIONS, MAX_TAX_REGIONS } from './limits.js';
import { DEFAULT_PRICING_SETTINGS, type StoredCheckoutSettings } from './model.js';
import { findCoupon, findCouponByCode, findSiteSettings, listLiveDiscountRules, listShippingRegionRows, takeCouponUse } from './store.js';
import { listAllTaxRegions, listManualRates } from './store-tax.js';
import { DEFAULT_CHECKOUT_SETTINGS } from './checkout-defaults.js';

/**
 * What the cart and checkout price with: the site's live rules, the coupon the buyer entered, tax
 * regions with their manual rates, shipping regions and settings, in the engine's input types.
 */
export interface PricingSetup {
  currency: string;
  roundingMode: RoundingMode;
  discountRules: DiscountRuleInput[];
  coupon: CouponInput | null;
  /** 'NOT_FOUND' when a code was given and no coupon of the site has it. */
  couponError: 'NOT_FOUND' | null;
  tax: TaxSettingsInput;
  shippingRegions: ShippingRegionInput[];
  additionalFees: AdditionalFeeInput[];
  businessAddress: PricingAddress | null;
}

export async function loadPricingSetup(ctx: RequestContext, opts: { couponCode?: string | null; now: Date }): Promise<PricingSetup> {
  const siteId = ctx.site.id;
  const now = opts.now.toISOString();
  // One after another: the caller's transaction (if any) is one connection.
  const rules = await listLiveDiscountRules(ctx.db, siteId, now, MAX_DISCOUNT_RULES);
  const settings = await findSiteSettings(ctx.db, siteId);
  const regions = await listAllTaxRegions(ctx.db, siteId, MAX_TAX_REGIONS);
  const rates = await listManualRates(ctx.db, siteId);
  const shipping = await listShippingRegionRows(ctx.db, siteId, MAX_SHIPPING_REGIONS);
  const coupon = opts.couponCode ? await findCouponByCode(ctx.db, siteId, couponCodeKey(opts.couponCode)) : undefined;
  const pricing = settings?.pricing ?? DEFAULT_PRICING_SETTINGS;
  return {
    currency: ctx.site.currency,
    roundingMode: pricing.roundingMode ?? DEFAULT_ROUNDING_MODE,
    discountRules: rules.map((r) => ({
      id: r.id, name: r.name, active: r.active, trigger: r.trigger, activeTimeInfo: r.activeTimeInfo, discounts: r.discounts,
    })),
    coupon: coupon ? couponToEngine(coupon) : null,
    couponError: opts.couponCode && !coupon ? 'NOT_FOUND' : null,
    tax: {
      taxableAddressType: pricing.taxableAddressType,
      taxShipping: pricing.taxShipping,
      regions: regions.map((t) => ({ id: t.id, country: t.country, subdivision: t.subdivision || null, taxIncludedInPrice: t.taxIncludedInPrice })),
      manualTaxMappings: rates.map((m) => ({
        id: m.id, taxRegionId: m.taxRegionId, taxGroupId: m.taxGroupId, taxRate: m.taxRate, taxName: m.taxName, taxType: m.taxType,
        jurisdiction: m.jurisdiction, jurisdictionType: m.jurisdictionType,
      })),
    },
    shippingRegions: shipping.map(shippingRegionToEngine),
    additionalFees: [],
    businessAddress: pricing.businessAddress,
  };
}

/**
 * Counts one use of a coupon, inside the caller's transaction (the order that used it). One guarded
 * UPDATE, so concurrent checkouts never exceed the usage limit: the loser gets COUPON_USAGE_EXCEEDED
 * (409) and its transaction rolls back.
 */
export async function recordCouponUse(ctx: RequestContext, couponId: string): Promise<void> {
  if (!(await takeCouponUse(ctx.db, ctx.site.id, couponId, new Date().toISOString()))) {
    if (!(await findCoupon(ctx.db, ctx.site.id, couponId))) throw notFound('COUPON_NOT_FOUND', `Coupon ${couponId} not found`, { couponId });
    throw new ApplicationError(409, 'COUPON_USAGE_EXCEEDED', 'This coupon has reached its usage limit', { couponId });
  }
}

/** The site's checkout settings (defaults until the owner saves some). */
export async function getCheckoutSettings(ctx: RequestContext): Promise<StoredCheckoutSettings & { createdDate: string | null; updatedDate: string | null }> {
  const stored = await findSiteSettings(ctx.db, ctx.site.id);
  return { ...(stored?.checkout ?? DEFAULT_CHECKOUT_SETTINGS), createdDate: stored?.createdDate ?? null, updatedDate: stored?.updatedDate ?? null };
}
