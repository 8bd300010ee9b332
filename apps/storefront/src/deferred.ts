import { useSyncExternalStore } from 'react';

export interface DeferredModule<M> {
  /** Starts loading (once; a failed load is tried again on the next call). */
  preload(): Promise<M>;
  /**
   * The module once loaded, else undefined. Undefined on the server and in the hydration render
   * too, so a component shows its server form first and switches after hydration.
   */
  use(): M | undefined;
}

/** Code a page needs only once the shopper acts: loaded after hydration (on idle) or on first use. */
export function deferredModule<M>(load: () => Promise<M>): DeferredModule<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    preload() {
      loading ??= load().then(
        (m) => {
          loaded = m;
          listeners.forEach((l) => l());
          return m;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    use: () => useSyncExternalStore(subscribe, () => loaded, () => undefined),
  };
}
