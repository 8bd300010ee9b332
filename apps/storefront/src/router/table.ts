import type { ComponentType, ReactNode } from 'react';
import { matchPath, type Params } from './match';

/** What a loader tells the router about the page (a missing product still renders its page). */
export interface PageData {
  /** Answer 404 (the page itself says what is missing). */
  notFound?: boolean;
  /** Go there instead (the server answers 302; the browser navigates without showing this page). */
  redirect?: string;
}

export interface LoaderArgs {
  params: Params;
  url: URL;
}

/** Fills caches the page reads (the query cache); runs before the page is shown, on both sides. */
export type Loader = (args: LoaderArgs) => Promise<PageData>;

export interface RouteDef {
  /** Relative to the root: `''`, `collections/:slug`, `*` (anything else: the 404 page). */
  path: string;
  loader?: Loader;
  /** The page, or `lazy` for one in its own chunk. */
  element?: ReactNode;
  lazy?: () => Promise<ComponentType>;
  /**
   * The lazy page's source file as the client build's manifest names it (`src/pages/CartPage.tsx`):
   * the server announces its chunk with the page, so the browser has it before hydrating.
   */
  module?: string;
}

/** A route part for a page in its own chunk (the module path is checked against the import in tests). */
export function lazyPage<M>(module: string, load: () => Promise<M>, pick: (loaded: M) => ComponentType): Pick<RouteDef, 'lazy' | 'module'> {
  return { module, lazy: async () => pick(await load()) };
}

export interface RouteTable {
  /** The document around every page; it renders `<Outlet />` where the page goes. */
  layout: ReactNode;
  /** Runs for every page, beside the page's own loader. */
  loader?: Loader;
  /** Shown instead of the layout when a loader or a render failed. */
  error: ComponentType<{ error: unknown }>;
  /** Tried in order; the first match wins. */
  routes: readonly RouteDef[];
}

export interface Match {
  route: RouteDef;
  params: Params;
}

export function matchRoute(routes: readonly RouteDef[], pathname: string): Match | undefined {
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (params) return { route, params };
  }
  return undefined;
}

/** Components of lazy routes once loaded (kept per route definition, loaded once). */
const loaded = new WeakMap<RouteDef, ComponentType>();
const loading = new WeakMap<RouteDef, Promise<void>>();

/** Loads a lazy route's code (nothing for others); the page can render synchronously afterwards. */
export function preloadRoute(route: RouteDef): Promise<void> {
  if (!route.lazy || loaded.has(route)) return Promise.resolve();
  let pending = loading.get(route);
  if (!pending) {
    pending = route.lazy().then((component) => void loaded.set(route, component));
    // A failed chunk load may be retried by the next navigation.
    pending.catch(() => loading.delete(route));
    loading.set(route, pending);
  }
  return pending;
}

/** The component of a loaded lazy route. */
export function loadedComponent(route: RouteDef): ComponentType | undefined {
  return loaded.get(route);
}

/** The outcome of loading a location: what to render, or where to go instead. */
export interface LoadResult {
  match: Match | undefined;
  notFound: boolean;
  redirect?: string;
  /** A loader failed, or a lazy chunk did not load: the error page shows. */
  error?: unknown;
}

/**
 * Runs the table's loader and the matched route's loader and code load side by side. The `*` route,
 * no match at all, or a loader answering `notFound` make the result a 404.
 */
export async function loadRoute(table: RouteTable, url: URL): Promise<LoadResult> {
  const match = matchRoute(table.routes, url.pathname);
  const args: LoaderArgs = { params: match?.params ?? {}, url };
  try {
    const [outer, page] = await Promise.all([
      table.loader?.(args),
      match?.route.loader?.(args),
      match ? preloadRoute(match.route) : undefined,
    ]);
    const redirect = outer?.redirect ?? page?.redirect;
    const notFound = !match || match.route.path === '*' || outer?.notFound === true || page?.notFound === true;
    return redirect === undefined ? { match, notFound } : { match, notFound, redirect };
  } catch (error) {
    return { match, notFound: false, error };
  }
}

/** The HTTP status of a rendered result (redirects are answered before rendering). */
export function statusOf(result: LoadResult): number {
  if (result.error !== undefined) return 500;
  return result.notFound ? 404 : 200;
}
