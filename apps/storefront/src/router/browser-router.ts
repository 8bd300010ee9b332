import { hrefOf, isExternal, locationOf, resolveTo, type Location } from './location';
import { IDLE, type NavigationState, type Router, type RouterState, type ScrollIntent } from './router';
import { scrollMemory } from './scroll';
import { loadRoute, matchRoute, type RouteTable } from './table';

/** Redirects followed in one navigation before it is shown as an error (a loop). */
export const REDIRECTS_MAX = 10;

type Mode = 'push' | 'replace' | 'pop';

export interface BrowserRouterOptions {
  /** The loader failure the server rendered (its error page), so the first render equals the HTML. */
  error?: unknown;
}

/**
 * The browser's router over `history`. A navigation runs the loaders first and only then changes
 * the URL and the page, so the old page stays until the next one has its data. The newest
 * navigation wins; an overtaken one is dropped. Scroll positions are kept per history entry and
 * restored on Back / forward (the browser's own restoration is switched off: it would scroll
 * before the page is rendered).
 */
export function createBrowserRouter(table: RouteTable, options: BrowserRouterOptions = {}): Router {
  const memory = scrollMemory(sessionStorageOrNone());
  window.history.scrollRestoration = 'manual';
  let key = currentKey();
  const location = locationOf(window.location);
  const saved = memory.get(key);
  let state: RouterState = {
    location,
    match: matchRoute(table.routes, location.pathname),
    ...(options.error === undefined ? {} : { error: options.error }),
    scroll: saved === undefined ? { kind: 'keep' } : { kind: 'restore', y: saved },
  };
  let navigation: NavigationState = IDLE;
  let latest = 0;
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((l) => l());

  async function run(target: Location, mode: Mode, preventScrollReset: boolean, redirects = 0): Promise<void> {
    const id = ++latest;
    navigation = { state: 'loading', location: target };
    emit();
    const result = await loadRoute(table, new URL(hrefOf(target), window.location.origin));
    if (id !== latest) return;
    if (result.redirect !== undefined && redirects < REDIRECTS_MAX) {
      if (isExternal(result.redirect)) return window.location.assign(result.redirect);
      // The redirect takes the place of the page asked for (Back skips it).
      return run(resolveTo(result.redirect, target), mode === 'pop' ? 'replace' : mode, false, redirects + 1);
    }
    if (mode !== 'pop') {
      memory.save(key, window.scrollY);
      key = newKey();
      window.history[mode === 'push' ? 'pushState' : 'replaceState']({ key }, '', hrefOf(target));
    }
    const error = result.redirect !== undefined ? new Error(`Too many redirects (${REDIRECTS_MAX})`) : result.error;
    state = { location: target, match: result.match, ...(error === undefined ? {} : { error }), scroll: scrollFor(mode, target, preventScrollReset, memory.get(key)) };
    navigation = IDLE;
    emit();
  }

  window.addEventListener('popstate', () => {
    memory.save(key, window.scrollY);
    key = currentKey();
    const target = locationOf(window.location);
    // A fragment link (the skip link) changes only the hash: the browser has scrolled already.
    if (target.pathname === state.location.pathname && target.search === state.location.search) {
      latest++;
      state = { ...state, location: target, scroll: { kind: 'keep' } };
      navigation = IDLE;
      emit();
      return;
    }
    void run(target, 'pop', false);
  });
  window.addEventListener('pagehide', () => {
    memory.save(key, window.scrollY);
    memory.persist();
  });

  return {
    table,
    getState: () => state,
    getNavigation: () => navigation,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    navigate(to, { replace = false, preventScrollReset = false } = {}) {
      if (isExternal(to)) {
        window.location.assign(to);
        return Promise.resolve();
      }
      return run(resolveTo(to, state.location), replace ? 'replace' : 'push', preventScrollReset);
    },
  };
}

function scrollFor(mode: Mode, target: Location, preventScrollReset: boolean, saved: number | undefined): ScrollIntent {
  if (mode === 'pop') return { kind: 'restore', y: saved ?? 0 };
  if (preventScrollReset) return { kind: 'keep' };
  if (target.hash.length > 1) return { kind: 'hash', id: decodeFragment(target.hash.slice(1)) };
  return { kind: 'top' };
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

const newKey = () => Math.random().toString(36).slice(2, 10);

/** The key of the current history entry; an entry without one (first load, a fragment link) gets one. */
function currentKey(): string {
  const held: unknown = window.history.state;
  if (typeof held === 'object' && held !== null && 'key' in held && typeof held.key === 'string') return held.key;
  const key = newKey();
  window.history.replaceState({ key }, '');
  return key;
}

function sessionStorageOrNone(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // blocked by the browser's privacy settings
  }
}
