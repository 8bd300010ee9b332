/**
 * The storefront's router: a route table with loaders that run before a page is shown (on the
 * server before rendering, in the browser before a navigation commits), lazy route chunks, links,
 * history with scroll restoration, and the hooks pages use. See docs/storefront.md "Routing".
 */
export { createBrowserRouter, type BrowserRouterOptions } from './browser-router';
export { createStaticRouter, renderedState, type NavigateOptions, type NavigationState, type Router, type RouterState } from './router';
export { lazyPage, loadRoute, matchRoute, preloadRoute, statusOf, type LoadResult, type Loader, type LoaderArgs, type PageData, type RouteDef, type RouteTable } from './table';
export { RouterProvider, Outlet } from './RouterProvider';
export { Link, NavLink, type LinkProps, type NavLinkProps } from './Link';
export { useLocation, useNavigate, useNavigation, useParams, useSearchParams } from './context';
export { hrefOf, locationOf, resolveTo, type Location, type To } from './location';
export type { Params } from './match';
