/**
 * `@vitrine/sdk/ecom`. Not built yet: currentCart, checkout, orders, orderTransactions (ecom engineer).
 * Add one `export * as <name> from './<name>.js'` line per module (pattern: docs/sdk.md).
 */
export * as abandonedCheckouts from './abandonedCheckouts.js';
export * as backInStockNotifications from './backInStockNotifications.js';
