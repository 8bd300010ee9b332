import { hydrateRoot } from 'react-dom/client';
import { QueryClient } from '@tanstack/react-query';
import { hydrateQueries } from '@vitrine/react';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router';
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
const routes = createRoutes({ client, queryClient });
await resolveLazyMatches(routes);
const router = createBrowserRouter(routes);

hydrateRoot(
  document,
  <Providers client={client} queryClient={queryClient} site={{ origin: boot.origin, css: boot.css }}>
    <RouterProvider router={router} />
  </Providers>,
);

/**
 * A page served with a lazy route (cart, checkout, account) was rendered whole on the server; its
 * code must be here before hydrating, or the first client render would differ from the HTML.
 */
async function resolveLazyMatches(tree: RouteObject[]): Promise<void> {
  const matches = matchRoutes(tree, window.location) ?? [];
  await Promise.all(matches.map(async ({ route }) => {
    if (typeof route.lazy !== 'function') return;
    const loaded = await route.lazy();
    Object.assign(route, { ...loaded, lazy: undefined });
  }));
}
