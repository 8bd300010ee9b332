/**
 * `@vitrine/sdk/ecom`: current cart and checkout (orders, orderTransactions by the ecom engineers).
 * Add one `export * as <name> from './<name>.js'` line per module (pattern: docs/sdk.md).
 */
export * as currentCart from './currentCart.js';
export * as checkout from './checkout.js';
