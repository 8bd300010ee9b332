import { createContext, useContext, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ClientCore } from '@vitrine/sdk';

const ClientContext = createContext<ClientCore | null>(null);

export interface VitrineProviderProps {
  /** A client from `createClient` (any modules; the hooks bring their own). */
  client: ClientCore;
  /** Share one with the rest of the app; by default the provider makes its own. */
  queryClient?: QueryClient;
  children?: ReactNode;
}

/** Provides the Vitrine client and a TanStack QueryClient to the hooks below it. */
export function VitrineProvider({ client, queryClient, children }: VitrineProviderProps) {
  const [ownQueryClient] = useState(() => queryClient ?? new QueryClient());
  return (
    <QueryClientProvider client={queryClient ?? ownQueryClient}>
      <ClientContext.Provider value={client}>{children}</ClientContext.Provider>
    </QueryClientProvider>
  );
}

export const OUTSIDE_PROVIDER_MESSAGE = 'useVitrineClient must be used inside <VitrineProvider client={...}>';

/** The provider's client, typed as the caller's client type (e.g. `useVitrineClient<typeof client>()`). */
export function useVitrineClient<C extends ClientCore = ClientCore>(): C {
  const client = useContext(ClientContext);
  if (!client) throw new Error(OUTSIDE_PROVIDER_MESSAGE);
  return client as C;
}
