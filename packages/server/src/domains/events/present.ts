import type { AttemptRow, DeliveryRow, MailRow, SubscriptionRecord } from './store.js';

/**
 * The one place the events owner API is encoded for the wire: services return stored records
 * (subscriptions, deliveries with their attempts, mails); the routes call these presenters.
 */

/** A subscription as the owner sees it; only the secret's last four characters are shown. */
export function presentSubscription(s: SubscriptionRecord) {
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

export function subscriptionAnswer(s: SubscriptionRecord) {
  return { subscription: presentSubscription(s) };
}

/** Creation and rotation answer the secret itself, once. */
export function subscriptionWithSecretAnswer(s: SubscriptionRecord) {
  return { subscription: presentSubscription(s), secret: s.secret };
}

export function subscriptionsAnswer(subs: SubscriptionRecord[]) {
  return { subscriptions: subs.map(presentSubscription) };
}

export function presentAttempt(a: AttemptRow) {
  return { attempt: Number(a.attempt), startedDate: a.started_date, durationMs: Number(a.duration_ms), statusCode: a.status_code, responseExcerpt: a.response_excerpt, error: a.error, workerId: a.worker_id };
}

/** A delivery; `attempts` only when the caller reads one delivery (the log lists them without). */
export function presentDelivery(d: DeliveryRow, attempts: AttemptRow[] | undefined) {
  return {
    id: d.id,
    subscriptionId: d.subscription_id,
    eventId: d.event_id,
    entityFqdn: d.entity_fqdn,
    slug: d.slug,
    entityId: d.entity_id,
    entityEventSequence: Number(d.sequence),
    status: d.status,
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
export function deliveryAnswer(read: { delivery: DeliveryRow; attempts: AttemptRow[] }) {
  return { delivery: presentDelivery(read.delivery, read.attempts) };
}

/** One page of stored rows as the services return it. */
export interface RowsPage<T> { rows: T[]; total: number; offset: number }

export function deliveriesAnswer(page: RowsPage<DeliveryRow>) {
  return { deliveries: page.rows.map((d) => presentDelivery(d, undefined)), metadata: { count: page.rows.length, offset: page.offset, total: page.total } };
}

export function presentMail(m: MailRow) {
  return {
    id: m.id, template: m.template, to: m.to_address, subject: m.subject, html: m.html, text: m.text, eventId: m.event_id,
    status: m.status, attempts: Number(m.attempts), lastError: m.last_error, createdDate: m.created_date, sentDate: m.sent_date,
  };
}

export function mailsAnswer(page: RowsPage<MailRow>) {
  return { mails: page.rows.map(presentMail), metadata: { count: page.rows.length, offset: page.offset, total: page.total } };
}
