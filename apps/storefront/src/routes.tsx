import type { QueryClient } from '@tanstack/react-query';
import type { ClientCore } from '@vitrine/sdk';
import { collectionListQuery, productBySlugQuery, productListQuery } from '@vitrine/react';
import type { PageData, RouteTable } from './router';
import { Document } from './Document';
import { HomePage, FEATURED } from './pages/HomePage';
import { CatalogPage } from './pages/CatalogPage';
import { ProductPage } from './pages/ProductPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ErrorPage } from './pages/ErrorPage';
import { scopeOptions } from './catalog/browse';
import { CALLBACK_PATH } from './browser';

/**
 * The route table. Loaders fill the query cache through the same query options the pages' hooks
 * read, on the server before rendering and in the browser before a navigation shows the next page
 * (so nothing appears late and shifts the layout). Cart, checkout and account load in the browser.
 * The `*` route and loaders answering `{ notFound: true }` make the server answer 404.
 */
export function createRoutes({ client, queryClient }: { client: ClientCore; queryClient: QueryClient }): RouteTable {
  const collectionsLoaded = () => queryClient.ensureQueryData(collectionListQuery(client));
  return {
    layout: <Document />,
    error: ErrorPage,
    loader: async (): Promise<PageData> => {
      await collectionsLoaded();
      return {};
    },
    routes: [
      {
        path: '',
        element: <HomePage />,
        loader: async (): Promise<PageData> => {
          await queryClient.ensureQueryData(productListQuery(client, FEATURED));
          return {};
        },
      },
      {
        path: 'collections/:slug',
        element: <CatalogPage mode="collection" />,
        loader: async ({ params }): Promise<PageData> => {
          const shelf = (await collectionsLoaded()).find((c) => c.slug === params.slug);
          if (!shelf) return { notFound: true };
          await queryClient.ensureQueryData(productListQuery(client, scopeOptions(shelf._id)));
          return {};
        },
      },
      {
        path: 'search',
        element: <CatalogPage mode="search" />,
        loader: async (): Promise<PageData> => {
          await queryClient.ensureQueryData(productListQuery(client, scopeOptions()));
          return {};
        },
      },
      {
        path: 'product-page/:slug',
        element: <ProductPage />,
        loader: async ({ params }): Promise<PageData> => {
          const product = await queryClient.ensureQueryData(productBySlugQuery(client, params.slug ?? ''));
          return product ? {} : { notFound: true };
        },
      },
      // Pages a first visit does not need load on demand (their own chunks): the home and product
      // pages' first load stays small. entry-client loads a matched lazy page before hydrating.
      { path: 'cart', lazy: async () => (await import('./pages/CartPage')).CartPage },
      { path: 'checkout/:id', lazy: async () => (await import('./pages/CheckoutPage')).CheckoutPage },
      { path: 'order-confirmation/:orderId', lazy: async () => (await import('./pages/OrderConfirmationPage')).OrderConfirmationPage },
      { path: 'account', lazy: async () => (await import('./pages/AccountPage')).AccountPage },
      { path: 'account/orders/:id', lazy: async () => (await import('./pages/OrderPage')).OrderPage },
      { path: CALLBACK_PATH.slice(1), lazy: async () => (await import('./pages/CallbackPage')).CallbackPage },
      { path: '*', element: <NotFoundPage /> },
    ],
  };
}
