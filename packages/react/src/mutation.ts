import { useMutation, useQueryClient, type QueryKey, type UseMutationResult } from '@tanstack/react-query';
import type { ClientCore } from '@vitrine/sdk';
import { useVitrineClient } from './provider.js';

/**
 * A mutation over the provider's client that invalidates `stale(variables, result)` after success;
 * the mutation settles only once those queries are refetched (lists show the write right away).
 */
export function useVitrineMutation<V, R>(
  run: (client: ClientCore, variables: V) => Promise<R>,
  stale: (variables: V, result: R) => readonly QueryKey[],
): UseMutationResult<R, Error, V> {
  const client = useVitrineClient();
  const queryClient = useQueryClient();
  return useMutation<R, Error, V>({
    mutationFn: (variables) => run(client, variables),
    onSuccess: async (result, variables) => {
      await Promise.all(stale(variables, result).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}

/** Options every query hook takes. */
export interface QueryHookOptions {
  enabled?: boolean;
  /** Keep showing the previous page while the next one loads (paging without a flash). */
  keepPrevious?: boolean;
}
