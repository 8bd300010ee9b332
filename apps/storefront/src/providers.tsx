import { StrictMode, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { ClientCore } from '@vitrine/sdk';
import { VitrineProvider } from '@vitrine/react';
import { SiteContext, type SiteInfo } from './site';

/** Everything around the router, the same on the server and in the browser. */
export function Providers({ client, queryClient, site, children }: { client: ClientCore; queryClient: QueryClient; site: SiteInfo; children: ReactNode }) {
  return (
    <StrictMode>
      <SiteContext.Provider value={site}>
        <VitrineProvider client={client} queryClient={queryClient}>{children}</VitrineProvider>
      </SiteContext.Provider>
    </StrictMode>
  );
}

/** Query defaults: catalog data stays fresh for a minute (the server's listing changes rarely). */
export const QUERY_DEFAULTS = { queries: { staleTime: 60_000, retry: 1 } } as const;
