/** The cart pricing engine: pure, exact, deterministic. See docs/pricing.md. */
export { calculatePricing, COUPON_ERRORS, MAX_ADDITIONAL_FEES, MAX_MERCHANT_DISCOUNTS } from './engine.js';
export { PricingInputError } from './errors.js';
export { readMerchantDiscount } from './lines.js';
export { SLOT_STEP_MS, slotBase } from './shipping.js';
export { allocate, applyRate, currencyOf, DEFAULT_ROUNDING_MODE, displayAmount, divRound, formatMoney, parseMoney, parsePercentage, type Currency, type RoundingMode } from './money.js';
export type * from './model.js';
