import { Component, createElement, useContext, useLayoutEffect, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import { NavigationContext, RouterContext, StateContext } from './context';
import type { Location } from './location';
import type { Router } from './router';
import { applyScroll } from './scroll';
import { loadedComponent } from './table';

/**
 * Renders the router's current page inside the table's layout, or the table's error page when a
 * loader failed or a render threw.
 */
export function RouterProvider({ router }: { router: Router }) {
  const state = useSyncExternalStore(router.subscribe, router.getState, router.getState);
  const navigation = useSyncExternalStore(router.subscribe, router.getNavigation, router.getNavigation);
  // After the new page is in the DOM (and before it is painted): top, Back's position, or a fragment.
  useLayoutEffect(() => applyScroll(state.scroll), [state]);
  const { layout, error: ErrorView } = router.table;
  return (
    <RouterContext.Provider value={router}>
      <StateContext.Provider value={state}>
        <NavigationContext.Provider value={navigation}>
          {state.error !== undefined
            ? <ErrorView error={state.error} />
            : <RenderErrorBoundary location={state.location} fallback={ErrorView}>{layout}</RenderErrorBoundary>}
        </NavigationContext.Provider>
      </StateContext.Provider>
    </RouterContext.Provider>
  );
}

/** Where the layout puts the matched page. */
export function Outlet(): ReactNode {
  const state = useContext(StateContext);
  const route = state?.match?.route;
  if (!route) return null;
  if (route.element !== undefined) return route.element;
  const page = loadedComponent(route);
  // The router loads a lazy route's code before it commits to it (and entry-client before hydrating).
  if (!page) throw new Error(`The page for ${state.location.pathname} was rendered before its code loaded`);
  return createElement(page);
}

interface BoundaryProps { location: Location; fallback: ComponentType<{ error: unknown }>; children: ReactNode }
interface BoundaryState { error: unknown; location: Location }

/** Shows the error page for a render that threw; the next navigation tries the page again. */
class RenderErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: undefined, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.location === state.location ? null : { error: undefined, location: props.location };
  }

  override render() {
    return this.state.error === undefined ? this.props.children : createElement(this.props.fallback, { error: this.state.error });
  }
}
