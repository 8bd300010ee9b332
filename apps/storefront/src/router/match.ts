export type Params = Readonly<Record<string, string>>;

const segments = (path: string) => path.split('/').filter(Boolean);

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a malformed escape stays as typed; the page then finds nothing
  }
}

/**
 * The params of `pathname` under `pattern`, or null when it does not match. Patterns are paths
 * relative to the root: `''` (home), `search`, `collections/:slug`, or `*` (anything). Static
 * segments compare case-insensitively and a trailing slash is ignored, as links from elsewhere vary.
 */
export function matchPath(pattern: string, pathname: string): Params | null {
  if (pattern === '*') return {};
  const want = segments(pattern);
  const have = segments(pathname);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const h = have[i]!;
    if (w.startsWith(':')) params[w.slice(1)] = decode(h);
    else if (w.toLowerCase() !== decode(h).toLowerCase()) return null;
  }
  return params;
}
