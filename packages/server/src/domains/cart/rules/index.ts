// What other domains may use of the pricing rules: the engine's inputs for a site, counting a coupon use, checkout settings.
export { getCheckoutSettings, loadPricingSetup, recordCouponUse, type PricingSetup } from './setup.js';
export type { StoredCheckoutSettings } from './model.js';
