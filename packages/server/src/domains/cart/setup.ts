/**
 * The store's pricing rules for one calculation (currency, rounding, discount rules, the coupon, tax,
 * shipping, fees), loaded by the rules sub-domain. Kept behind this one function so the cart and
 * checkout never read rule tables themselves.
 */
import type { RequestContext } from '../../http/context.js';
import type {
  AdditionalFeeInput, CouponInput, DiscountRuleInput, PricingAddress, RoundingMode, ShippingRegionInput, TaxSettingsInput,
} from './pricing/index.js';

export interface PricingSetup {
  currency: string;
  roundingMode: RoundingMode;
  discountRules: DiscountRuleInput[];
  coupon: CouponInput | null;
  couponError: 'NOT_FOUND' | null;
  tax: TaxSettingsInput;
  shippingRegions: ShippingRegionInput[];
  additionalFees: AdditionalFeeInput[];
  businessAddress: PricingAddress | null;
}

// TODO(merge h/cart-rules): replace the body with `loadPricingSetup` from '../cart/rules/index.js'.
export async function loadSetup(ctx: RequestContext, opts: { couponCode?: string | null; now: Date }): Promise<PricingSetup> {
  return {
    currency: ctx.site.currency, roundingMode: 'HALF_UP', discountRules: [], coupon: null, couponError: opts.couponCode ? 'NOT_FOUND' : null,
    tax: { regions: [], manualTaxMappings: [] }, shippingRegions: [], additionalFees: [], businessAddress: null,
  };
}
