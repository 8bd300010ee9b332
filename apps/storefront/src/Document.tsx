import { useEffect } from 'react';
import { Link, NavLink, Outlet, useNavigation } from './router';
import { useCollectionList } from '@vitrine/react';
import { STORE_NAME, useSite } from './site';
import { CartButton, CartUiProvider } from './cart/cart-ui';
import { AccountLink } from './account/AccountLink';

/** The whole HTML document: the server streams it and the browser hydrates `document` itself. */
export function Document() {
  const { css } = useSite();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1c1917" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {css.map((href) => <link key={href} rel="stylesheet" href={href} precedence="default" />)}
      </head>
      <body className="bg-stone-50 text-stone-900 antialiased">
        <Layout />
      </body>
    </html>
  );
}

function Layout() {
  const collections = useCollectionList();
  const navigation = useNavigation();
  const shelves = (collections.data ?? []).filter((c) => c.slug !== 'all-products');
  // Marks the page interactive (browser tests wait for it before clicking).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <CartUiProvider>
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2 focus:text-stone-900">Skip to content</a>
      <header className="border-b border-stone-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-3 px-4 py-3 sm:px-6">
          <Link to="/" className="text-lg font-semibold tracking-tight">{STORE_NAME}</Link>
          <form action="/search" method="get" role="search" className="order-last w-full sm:order-none sm:ml-auto sm:w-64">
            <label htmlFor="site-search" className="sr-only">Search the store</label>
            <input id="site-search" name="q" type="search" placeholder="Search products" className="w-full rounded-md border border-stone-400 bg-white px-3 py-1.5 text-sm" />
          </form>
          <div className="ml-auto flex items-center gap-3 text-sm sm:ml-0">
            <AccountLink />
            <CartButton />
          </div>
        </div>
        <nav aria-label="Collections" className="mx-auto max-w-6xl overflow-x-auto px-4 sm:px-6">
          <ul className="flex gap-5 whitespace-nowrap pb-2 text-sm text-stone-700">
            {shelves.map((c) => (
              <li key={c._id}>
                <NavLink to={`/collections/${c.slug}`} className={({ isActive }) => `inline-block py-1 hover:text-stone-900 ${isActive ? 'font-semibold text-stone-900 underline underline-offset-4' : ''}`}>{c.name}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      {/* A thin bar while the next page's data loads (the old page stays put: no jump). */}
      <div aria-hidden="true" className={`h-0.5 bg-stone-900 transition-opacity ${navigation.state === 'loading' ? 'opacity-100' : 'opacity-0'}`} />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 outline-none sm:px-6">
        <Outlet />
      </main>
      <footer className="border-t border-stone-200 py-6 text-center text-xs text-stone-600">
        <p>{STORE_NAME} · <Link to="/search" className="underline">All products</Link> · Powered by Vitrine</p>
      </footer>
    </div>
    </CartUiProvider>
  );
}
