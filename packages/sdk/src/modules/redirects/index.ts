/**
 * `@vitrine/sdk/redirects`: `import { redirects } from '@vitrine/sdk/redirects'`.
 */
export * as redirects from './redirects.js';
