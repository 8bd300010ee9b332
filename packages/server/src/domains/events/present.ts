import type {
  DeliveryStatus, ListMailsResponse, ListWebhookDeliveriesResponse, ListWebhookSubscriptionsResponse, MailStatus, NotificationMail, WebhookDelivery,
  WebhookDeliveryAttempt, WebhookDeliveryResponse, WebhookSubscription, WebhookSubscriptionResponse, WebhookSubscriptionWithSecretResponse,
} from '@vitrine/types/events';
import { DELIVERY_STATUSES, MAIL_STATUSES } from './schema.js';
import type { AttemptRow, DeliveryRow, MailRow, SubscriptionRecord } from './store.js';

/** Stored status text narrowed to the wire's names (a stored value outside them is a bug, not input). */
function statusOf<S extends string>(allowed: readonly S[], value: string, what: string): S {
  const found = allowed.find((s) => s === value);
  if (found === undefined) throw new Error(`${what} has an unknown status ${value}`);
  return found;
}

/**
 * The one place the events owner API is encoded for the wire: services return stored records
 * (subscriptions, deliveries with their attempts, mails); the routes call these presenters.
 */

/** A subscription as the owner sees it; only the secret's last four characters are shown. */
export function presentSubscription(s: SubscriptionRecord): WebhookSubscription {
  return {
    id: s.id,
    url: s.url,
    description: s.description,
    eventTypes: s.eventTypes,
    alertEmail: s.alertEmail,
    status: s.status,
    disabledReason: s.disabledReason,
    failureStreak: s.failureStreak,
    failingSince: s.failingSince,
    secretHint: `…${s.secret.slice(-4)}`,
    createdDate: s.createdDate,
    updatedDate: s.updatedDate,
  };
}

export function subscriptionAnswer(s: SubscriptionRecord): WebhookSubscriptionResponse {
  return { subscription: presentSubscription(s) };
}

/** Creation and rotation answer the secret itself, once. */
export function subscriptionWithSecretAnswer(s: SubscriptionRecord): WebhookSubscriptionWithSecretResponse {
  return { subscription: presentSubscription(s), secret: s.secret };
}

export function subscriptionsAnswer(subs: SubscriptionRecord[]): ListWebhookSubscriptionsResponse {
  return { subscriptions: subs.map(presentSubscription) };
}

export function presentAttempt(a: AttemptRow): WebhookDeliveryAttempt {
  return { attempt: Number(a.attempt), startedDate: a.started_date, durationMs: Number(a.duration_ms), statusCode: a.status_code, responseExcerpt: a.response_excerpt, error: a.error, workerId: a.worker_id };
}

/** A delivery; `attempts` only when the caller reads one delivery (the log lists them without). */
export function presentDelivery(d: DeliveryRow, attempts: AttemptRow[] | undefined): WebhookDelivery {
  return {
    id: d.id,
    subscriptionId: d.subscription_id,
    eventId: d.event_id,
    entityFqdn: d.entity_fqdn,
    slug: d.slug,
    entityId: d.entity_id,
    entityEventSequence: Number(d.sequence),
    status: statusOf<DeliveryStatus>(DELIVERY_STATUSES, d.status, `delivery ${d.id}`),
    attemptCount: Number(d.attempts),
    nextAttemptDate: d.status === 'PENDING' ? d.next_attempt_at : null,
    giveUpAfter: d.give_up_after,
    lastStatusCode: d.last_status_code,
    lastError: d.last_error,
    redeliveryOf: d.redelivery_of,
    createdDate: d.created_date,
    updatedDate: d.updated_date,
    ...(attempts ? { attempts: attempts.map(presentAttempt) } : {}),
  };
}

/** A delivery read with its attempts (service: `{ delivery, attempts }`). */
export function deliveryAnswer(read: { delivery: DeliveryRow; attempts: AttemptRow[] }): WebhookDeliveryResponse {
  return { delivery: presentDelivery(read.delivery, read.attempts) };
}

/** One page of stored rows as the services return it. */
export interface RowsPage<T> { rows: T[]; total: number; offset: number }

export function deliveriesAnswer(page: RowsPage<DeliveryRow>): ListWebhookDeliveriesResponse {
  return { deliveries: page.rows.map((d) => presentDelivery(d, undefined)), metadata: { count: page.rows.length, offset: page.offset, total: page.total } };
}

export function presentMail(m: MailRow): NotificationMail {
  return {
    id: m.id, template: m.template, to: m.to_address, subject: m.subject, html: m.html, text: m.text, eventId: m.event_id,
    status: statusOf<MailStatus>(MAIL_STATUSES, m.status, `mail ${m.id}`), attempts: Number(m.attempts), lastError: m.last_error, createdDate: m.created_date, sentDate: m.sent_date,
  };
}

export function mailsAnswer(page: RowsPage<MailRow>): ListMailsResponse {
  return { mails: page.rows.map(presentMail), metadata: { count: page.rows.length, offset: page.offset, total: page.total } };
}
