/** Webhook and mailbox hooks over `@vitrine/sdk/events` (owner only). */
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import { mailbox, webhooks } from '@vitrine/sdk/events';
import { invalidates, queryKeys } from './keys.js';
import { useVitrineMutation, type QueryHookOptions } from './mutation.js';
import { useVitrineClient } from './provider.js';

type DeliveriesOptions = Parameters<typeof webhooks.listDeliveries>[1];
type DeliveriesPage = Awaited<ReturnType<typeof webhooks.listDeliveries>>;

/** Every webhook subscription of the site. */
export function useWebhookSubscriptions(): UseQueryResult<webhooks.Subscription[]> {
  const client = useVitrineClient();
  return useQuery({ queryKey: queryKeys.webhooks.list(), queryFn: async () => (await bindModule(webhooks, client).listSubscriptions()).subscriptions });
}

export function useWebhookSubscription(id: string | undefined): UseQueryResult<webhooks.Subscription> {
  const client = useVitrineClient();
  return useQuery({ queryKey: queryKeys.webhooks.detail(id ?? ''), queryFn: () => bindModule(webhooks, client).getSubscription(id!), enabled: Boolean(id) });
}

/** -> `{ subscription, secret }` (the secret is shown once). */
export const useCreateWebhookSubscription = () =>
  useVitrineMutation((client, subscription: webhooks.SubscriptionInput) => bindModule(webhooks, client).createSubscription(subscription), invalidates.webhook);

export const useUpdateWebhookSubscription = () =>
  useVitrineMutation((client, { _id, subscription }: { _id: string; subscription: webhooks.SubscriptionUpdate }) => bindModule(webhooks, client).updateSubscription(_id, subscription), invalidates.webhook);

export const useDeleteWebhookSubscription = () =>
  useVitrineMutation((client, _id: string) => bindModule(webhooks, client).deleteSubscription(_id), invalidates.webhook);

/**
 * A page of a subscription's delivery log. `refetchInterval` (ms, or a function of the page) polls,
 * e.g. while deliveries are pending.
 */
export function useWebhookDeliveries(subscriptionId: string, options: DeliveriesOptions & QueryHookOptions & { refetchInterval?: number | false | ((page: DeliveriesPage | undefined) => number | false) } = {}): UseQueryResult<DeliveriesPage> {
  const client = useVitrineClient();
  const { enabled, keepPrevious, refetchInterval, ...call } = options;
  return useQuery({
    queryKey: queryKeys.deliveries.list(subscriptionId, call),
    queryFn: () => bindModule(webhooks, client).listDeliveries(subscriptionId, call),
    enabled: (enabled ?? true) && Boolean(subscriptionId),
    placeholderData: keepPrevious ? keepPreviousData : undefined,
    refetchInterval: typeof refetchInterval === 'function' ? (q) => refetchInterval(q.state.data) : refetchInterval,
  });
}

/** One delivery with its attempts. */
export function useWebhookDelivery(id: string | undefined): UseQueryResult<Awaited<ReturnType<typeof webhooks.getDelivery>>> {
  const client = useVitrineClient();
  return useQuery({ queryKey: queryKeys.deliveries.detail(id ?? ''), queryFn: () => bindModule(webhooks, client).getDelivery(id!), enabled: Boolean(id) });
}

/** `mutate(deliveryId)` -> the new delivery; the subscription's log is refetched. */
export const useRedeliver = () =>
  useVitrineMutation((client, deliveryId: string) => bindModule(webhooks, client).redeliver(deliveryId), (_id, delivery) => invalidates.delivery(delivery.subscriptionId));

/** A page of the notification mailbox. */
export function useMails(options: Parameters<typeof mailbox.listMails>[0] & QueryHookOptions = {}): UseQueryResult<Awaited<ReturnType<typeof mailbox.listMails>>> {
  const client = useVitrineClient();
  const { enabled, keepPrevious, ...call } = options;
  return useQuery({
    queryKey: queryKeys.mails.list(call),
    queryFn: () => bindModule(mailbox, client).listMails(call),
    enabled,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
}
