import { hydrateRoot } from 'react-dom/client';
import { QueryClient } from '@tanstack/react-query';
import { hydrateQueries, preloadCatalogQueries } from '@vitrine/react';
import { browserClient, loadBrowserClient } from './browser';
import { cartCode } from './cart/deferred-cart';
import { createRoutes } from './routes';
import { createBrowserRouter, matchRoute, preloadRoute, RouterProvider } from './router';
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
const table = createRoutes({ client, queryClient });
// Every page but the 404 is in its own chunk, rendered whole on the server: its code must be here
// before hydrating, or the first client render would differ from the HTML (the server announced the
// chunk with the page, so this is usually a cache hit). A promise, not a top-level await: a page's
// chunk may import from this one, which must have finished.
const match = matchRoute(table.routes, window.location.pathname);
void (match ? preloadRoute(match.route) : Promise.resolve()).then(() => {
  const router = createBrowserRouter(table, boot.error === undefined ? {} : { error: new Error(boot.error) });
  hydrateRoot(
    document,
    <Providers client={client} queryClient={queryClient} site={{ origin: boot.origin, css: boot.css }}>
      <RouterProvider router={router} />
    </Providers>,
  );
  // Code the page needs only once the shopper acts (or has tokens) comes after hydration.
  whenIdle(() => {
    void loadBrowserClient();
    void cartCode.preload();
    void preloadCatalogQueries();
  });
});

function whenIdle(run: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}
