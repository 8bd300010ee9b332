/** Events and webhooks: what a subscribed endpoint receives. */
import type { IsoDate } from './common.js';

/** Who caused an event. */
export type EventActorType = 'ANONYMOUS_VISITOR' | 'MEMBER' | 'WIX_USER' | 'APP';

/** An event type filter of a subscription; `*` matches anything, `a.b.*` any fqdn under `a.b.`. */
export interface EventTypePattern { entityFqdn: string; slug: string }

/**
 * The JSON body every webhook delivery carries, signed in the `vitrine-signature` header. `entity` is
 * the entity's wire shape as the owner sees it (e.g. a catalog `ProductV1` with merchant data).
 */
export interface WebhookEnvelope {
  id: string;
  siteId: string;
  entityFqdn: string;
  slug: string;
  entityId: string;
  entityEventSequence: number;
  eventTime: IsoDate;
  actor: { type: EventActorType | null; id: string | null };
  entity: unknown;
  data: Record<string, unknown>;
}

// ---- Webhook subscriptions, their delivery log, and the notification mailbox (Vitrine's own owner
// APIs: `/webhooks/v1/...`, `/notifications/v1/mails`)

export type SubscriptionStatus = 'ACTIVE' | 'DISABLED';
export interface WebhookSubscription {
  id: string;
  url: string;
  description: string;
  eventTypes: EventTypePattern[];
  alertEmail: string | null;
  status: SubscriptionStatus;
  disabledReason: string | null;
  failureStreak: number;
  failingSince: IsoDate | null;
  /** The last four characters of the signing secret. */
  secretHint: string;
  createdDate: IsoDate;
  updatedDate: IsoDate;
}
/** `createSubscription` body `subscription`. */
export interface WebhookSubscriptionInput { url: string; eventTypes: EventTypePattern[]; description?: string; secret?: string; alertEmail?: string | null }
/** `updateSubscription` body `subscription`: a partial change; `status: 'ACTIVE'` re-enables. */
export interface WebhookSubscriptionUpdate { url?: string; eventTypes?: EventTypePattern[]; description?: string; alertEmail?: string | null; status?: SubscriptionStatus }
export interface WebhookSubscriptionResponse { subscription: WebhookSubscription }
/** Create and rotate answer the signing secret itself, once. */
export interface WebhookSubscriptionWithSecretResponse { subscription: WebhookSubscription; secret: string }
export interface ListWebhookSubscriptionsResponse { subscriptions: WebhookSubscription[] }

/** Offset page of the delivery log and the mailbox. */
export interface LogPageMetadata { count: number; offset: number; total: number }

export type DeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELED';
export interface WebhookDeliveryAttempt {
  attempt: number;
  startedDate: IsoDate;
  durationMs: number;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
  workerId: string | null;
}
export interface WebhookDelivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  entityFqdn: string;
  slug: string;
  entityId: string;
  entityEventSequence: number;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptDate: IsoDate | null;
  giveUpAfter: IsoDate;
  lastStatusCode: number | null;
  lastError: string | null;
  redeliveryOf: string | null;
  createdDate: IsoDate;
  updatedDate: IsoDate;
  /** Only when one delivery is read. */
  attempts?: WebhookDeliveryAttempt[];
}
export interface WebhookDeliveryResponse { delivery: WebhookDelivery }
export interface ListWebhookDeliveriesResponse { deliveries: WebhookDelivery[]; metadata: LogPageMetadata }

export type MailStatus = 'PENDING' | 'SENT' | 'STORED' | 'FAILED';
export interface NotificationMail {
  id: string;
  template: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  eventId: string | null;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  createdDate: IsoDate;
  sentDate: IsoDate | null;
}
export interface ListMailsResponse { mails: NotificationMail[]; metadata: LogPageMetadata }
