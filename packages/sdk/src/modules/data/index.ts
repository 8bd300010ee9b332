/**
 * `@vitrine/sdk/data`: `import { items } from '@vitrine/sdk/data'` (as `@wix/data`).
 * Add one `export * as <name> from './<name>.js'` line per module (pattern: docs/sdk.md).
 */
export * as items from './items.js';
export * as collections from './collections.js';
export * as indexes from './indexes.js';
