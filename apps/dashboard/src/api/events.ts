import type { Api, PageMeta } from './client';

export interface EventType { entityFqdn: string; slug: string }

export interface Subscription {
  id: string;
  url: string;
  description: string;
  eventTypes: EventType[];
  alertEmail: string | null;
  status: 'ACTIVE' | 'DISABLED';
  disabledReason: string | null;
  failureStreak: number;
  failingSince: string | null;
  secretHint: string;
  createdDate: string;
}

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface Delivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  entityFqdn: string;
  slug: string;
  entityId: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptDate: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  redeliveryOf: string | null;
  createdDate: string;
}

export const MAIL_STATUSES = ['PENDING', 'SENT', 'STORED', 'FAILED'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

export interface Mail {
  id: string;
  template: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  createdDate: string;
  sentDate: string | null;
}

/** Page size of the delivery log and the mailbox (server LOG_PAGE_MAX is 100). */
export const LOG_PAGE_SIZE = 25;

/** "wix.members.v1.member/created" (one per line or comma) -> event type patterns. */
export function parseEventTypes(text: string): EventType[] {
  return text.split(/[\n,]+/).map((s) => s.trim()).filter(Boolean).map((s) => {
    const slash = s.lastIndexOf('/');
    return slash < 0 ? { entityFqdn: s, slug: '*' } : { entityFqdn: s.slice(0, slash), slug: s.slice(slash + 1) || '*' };
  });
}

export function formatEventType(t: EventType): string {
  return `${t.entityFqdn}/${t.slug}`;
}

export async function listSubscriptions(api: Api): Promise<Subscription[]> {
  return (await api<{ subscriptions: Subscription[] }>('/webhooks/v1/subscriptions')).subscriptions;
}

export async function getSubscription(api: Api, id: string): Promise<Subscription> {
  return (await api<{ subscription: Subscription }>(`/webhooks/v1/subscriptions/${encodeURIComponent(id)}`)).subscription;
}

export async function createSubscription(api: Api, input: { url: string; eventTypes: EventType[]; description?: string }): Promise<{ subscription: Subscription; secret: string }> {
  return api('/webhooks/v1/subscriptions', { body: { subscription: input } });
}

export async function setSubscriptionStatus(api: Api, id: string, status: Subscription['status']): Promise<Subscription> {
  return (await api<{ subscription: Subscription }>(`/webhooks/v1/subscriptions/${encodeURIComponent(id)}`, { method: 'PATCH', body: { subscription: { status } } })).subscription;
}

export async function deleteSubscription(api: Api, id: string): Promise<void> {
  await api(`/webhooks/v1/subscriptions/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export async function listDeliveries(api: Api, id: string, q: { status?: DeliveryStatus; offset: number; limit: number }): Promise<{ deliveries: Delivery[]; metadata: PageMeta }> {
  return api(`/webhooks/v1/subscriptions/${encodeURIComponent(id)}/deliveries`, { query: { ...(q.status ? { status: q.status } : {}), limit: q.limit, offset: q.offset } });
}

export async function redeliver(api: Api, deliveryId: string): Promise<Delivery> {
  return (await api<{ delivery: Delivery }>(`/webhooks/v1/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, { body: {} })).delivery;
}

export async function listMails(api: Api, q: { status?: MailStatus; offset: number; limit: number }): Promise<{ mails: Mail[]; metadata: PageMeta }> {
  return api('/notifications/v1/mails', { query: { ...(q.status ? { status: q.status } : {}), limit: q.limit, offset: q.offset } });
}

export interface DeliveryAttempt {
  attempt: number;
  startedDate: string;
  durationMs: number;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
}

export async function getDelivery(api: Api, id: string): Promise<Delivery & { giveUpAfter: string; attempts: DeliveryAttempt[] }> {
  return (await api<{ delivery: Delivery & { giveUpAfter: string; attempts: DeliveryAttempt[] } }>(`/webhooks/v1/deliveries/${encodeURIComponent(id)}`)).delivery;
}
