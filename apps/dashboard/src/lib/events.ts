/** Webhook and mailbox helpers of the dashboard (the calls themselves are @vitrine/react hooks). */
import { mailbox, webhooks } from '@vitrine/sdk/events';

export type EventType = webhooks.EventType;
export type Subscription = webhooks.Subscription;
export type Delivery = webhooks.Delivery;
export type DeliveryAttempt = webhooks.DeliveryAttempt;
export type DeliveryStatus = webhooks.DeliveryStatus;
export type Mail = mailbox.Mail;
export type MailStatus = mailbox.MailStatus;
export const { DELIVERY_STATUSES } = webhooks;
export const { MAIL_STATUSES } = mailbox;

/** Page size of the delivery log and the mailbox (server LOG_PAGE_MAX is 100). */
export const LOG_PAGE_SIZE = 25;

export function formatEventType(t: EventType): string {
  return `${t.entityFqdn}/${t.slug}`;
}

