// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createBrowserRouter } from './browser-router';
import { useLocation, useNavigation, useParams, useSearchParams } from './context';
import { Link, NavLink } from './Link';
import { Outlet, RouterProvider } from './RouterProvider';
import type { PageData, RouteTable } from './table';

/** A promise settled from outside: a loader that waits until the test lets it finish. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

let scrolls: number[];
beforeEach(() => {
  window.history.replaceState(null, '', '/');
  sessionStorage.clear();
  scrolls = [];
  // jsdom has no layout: record where the router scrolls to.
  vi.spyOn(window, 'scrollTo').mockImplementation(((x: number, y: number) => { scrolls.push(y); Object.defineProperty(window, 'scrollY', { value: y, configurable: true }); }) as typeof window.scrollTo);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Layout() {
  const navigation = useNavigation();
  return (
    <div>
      <nav>
        <NavLink to="/collections/tea" className={({ isActive }) => (isActive ? 'on' : 'off')}>Tea</NavLink>
        <Link to="/product-page/mug">Mug</Link>
        <Link to="/search?q=kettle" preventScrollReset>Kettles</Link>
      </nav>
      <p data-testid="nav">{navigation.state}</p>
      <Outlet />
    </div>
  );
}

function Product() {
  const { slug } = useParams();
  return <h1>Product {slug}</h1>;
}

function Search() {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  return (
    <div>
      <h1>Search {params.get('q')} on {pathname}</h1>
      <button type="button" onClick={() => setParams(new URLSearchParams({ q: 'tea', page: '2' }), { replace: true, preventScrollReset: true })}>Page 2</button>
    </div>
  );
}

function LazyCart() {
  return <h1>Cart</h1>;
}

function tableWith(productLoader: () => Promise<PageData>): RouteTable {
  return {
    layout: <Layout />,
    error: ({ error }) => <p role="alert">{error instanceof Error ? error.message : 'failed'}</p>,
    routes: [
      { path: '', element: <h1>Home</h1> },
      { path: 'product-page/:slug', element: <Product />, loader: productLoader },
      { path: 'collections/:slug', element: <h1>Collection</h1> },
      { path: 'search', element: <Search /> },
      { path: 'old-search', loader: async () => ({ redirect: '/search?q=old' }) },
      { path: 'cart', lazy: async () => LazyCart },
      { path: 'broken', loader: async () => { throw new Error('catalog down'); } },
      { path: '*', element: <h1>Not found</h1> },
    ],
  };
}

describe('browser router', () => {
  it('keeps the old page until the next page has its data, then changes the URL and the page', async () => {
    const gate = deferred<PageData>();
    const router = createBrowserRouter(tableWith(() => gate.promise));
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('heading').textContent).toBe('Home');

    fireEvent.click(screen.getByText('Mug'));
    expect(screen.getByTestId('nav').textContent).toBe('loading');
    expect(screen.getByRole('heading').textContent).toBe('Home');
    expect(window.location.pathname).toBe('/');

    await act(async () => gate.resolve({}));
    expect(screen.getByRole('heading').textContent).toBe('Product mug');
    expect(screen.getByTestId('nav').textContent).toBe('idle');
    expect(window.location.pathname).toBe('/product-page/mug');
  });

  it('lets the newest navigation win when an older one finishes later', async () => {
    const slow = deferred<PageData>();
    const router = createBrowserRouter(tableWith(() => slow.promise));
    render(<RouterProvider router={router} />);
    fireEvent.click(screen.getByText('Mug'));
    await act(() => router.navigate('/collections/tea'));
    expect(screen.getByRole('heading').textContent).toBe('Collection');
    await act(async () => slow.resolve({}));
    expect(screen.getByRole('heading').textContent).toBe('Collection');
    expect(window.location.pathname).toBe('/collections/tea');
  });

  it('marks the active NavLink with aria-current and its class', async () => {
    const router = createBrowserRouter(tableWith(async () => ({})));
    render(<RouterProvider router={router} />);
    const tea = screen.getByText('Tea');
    expect(tea.getAttribute('aria-current')).toBeNull();
    expect(tea.className).toBe('off');
    await act(() => router.navigate('/collections/tea'));
    expect(tea.getAttribute('aria-current')).toBe('page');
    expect(tea.className).toBe('on');
    expect(tea.getAttribute('href')).toBe('/collections/tea');
  });

  it('leaves modified clicks to the browser', () => {
    const router = createBrowserRouter(tableWith(async () => ({})));
    render(<RouterProvider router={router} />);
    let leftToBrowser = false;
    const afterRouter = (e: MouseEvent) => { leftToBrowser = !e.defaultPrevented; e.preventDefault(); };
    window.addEventListener('click', afterRouter);
    fireEvent.click(screen.getByText('Mug'), { ctrlKey: true });
    window.removeEventListener('click', afterRouter);
    expect(leftToBrowser).toBe(true); // the browser opens a new tab
    expect(screen.getByTestId('nav').textContent).toBe('idle');
  });

  it('reads and replaces search params without a new history entry or a scroll', async () => {
    window.history.replaceState(null, '', '/search?q=kettle');
    const router = createBrowserRouter(tableWith(async () => ({})));
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('heading').textContent).toBe('Search kettle on /search');
    const length = window.history.length;
    await act(async () => fireEvent.click(screen.getByText('Page 2')));
    expect(screen.getByRole('heading').textContent).toBe('Search tea on /search');
    expect(window.location.search).toBe('?q=tea&page=2');
    expect(window.history.length).toBe(length);
    expect(scrolls).toEqual([]);
  });

  it('scrolls to the top on a new page and back to where the shopper was on Back', async () => {
    const router = createBrowserRouter(tableWith(async () => ({})));
    render(<RouterProvider router={router} />);
    window.scrollTo(0, 640);
    await act(() => router.navigate('/product-page/mug'));
    expect(scrolls.at(-1)).toBe(0);
    await act(async () => {
      window.history.back();
      await new Promise((r) => window.addEventListener('popstate', r, { once: true }));
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(screen.getByRole('heading').textContent).toBe('Home');
    expect(scrolls.at(-1)).toBe(640);
  });

  it('follows a loader redirect in place of the page asked for', async () => {
    const router = createBrowserRouter(tableWith(async () => ({})));
    render(<RouterProvider router={router} />);
    await act(() => router.navigate('/collections/tea'));
    const length = window.history.length;
    await act(() => router.navigate('/old-search'));
    expect(window.location.pathname + window.location.search).toBe('/search?q=old');
    expect(screen.getByRole('heading').textContent).toBe('Search old on /search');
    // One entry, the redirect's: Back returns to the collection.
    expect(window.history.length).toBe(length + 1);
  });

  it('loads a lazy page before showing it', async () => {
    const router = createBrowserRouter(tableWith(async () => ({})));
    render(<RouterProvider router={router} />);
    await act(() => router.navigate('/cart'));
    expect(screen.getByRole('heading').textContent).toBe('Cart');
  });

  it('shows the error page for a failed loader and recovers on the next navigation', async () => {
    const router = createBrowserRouter(tableWith(async () => ({})));
    render(<RouterProvider router={router} />);
    await act(() => router.navigate('/broken'));
    expect(screen.getByRole('alert').textContent).toBe('catalog down');
    await act(() => router.navigate('/'));
    expect(screen.getByRole('heading').textContent).toBe('Home');
  });

  it('starts on the error the server rendered', () => {
    const router = createBrowserRouter(tableWith(async () => ({})), { error: new Error('from the server') });
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('alert').textContent).toBe('from the server');
  });
});
