import type { QueryClient } from '@tanstack/react-query';
import type { ClientCore } from '@vitrine/sdk';
import { collectionListQuery, productBySlugQuery, productListQuery } from '@vitrine/react';
import { lazyPage, type PageData, type RouteTable } from './router';
import { Document } from './Document';
import { NotFoundPage } from './pages/NotFoundPage';
import { ErrorPage } from './pages/ErrorPage';
import { FEATURED, scopeOptions } from './catalog/queries';
import { CALLBACK_PATH } from './browser';

/**
 * The route table. Loaders fill the query cache through the same query options the pages' hooks
 * read, on the server before rendering and in the browser before a navigation shows the next page
 * (so nothing appears late and shifts the layout). Cart, checkout and account load in the browser.
 * Every page but the 404 is in its own chunk: a first load carries only its page's code (the server
 * announces that chunk with the page, and the browser loads it before hydrating). The `*` route and loaders answering `{ notFound: true }` make the server answer 404.
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
        ...lazyPage('src/pages/HomePage.tsx', () => import('./pages/HomePage'), (m) => m.HomePage),
        loader: async (): Promise<PageData> => {
          await queryClient.ensureQueryData(productListQuery(client, FEATURED));
          return {};
        },
      },
      {
        path: 'collections/:slug',
        ...lazyPage('src/pages/CatalogPage.tsx', () => import('./pages/CatalogPage'), (m) => m.CollectionPage),
        loader: async ({ params }): Promise<PageData> => {
          const shelf = (await collectionsLoaded()).find((c) => c.slug === params.slug);
          if (!shelf) return { notFound: true };
          await queryClient.ensureQueryData(productListQuery(client, scopeOptions(shelf._id)));
          return {};
        },
      },
      {
        path: 'search',
        ...lazyPage('src/pages/CatalogPage.tsx', () => import('./pages/CatalogPage'), (m) => m.SearchPage),
        loader: async (): Promise<PageData> => {
          await queryClient.ensureQueryData(productListQuery(client, scopeOptions()));
          return {};
        },
      },
      {
        path: 'product-page/:slug',
        ...lazyPage('src/pages/ProductPage.tsx', () => import('./pages/ProductPage'), (m) => m.ProductPage),
        loader: async ({ params }): Promise<PageData> => {
          const product = await queryClient.ensureQueryData(productBySlugQuery(client, params.slug ?? ''));
          return product ? {} : { notFound: true };
        },
      },
      { path: 'cart', ...lazyPage('src/pages/CartPage.tsx', () => import('./pages/CartPage'), (m) => m.CartPage) },
      { path: 'checkout/:id', ...lazyPage('src/pages/CheckoutPage.tsx', () => import('./pages/CheckoutPage'), (m) => m.CheckoutPage) },
      { path: 'order-confirmation/:orderId', ...lazyPage('src/pages/OrderConfirmationPage.tsx', () => import('./pages/OrderConfirmationPage'), (m) => m.OrderConfirmationPage) },
      { path: 'account', ...lazyPage('src/pages/AccountPage.tsx', () => import('./pages/AccountPage'), (m) => m.AccountPage) },
      { path: 'account/orders/:id', ...lazyPage('src/pages/OrderPage.tsx', () => import('./pages/OrderPage'), (m) => m.OrderPage) },
      { path: CALLBACK_PATH.slice(1), ...lazyPage('src/pages/CallbackPage.tsx', () => import('./pages/CallbackPage'), (m) => m.CallbackPage) },
      { path: '*', element: <NotFoundPage /> },
    ],
  };
}
