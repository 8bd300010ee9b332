/** The event types a webhook can subscribe to, as the server lists them (owner only). */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { bindModule } from '@vitrine/sdk';
import { webhooks } from '@vitrine/sdk/events';
import { useVitrineClient } from './provider.js';

export function useWebhookEventTypes(): UseQueryResult<webhooks.EmittedEventType[]> {
  const client = useVitrineClient();
  // The list changes only with a server release.
  return useQuery({ queryKey: ['vitrine', 'webhooks', 'eventTypes'], queryFn: async () => (await bindModule(webhooks, client).listEventTypes()).eventTypes, staleTime: Infinity });
}
