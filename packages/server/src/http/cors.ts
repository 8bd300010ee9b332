import type { MiddlewareHandler } from 'hono';

export interface CorsOptions {
  /** '*' for any origin, or the exact origins allowed. */
  origins: readonly string[];
  allowMethods: readonly string[];
  allowHeaders: readonly string[];
  exposeHeaders: readonly string[];
  maxAgeSeconds: number;
}

/**
 * CORS without credentials. Headers go onto the handler's response after it is made
 * (`c.res.headers`), never onto a placeholder response before it: the merge Hono does then (and
 * `c.header()` after the fact) makes the Node adapter build a full web Response with a body stream
 * for every call, a measurable share of a catalog read (docs/catalog.md, bench).
 */
export function cors(options: CorsOptions): MiddlewareHandler {
  const any = options.origins.includes('*');
  const allowMethods = options.allowMethods.join(',');
  const allowHeaders = options.allowHeaders.join(',');
  const exposeHeaders = options.exposeHeaders.join(',');
  return async (c, next) => {
    const origin = c.req.header('origin') ?? '';
    const allowed = any ? '*' : options.origins.includes(origin) ? origin : undefined;
    const set = (headers: Headers) => {
      if (allowed) headers.set('Access-Control-Allow-Origin', allowed);
      headers.set('Access-Control-Expose-Headers', exposeHeaders);
      // The answer depends on the Origin header whenever it is not the same for every origin.
      if (!any) headers.append('Vary', 'Origin');
    };
    if (c.req.method === 'OPTIONS') {
      const headers = new Headers({
        'Access-Control-Max-Age': String(options.maxAgeSeconds),
        'Access-Control-Allow-Methods': allowMethods,
        'Access-Control-Allow-Headers': allowHeaders,
      });
      set(headers);
      return new Response(null, { status: 204, headers });
    }
    await next();
    set(c.res.headers);
  };
}
