/**
 * `@vitrine/sdk/events`: Vitrine's own owner APIs for webhooks and notification mail (no platform
 * counterpart). `import { webhooks, mailbox } from '@vitrine/sdk/events'`.
 */
export * as webhooks from './webhooks.js';
export * as mailbox from './mailbox.js';
