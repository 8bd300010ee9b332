import { useRef, useState } from 'react';
import type { MutateOptions, UseMutationResult } from '@tanstack/react-query';

type Locked<D, E, V, C> = Omit<UseMutationResult<D, E, V, C>, 'mutate' | 'mutateAsync' | 'isPending'> & {
  isPending: boolean;
  mutate: (variables: V, options?: MutateOptions<D, E, V, C>) => void;
  mutateAsync: (variables: V, options?: MutateOptions<D, E, V, C>) => Promise<D>;
};

/**
 * A mutation that sends one request at a time: a call while one is in flight gets that request's
 * answer instead of sending another, and `isPending` is true from the click on. The query library
 * reports `isPending` a tick later, long enough for a double click on "Refund" to refund twice.
 */
export function useLocked<D, E, V, C>(mutation: UseMutationResult<D, E, V, C>): Locked<D, E, V, C> {
  const flight = useRef<Promise<D>>(undefined);
  const [busy, setBusy] = useState(false);
  const mutateAsync = (variables: V, options?: MutateOptions<D, E, V, C>): Promise<D> => {
    if (!flight.current) {
      setBusy(true);
      flight.current = mutation.mutateAsync(variables, options).finally(() => { flight.current = undefined; setBusy(false); });
    }
    return flight.current;
  };
  return {
    ...mutation,
    isPending: busy || mutation.isPending,
    mutateAsync,
    // The error stays on the mutation (`error`) for the form to show.
    mutate: (variables, options) => { mutateAsync(variables, options).catch(() => undefined); },
  };
}
