/**
 * `@vitrine/sdk/ecom`. Add one `export * as <name> from './<name>.js'` line per module (pattern: docs/sdk.md).
 */
export * as orders from './orders.js';
export * as orderFulfillments from './orderFulfillments.js';
export * as ordersSettings from './ordersSettings.js';
