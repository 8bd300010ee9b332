/** The parts of a URL the router reads and writes (the origin is always the page's own). */
export interface Location {
  pathname: string;
  /** `''` or `?…` */
  search: string;
  /** `''` or `#…` */
  hash: string;
}

/** A navigation target: a path with query (`/search?q=tea`, or relative to the current path), or its parts. */
export type To = string | { pathname?: string; search?: string; hash?: string };

/** Base for resolving relative targets; never leaves the router (only the path parts are read). */
const BASE = 'http://router.invalid';

export function locationOf(url: { pathname: string; search: string; hash: string }): Location {
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

/**
 * The location `to` points at from `from`. An object keeps the current pathname when it has none
 * and drops the current query and fragment (as a link to `?page=2` would).
 */
export function resolveTo(to: To, from: Location): Location {
  if (typeof to === 'string') return locationOf(new URL(to, BASE + from.pathname));
  return { pathname: to.pathname ?? from.pathname, search: prefixed(to.search, '?'), hash: prefixed(to.hash, '#') };
}

function prefixed(part: string | undefined, mark: '?' | '#'): string {
  if (!part || part === mark) return '';
  return part.startsWith(mark) ? part : mark + part;
}

export function hrefOf(location: Location): string {
  return location.pathname + location.search + location.hash;
}

/** True for targets that leave this site (`https://…`, `mailto:`, `//host/…`): plain links, no routing. */
export function isExternal(to: To): to is string {
  return typeof to === 'string' && /^([a-z][a-z0-9+.-]*:|\/\/)/i.test(to);
}
