import { createContext, useCallback, useContext, useMemo } from 'react';
import type { To } from './location';
import type { Params } from './match';
import { IDLE, type NavigateOptions, type NavigationState, type Router, type RouterState } from './router';

// Three contexts so that a navigation starting (the loading bar) re-renders only what reads it.
export const RouterContext = createContext<Router | null>(null);
export const StateContext = createContext<RouterState | null>(null);
export const NavigationContext = createContext<NavigationState>(IDLE);

export function useRouter(): Router {
  const router = useContext(RouterContext);
  if (!router) throw new Error('Router hooks need a <RouterProvider> above them');
  return router;
}

function useRouterState(): RouterState {
  const state = useContext(StateContext);
  if (!state) throw new Error('Router hooks need a <RouterProvider> above them');
  return state;
}

export const useLocation = () => useRouterState().location;
export const useParams = (): Params => useRouterState().match?.params ?? {};
/** Idle, or loading the next page (whose location it carries). */
export const useNavigation = () => useContext(NavigationContext);

/** A stable function (safe in effect dependencies) that navigates from the current page. */
export function useNavigate(): (to: To, options?: NavigateOptions) => void {
  const router = useRouter();
  return useCallback((to, options) => void router.navigate(to, options), [router]);
}

/** The query of the current URL, and a setter that navigates to the same path with a new query. */
export function useSearchParams(): [URLSearchParams, (next: URLSearchParams, options?: NavigateOptions) => void] {
  const router = useRouter();
  const { search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback((next: URLSearchParams, options?: NavigateOptions) => void router.navigate({ search: next.toString() }, options), [router]);
  return [params, set];
}
