/**
 * `@vitrine/sdk/ecom`: current cart and checkout; orders, fulfillments and orders settings; payments:
 * `orderTransactions` and `paymentsCollector` (the payments collector calls of the public orders
 * module, for `orders` to re-export).
 * Add one `export * as <name> from './<name>.js'` line per module (pattern: docs/sdk.md).
 */
export * as currentCart from './currentCart.js';
export * as checkout from './checkout.js';
export * as orders from './orders.js';
export * as orderFulfillments from './orderFulfillments.js';
export * as ordersSettings from './ordersSettings.js';
export * as orderTransactions from './orderTransactions.js';
export * as paymentsCollector from './paymentsCollector.js';
export * as abandonedCheckouts from './abandonedCheckouts.js';
export * as backInStockNotifications from './backInStockNotifications.js';
