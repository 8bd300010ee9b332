/**
 * `@vitrine/sdk/ecom`. Still to come: currentCart, checkout, orders, orderTransactions (ecom engineer).
 * Add one `export * as <name> from './<name>.js'` line per module (pattern: docs/sdk.md).
 */
export * as discountRules from './discountRules.js';
export * as taxGroups from './taxGroups.js';
export * as taxRegions from './taxRegions.js';
export * as checkoutSettings from './checkoutSettings.js';
export * as coupons from './coupons.js';
export * as shippingRegions from './shippingRegions.js';
