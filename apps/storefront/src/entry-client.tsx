import { hydrateRoot } from 'react-dom/client';
import { QueryClient } from '@tanstack/react-query';
import { hydrateQueries } from '@vitrine/react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { browserClient } from './browser';
import { createRoutes } from './routes';
import { Providers, QUERY_DEFAULTS } from './providers';
import { BOOT_GLOBAL, type Boot } from './site';
import './index.css';

declare global {
  interface Window { [BOOT_GLOBAL]?: Boot }
}

const boot = window[BOOT_GLOBAL] ?? { origin: window.location.origin, css: [], state: '{"queries":[],"mutations":[]}' };
const queryClient = new QueryClient({ defaultOptions: QUERY_DEFAULTS });
hydrateQueries(queryClient, boot.state);
const client = browserClient();
// The router reads the server's loader results from window.__staticRouterHydrationData.
const router = createBrowserRouter(createRoutes({ client, queryClient }));

hydrateRoot(
  document,
  <Providers client={client} queryClient={queryClient} site={{ origin: boot.origin, css: boot.css }}>
    <RouterProvider router={router} />
  </Providers>,
);
