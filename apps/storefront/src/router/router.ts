import type { Location, To } from './location';
import type { LoadResult, Match, RouteTable } from './table';

/** What to do with the window's scroll once a state is on screen. */
export type ScrollIntent =
  | { kind: 'keep' }
  | { kind: 'top' }
  /** Back / forward: where the shopper left that page. */
  | { kind: 'restore'; y: number }
  | { kind: 'hash'; id: string };

/** The committed page: the URL it was loaded for and the route it renders. */
export interface RouterState {
  location: Location;
  match: Match | undefined;
  /** Set when a loader or a code load failed: the table's error page shows. */
  error?: unknown;
  scroll: ScrollIntent;
}

/** A navigation whose loaders still run (the current page stays on screen meanwhile). */
export type NavigationState = { state: 'idle' } | { state: 'loading'; location: Location };

export interface NavigateOptions {
  /** Replace the current history entry (typing in a search box) instead of adding one. */
  replace?: boolean;
  /** Leave the window scrolled where it is (filters, a chosen variant). */
  preventScrollReset?: boolean;
}

/** One router per render: a browser router, or a fixed one for a server render. */
export interface Router {
  readonly table: RouteTable;
  getState(): RouterState;
  getNavigation(): NavigationState;
  subscribe(listener: () => void): () => void;
  /** Resolves once the navigation committed, or was overtaken by a newer one. */
  navigate(to: To, options?: NavigateOptions): Promise<void>;
}

export const IDLE: NavigationState = { state: 'idle' };

/** A router that only renders `state` (the server's render of one request). */
export function createStaticRouter(table: RouteTable, state: RouterState): Router {
  return {
    table,
    getState: () => state,
    getNavigation: () => IDLE,
    subscribe: () => () => {},
    navigate: () => Promise.reject(new Error('The server renders one page; it cannot navigate')),
  };
}

/** The state a server render shows for a loaded location (its scroll is the browser's business). */
export function renderedState(location: Location, result: LoadResult): RouterState {
  return { location, match: result.match, ...(result.error === undefined ? {} : { error: result.error }), scroll: { kind: 'keep' } };
}
