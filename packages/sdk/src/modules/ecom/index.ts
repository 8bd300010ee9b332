/**
 * `@vitrine/sdk/ecom`. Payments: `orderTransactions` and `paymentsCollector` (the payments collector calls of the
 * public orders module, re-exported by `orders`).
 * Add one `export * as <name> from './<name>.js'` line per module (pattern: docs/sdk.md).
 */
export * as orderTransactions from './orderTransactions.js';
export * as paymentsCollector from './paymentsCollector.js';
