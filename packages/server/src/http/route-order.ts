import type { RouteDef } from './route.js';

/**
 * Hono runs the first registered handler that matches, so `/products/query` must be registered before
 * `/products/:id`. This orders routes so that, segment by segment, literal segments come before
 * parameters; domains can then list their routes in whatever order reads best.
 */
export function sortBySpecificity(routes: RouteDef[]): RouteDef[] {
  return [...routes].sort((a, b) => compare(a.path, b.path));
}

function compare(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i]!.startsWith(':') || sa[i] === '*';
    const pb = sb[i]!.startsWith(':') || sb[i] === '*';
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}
