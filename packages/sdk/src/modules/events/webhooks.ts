/**
 * Webhook subscriptions and their delivery log (`@vitrine/sdk/events` -> `webhooks`): our extension
 * (the platform configures webhooks in its app dashboard, not over REST). Every call is elevated.
 * Server behaviour (retries, disabling, signatures): docs/events.md.
 */
import type * as wire from '@vitrine/types/events';
import { defineMethod } from '../../define.js';
import type { FromWire } from '../../wire-types.js';

/** `{ entityFqdn: 'wix.members.v1.member', slug: 'created' }`; slug `*` means every action. */
export type EventType = wire.EventTypePattern;

/** Subscription date fields the SDK turns into Date objects (SUB_DATES below). */
type SubscriptionDates = 'failingSince' | 'createdDate' | 'updatedDate';
/** Delivery date fields the SDK turns into Date objects (DELIVERY_DATES below). */
type DeliveryDates = 'nextAttemptDate' | 'giveUpAfter' | 'createdDate' | 'updatedDate' | 'startedDate';

export type Subscription = FromWire<wire.WebhookSubscription, SubscriptionDates>;

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELED'] as const satisfies readonly wire.DeliveryStatus[];
export type DeliveryStatus = wire.DeliveryStatus;

/** A delivery of the log; `attempts` only when one delivery is read (`getDelivery`). */
export type Delivery = Omit<FromWire<wire.WebhookDelivery, DeliveryDates>, 'attempts'>;
export type DeliveryAttempt = FromWire<wire.WebhookDeliveryAttempt, DeliveryDates>;

export type SubscriptionInput = wire.WebhookSubscriptionInput;
export type SubscriptionUpdate = wire.WebhookSubscriptionUpdate;
export type LogPage = wire.LogPageMetadata;

const S = '/webhooks/v1/subscriptions';
const D = '/webhooks/v1/deliveries';
const SUB_DATES = ['failingSince', 'createdDate', 'updatedDate'];
const DELIVERY_DATES = ['nextAttemptDate', 'giveUpAfter', 'createdDate', 'updatedDate', 'attempts.startedDate'];
const at = (prefix: string, paths: string[]) => ({ dates: paths.map((p) => `${prefix}.${p}`) });
const byId = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

/** Elevated: -> `{ subscription, secret }`; the signing secret is returned only here and by `rotateSecret`. */
export const createSubscription = defineMethod((client, subscription: SubscriptionInput) =>
  client.request<{ subscription: Subscription; secret: string }>({ method: 'POST', path: S, payload: { subscription }, decode: at('subscription', SUB_DATES) }));

/** Elevated: every subscription of the site (at most 100) -> `{ subscriptions }`. */
export const listSubscriptions = defineMethod((client) =>
  client.request<{ subscriptions: Subscription[] }>({ method: 'GET', path: S, payload: {}, decode: at('subscriptions', SUB_DATES) }));

/** Elevated: -> the subscription (404 SUBSCRIPTION_NOT_FOUND). */
export const getSubscription = defineMethod(async (client, _id: string) =>
  (await client.request<{ subscription: Subscription }>({ method: 'GET', path: byId(S, _id), payload: { _id }, decode: at('subscription', SUB_DATES), argumentFields: { id: '_id' } })).subscription);

/** Elevated: partial change; `status: 'ACTIVE'` re-enables a disabled subscription -> the subscription. */
export const updateSubscription = defineMethod(async (client, _id: string, subscription: SubscriptionUpdate) =>
  (await client.request<{ subscription: Subscription }>({ method: 'PATCH', path: byId(S, _id), payload: { _id, subscription }, decode: at('subscription', SUB_DATES), argumentFields: { id: '_id' } })).subscription);

/** Elevated: its pending deliveries are canceled. */
export const deleteSubscription = defineMethod(async (client, _id: string): Promise<void> => {
  await client.request({ method: 'DELETE', path: byId(S, _id), payload: { _id }, argumentFields: { id: '_id' } });
});

/** Elevated: a new signing secret (given, or generated) -> `{ subscription, secret }`. */
export const rotateSecret = defineMethod((client, _id: string, options: { secret?: string } = {}) =>
  client.request<{ subscription: Subscription; secret: string }>({ method: 'POST', path: `${byId(S, _id)}/rotate-secret`, payload: { _id, ...options }, decode: at('subscription', SUB_DATES), argumentFields: { id: '_id' } }));

/** Elevated: the delivery log of a subscription, newest first -> `{ deliveries, metadata }`. */
export const listDeliveries = defineMethod((client, subscriptionId: string, options: { status?: DeliveryStatus; eventId?: string; limit?: number; offset?: number } = {}) =>
  client.request<{ deliveries: Delivery[]; metadata: LogPage }>({ method: 'GET', path: `${byId(S, subscriptionId)}/deliveries`, payload: { _id: subscriptionId, ...options }, decode: at('deliveries', DELIVERY_DATES) }));

/** Elevated: one delivery with every attempt and the receiver's answers. */
export const getDelivery = defineMethod(async (client, _id: string) =>
  (await client.request<{ delivery: Delivery & { attempts: DeliveryAttempt[] } }>({ method: 'GET', path: byId(D, _id), payload: { _id }, decode: at('delivery', DELIVERY_DATES), argumentFields: { id: '_id' } })).delivery);

/** Elevated: sends a finished delivery again as a new delivery of the same event -> the new delivery. */
export const redeliver = defineMethod(async (client, _id: string) =>
  (await client.request<{ delivery: Delivery }>({ method: 'POST', path: `${byId(D, _id)}/redeliver`, payload: { _id }, decode: at('delivery', DELIVERY_DATES), argumentFields: { id: '_id' } })).delivery);

/** An event type the server records, with a short description for pickers. */
export interface EmittedEventType extends EventType { description: string }

/** Elevated: the event types the server records (what a subscription can receive) -> `{ eventTypes }`. */
export const listEventTypes = defineMethod((client) =>
  client.request<{ eventTypes: EmittedEventType[] }>({ method: 'GET', path: '/webhooks/v1/event-types', payload: {} }));
