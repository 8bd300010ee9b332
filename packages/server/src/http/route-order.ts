import type { RouteDef } from './route.js';

/**
 * Hono runs the first registered handler that matches, so `/items/query` must be registered before
 * `/items/:id`. Each path gets a key, one digit per segment (0 literal, 1 parameter or wildcard), and
 * routes are sorted by that key: wherever two paths could match the same URL, the one with a literal
 * segment first is registered first. Comparing whole keys keeps the order total (a pairwise rule that
 * only looks at the first differing segment is not transitive, and Array#sort then misorders).
 */
export function sortBySpecificity(routes: RouteDef[]): RouteDef[] {
  return routes
    .map((route, index) => ({ route, index, key: specificityKey(route.path) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index))
    .map((entry) => entry.route);
}

function specificityKey(path: string): string {
  return path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') || segment.includes('*') ? '1' : '0'))
    .join('');
}
