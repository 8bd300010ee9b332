import { z } from 'zod';
import type { WebhookSubscriptionInput, WebhookSubscriptionUpdate } from '@vitrine/types/events';
import { conforms } from '../../http/conforms.js';
import { identifier } from '../../http/wire-schemas.js';

/** Subscriptions per site, event types per subscription, and page sizes of the logs. */
export const MAX_SUBSCRIPTIONS_PER_SITE = 100;
export const MAX_EVENT_TYPES = 50;
export const LOG_PAGE_MAX = 100;
export const LOG_PAGE_DEFAULT = 50;
export const MIN_SECRET_LENGTH = 24;
export const MAX_SECRET_LENGTH = 200;
export const MAX_URL_LENGTH = 2_000;

const FQDN_PATTERN = /^(\*|[a-z0-9_]+(\.[a-z0-9_]+)*(\.\*)?)$/;
const SLUG_PATTERN = /^(\*|[A-Za-z0-9_.-]+)$/;

const webhookUrl = z.string().max(MAX_URL_LENGTH).refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
}, { message: 'must be an absolute http(s) URL without credentials', params: { rule: 'FORMAT' } });

export const eventTypePattern = z.object({
  entityFqdn: z.string().min(1).max(200).regex(FQDN_PATTERN),
  slug: identifier(100, 1).regex(SLUG_PATTERN),
});

const eventTypes = z.array(eventTypePattern).min(1).max(MAX_EVENT_TYPES);
const alertEmail = identifier(320).regex(/^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/);

export const createSubscriptionRequest = z.object({
  subscription: conforms<WebhookSubscriptionInput>()(z.object({
    url: webhookUrl,
    eventTypes,
    description: z.string().max(500).optional(),
    /** Optional own secret; by default the server generates one and returns it once. */
    secret: z.string().min(MIN_SECRET_LENGTH).max(MAX_SECRET_LENGTH).optional(),
    alertEmail: alertEmail.nullish(),
  }).strict()),
});

export const updateSubscriptionRequest = z.object({
  id: identifier(100, 1),
  subscription: conforms<WebhookSubscriptionUpdate>()(z.object({
    url: webhookUrl.optional(),
    eventTypes: eventTypes.optional(),
    description: z.string().max(500).optional(),
    alertEmail: alertEmail.nullish(),
    status: z.enum(['ACTIVE', 'DISABLED']).optional(),
  }).strict()),
});

export const idRequest = z.object({ id: identifier(100, 1) });

export const rotateSecretRequest = z.object({
  id: identifier(100, 1),
  secret: z.string().min(MIN_SECRET_LENGTH).max(MAX_SECRET_LENGTH).optional(),
});

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELED'] as const;

export const listDeliveriesRequest = z.object({
  id: identifier(100, 1),
  status: z.enum(DELIVERY_STATUSES).optional(),
  eventId: identifier(100, 1).optional(),
  limit: z.number().int().min(1).max(LOG_PAGE_MAX).optional(),
  offset: z.number().int().min(0).max(1_000_000).optional(),
});

export const MAIL_STATUSES = ['PENDING', 'SENT', 'STORED', 'FAILED'] as const;

export const listMailsRequest = z.object({
  status: z.enum(MAIL_STATUSES).optional(),
  template: z.string().min(1).max(100).optional(),
  limit: z.number().int().min(1).max(LOG_PAGE_MAX).optional(),
  offset: z.number().int().min(0).max(1_000_000).optional(),
});

const record = z.record(z.string(), z.unknown());
export const subscriptionResponse = z.object({ subscription: record });
export const createSubscriptionResponse = z.object({ subscription: record, secret: z.string() });
export const listSubscriptionsResponse = z.object({ subscriptions: z.array(record) });
export const deliveriesResponse = z.object({ deliveries: z.array(record), metadata: record });
export const deliveryResponse = z.object({ delivery: record });
export const mailsResponse = z.object({ mails: z.array(record), metadata: record });
