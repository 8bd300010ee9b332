import { useSyncExternalStore } from 'react';

const noop = () => () => {};

/**
 * False on the server and during hydration, true after: parts that depend on the browser (tokens,
 * the cart) render their visitor form first so the server's HTML and the first client render agree.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noop, () => true, () => false);
}
