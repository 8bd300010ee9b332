import { describe, expect, it } from 'vitest';
import { loadRoute, loadedComponent, matchRoute, preloadRoute, statusOf, type PageData, type RouteDef, type RouteTable } from './table';

const url = (path: string) => new URL(path, 'http://shop.test');

function table(routes: RouteDef[], loader?: RouteTable['loader']): RouteTable {
  return { layout: null, error: () => null, routes, ...(loader ? { loader } : {}) };
}

/** A promise settled from outside, to see what runs while a loader waits. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

describe('matchRoute', () => {
  it('takes the first route that matches, in table order', () => {
    const routes: RouteDef[] = [{ path: 'account' }, { path: 'account/orders/:id' }, { path: ':any' }, { path: '*' }];
    expect(matchRoute(routes, '/account')?.route).toBe(routes[0]);
    expect(matchRoute(routes, '/account/orders/7')).toEqual({ route: routes[1], params: { id: '7' } });
    expect(matchRoute(routes, '/other')).toEqual({ route: routes[2], params: { any: 'other' } });
    expect(matchRoute(routes, '/a/b/c')?.route).toBe(routes[3]);
    expect(matchRoute([{ path: '' }], '/x')).toBeUndefined();
  });
});

describe('loadRoute', () => {
  it('runs the table loader and the page loader side by side, with params and URL', async () => {
    const outer = deferred<PageData>();
    const seen: string[] = [];
    const t = table(
      [{ path: 'product-page/:slug', loader: async ({ params, url }) => { seen.push(`page ${params.slug} ${url.search}`); return {}; } }],
      async () => { seen.push('outer'); return outer.promise; },
    );
    const loading = loadRoute(t, url('/product-page/mug?Size=M'));
    await Promise.resolve();
    expect(seen).toEqual(['outer', 'page mug ?Size=M']);
    outer.resolve({});
    const result = await loading;
    expect(result).toEqual({ match: { route: t.routes[0], params: { slug: 'mug' } }, notFound: false });
    expect(statusOf(result)).toBe(200);
  });

  it('is a 404 for the * route, for no match, and when a loader says notFound', async () => {
    const t = table([
      { path: 'product-page/:slug', loader: async ({ params }) => (params.slug === 'mug' ? {} : { notFound: true }) },
      { path: '*' },
    ]);
    expect(statusOf(await loadRoute(t, url('/product-page/mug')))).toBe(200);
    expect(statusOf(await loadRoute(t, url('/product-page/none')))).toBe(404);
    expect(statusOf(await loadRoute(t, url('/nowhere')))).toBe(404);
    expect(statusOf(await loadRoute(table([], async () => ({ notFound: true })), url('/')))).toBe(404);
    expect(await loadRoute(table([{ path: 'a' }]), url('/b'))).toEqual({ match: undefined, notFound: true });
  });

  it('passes a redirect on, the page loader before the table loader', async () => {
    const t = table([{ path: 'old', loader: async () => ({ redirect: '/new?x=1' }) }], async () => ({}));
    expect((await loadRoute(t, url('/old'))).redirect).toBe('/new?x=1');
  });

  it('turns a failing loader into an error result (status 500)', async () => {
    const failure = new Error('catalog down');
    const result = await loadRoute(table([{ path: '' }], async () => { throw failure; }), url('/'));
    expect(result.error).toBe(failure);
    expect(statusOf(result)).toBe(500);
  });

  it('loads a lazy route once, before the result, and retries a failed chunk', async () => {
    let calls = 0;
    const Page = () => null;
    const lazyRoute: RouteDef = { path: 'cart', lazy: async () => { calls++; return Page; } };
    expect(loadedComponent(lazyRoute)).toBeUndefined();
    await loadRoute(table([lazyRoute]), url('/cart'));
    expect(loadedComponent(lazyRoute)).toBe(Page);
    await preloadRoute(lazyRoute);
    await loadRoute(table([lazyRoute]), url('/cart'));
    expect(calls).toBe(1);

    let attempts = 0;
    const flaky: RouteDef = { path: 'account', lazy: async () => { if (++attempts === 1) throw new Error('chunk failed'); return Page; } };
    const failed = await loadRoute(table([flaky]), url('/account'));
    expect(failed.error).toEqual(new Error('chunk failed'));
    expect(await loadRoute(table([flaky]), url('/account'))).toEqual({ match: { route: flaky, params: {} }, notFound: false });
    expect(loadedComponent(flaky)).toBe(Page);
  });
});
