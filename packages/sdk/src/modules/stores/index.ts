/**
 * `@vitrine/sdk/stores`. One namespace per module, as in `@wix/stores`:
 * `import { products } from '@vitrine/sdk/stores'`. The catalog engineer adds collections,
 * productsV3 and inventory here, one `export * as <name> from './<name>.js'` line each.
 */
export * as products from './products.js';
