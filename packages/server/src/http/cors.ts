export interface CorsOptions {
  /** '*' for any origin, or the exact origins allowed. */
  origins: readonly string[];
  allowMethods: readonly string[];
  allowHeaders: readonly string[];
  exposeHeaders: readonly string[];
  maxAgeSeconds: number;
}

/** The CORS answer for one request: headers every response carries, and the preflight's own. */
export interface CorsPolicy {
  /** Headers for any response to a request from `origin` (plain object: see http/frame.ts). */
  responseHeaders(origin: string | undefined): Record<string, string>;
  /** The extra headers of a preflight (`OPTIONS`) answer. */
  readonly preflightHeaders: Readonly<Record<string, string>>;
}

/** CORS without credentials. */
export function corsPolicy(options: CorsOptions): CorsPolicy {
  const any = options.origins.includes('*');
  const exposeHeaders = options.exposeHeaders.join(',');
  // The same object for every request when any origin may call: nothing per request to build.
  const forAny = Object.freeze({ 'access-control-allow-origin': '*', 'access-control-expose-headers': exposeHeaders });
  return {
    responseHeaders(origin) {
      if (any) return forAny;
      const headers: Record<string, string> = { 'access-control-expose-headers': exposeHeaders };
      if (origin !== undefined && options.origins.includes(origin)) headers['access-control-allow-origin'] = origin;
      // The answer depends on the Origin header whenever it is not the same for every origin.
      headers.vary = 'Origin';
      return headers;
    },
    preflightHeaders: Object.freeze({
      'access-control-max-age': String(options.maxAgeSeconds),
      'access-control-allow-methods': options.allowMethods.join(','),
      'access-control-allow-headers': options.allowHeaders.join(','),
    }),
  };
}
