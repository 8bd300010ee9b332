/**
 * `@vitrine/sdk/stores`. One namespace per module, as in `@wix/stores`:
 * `import { products } from '@vitrine/sdk/stores'`. The catalog engineer adds collections,
 * productsV3 and inventory here, one `export * as <name> from './<name>.js'` line each.
 */
export * as products from './products.js';
export * as collections from './collections.js';
export * as productsV3 from './productsV3.js';
export * as inventory from './inventory.js';
