/**
 * `@vitrine/sdk/identity`, as `@wix/identity`: `import { authentication } from '@vitrine/sdk/identity'`.
 */
export * as authentication from './authentication.js';
export * as verification from './verification.js';
export * as recovery from './recovery.js';
