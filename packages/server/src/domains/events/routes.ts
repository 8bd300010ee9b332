import { z } from 'zod';
import { route, type RouteDef } from '../../http/route.js';
import {
  createSubscription, deleteSubscription, getDelivery, getSubscription, listMailbox, listSiteSubscriptions, listSubscriptionDeliveries,
  redeliver, rotateSecret, updateSubscription,
} from './service.js';
import {
  createSubscriptionRequest, createSubscriptionResponse, deliveriesResponse, deliveryResponse, idRequest, listDeliveriesRequest,
  listMailsRequest, listSubscriptionsResponse, mailsResponse, rotateSecretRequest, subscriptionResponse, updateSubscriptionRequest,
} from './schema.js';
import { EMITTED_EVENT_TYPES } from './event-types.js';
import {
  deliveriesAnswer, deliveryAnswer, mailsAnswer, subscriptionAnswer, subscriptionsAnswer, subscriptionWithSecretAnswer,
} from './present.js';

const tag = 'Webhooks and notifications';

/** Owner API of webhook subscriptions, their delivery log, and the notification mailbox (docs/events.md). */
export const eventsRoutes: RouteDef[] = [
  route({
    method: 'GET', path: '/webhooks/v1/event-types', access: 'elevated', tag,
    summary: 'The event types the server records (entity fqdn and slug), to choose what a subscription receives',
    request: z.object({}),
    handler: async () => ({ eventTypes: EMITTED_EVENT_TYPES }),
  }),
  route({
    method: 'POST', path: '/webhooks/v1/subscriptions', access: 'elevated', tag,
    summary: 'Create a webhook subscription; the signing secret is returned once',
    request: createSubscriptionRequest, response: createSubscriptionResponse,
    handler: async (ctx, input) => subscriptionWithSecretAnswer(await createSubscription(ctx, input.subscription)),
  }),
  route({
    method: 'GET', path: '/webhooks/v1/subscriptions', access: 'elevated', tag,
    summary: 'List the webhook subscriptions of the site',
    request: z.object({}), response: listSubscriptionsResponse,
    handler: async (ctx) => subscriptionsAnswer(await listSiteSubscriptions(ctx)),
  }),
  route({
    method: 'GET', path: '/webhooks/v1/subscriptions/:id', access: 'elevated', tag,
    summary: 'Get a webhook subscription',
    request: idRequest, response: subscriptionResponse,
    handler: async (ctx, input) => subscriptionAnswer(await getSubscription(ctx, input.id)),
  }),
  route({
    method: 'PATCH', path: '/webhooks/v1/subscriptions/:id', access: 'elevated', tag,
    summary: 'Change a webhook subscription; status ACTIVE re-enables a disabled one',
    request: updateSubscriptionRequest, response: subscriptionResponse,
    handler: async (ctx, input) => subscriptionAnswer(await updateSubscription(ctx, input.id, input.subscription)),
  }),
  route({
    method: 'DELETE', path: '/webhooks/v1/subscriptions/:id', access: 'elevated', tag,
    summary: 'Delete a webhook subscription; its pending deliveries are canceled',
    request: idRequest,
    handler: (ctx, input) => deleteSubscription(ctx, input.id),
  }),
  route({
    method: 'POST', path: '/webhooks/v1/subscriptions/:id/rotate-secret', access: 'elevated', tag,
    summary: 'Replace the signing secret (given, or generated) and return it once',
    request: rotateSecretRequest, response: createSubscriptionResponse,
    handler: async (ctx, input) => subscriptionWithSecretAnswer(await rotateSecret(ctx, input.id, input.secret)),
  }),
  route({
    method: 'GET', path: '/webhooks/v1/subscriptions/:id/deliveries', access: 'elevated', tag,
    summary: 'Delivery log of a subscription, newest first',
    request: listDeliveriesRequest, response: deliveriesResponse,
    handler: async (ctx, input) => deliveriesAnswer(await listSubscriptionDeliveries(ctx, input)),
  }),
  route({
    method: 'GET', path: '/webhooks/v1/deliveries/:id', access: 'elevated', tag,
    summary: 'A delivery with every attempt and the receiver\'s answers',
    request: idRequest, response: deliveryResponse,
    handler: async (ctx, input) => deliveryAnswer(await getDelivery(ctx, input.id)),
  }),
  route({
    method: 'POST', path: '/webhooks/v1/deliveries/:id/redeliver', access: 'elevated', tag,
    summary: 'Send a finished delivery again (a new delivery with the same event)',
    request: idRequest, response: deliveryResponse,
    handler: async (ctx, input) => deliveryAnswer(await redeliver(ctx, input.id, ctx.deps.config.events.retryWindowMs)),
  }),
  route({
    method: 'GET', path: '/notifications/v1/mails', access: 'elevated', tag,
    summary: 'The site\'s notification mailbox: every queued, sent and stored e-mail, newest first',
    request: listMailsRequest, response: mailsResponse,
    handler: async (ctx, input) => mailsAnswer(await listMailbox(ctx, input)),
  }),
];
