import type { z } from 'zod';
import type { BaseContext, PeekContext, RequestContext } from './context.js';
import type { EncodedJson } from './wire.js';

/**
 * Who may call a route:
 * - `public`: no credentials (token endpoint, JWKS, health, hosted pages); no site in the context;
 * - `visitor`: any valid caller of the site (visitor or member token, API key, app);
 * - `member`: a logged-in member token only;
 * - `elevated`: an owner API key or an app; visitor and member tokens get 403.
 */
export type Access = 'public' | 'visitor' | 'member' | 'elevated';
export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface RouteBase<S extends z.ZodType> {
  method: Method;
  /** Hono path, e.g. `/stores-reader/v1/products/:id`. */
  path: string;
  summary: string;
  /** One schema for path params, query fields, `.r` payload and JSON body, merged into one object. */
  request: S;
  /** Response shape, for the API reference only. */
  response?: z.ZodType;
  /** A GET that also answers POST with the same payload as a JSON body (docs/api.md). */
  postTwin?: boolean;
  /** `raw` handlers return a Response themselves (HTML pages, media bytes, token endpoint). */
  raw?: boolean;
  /**
   * Raw-body route (uploads): the body is not JSON but bytes, given as `input.body` (Uint8Array) with
   * `input.contentType`, bounded by this many bytes instead of the global limit. Path without params.
   */
  rawBodyBytes?: number;
  /** Tag for the reference page; defaults to the domain's name. */
  tag?: string;
}

/** What a site route's handler may need beyond its input. */
export interface RouteCall {
  /** The validated `Idempotency-Key` header, on routes declared `idempotent`. */
  idempotencyKey?: string;
}

export interface SiteRoute<S extends z.ZodType = z.ZodType> extends RouteBase<S> {
  access: Exclude<Access, 'public'>;
  /** `call` is given by the HTTP layer; wrappers that forward a handler may omit it. */
  handler: (ctx: RequestContext, input: z.infer<S>, call?: RouteCall) => Promise<unknown>;
  /**
   * Honours an `Idempotency-Key` header (http/idempotency.ts, docs/operations.md). `true`: the handler
   * runs in one transaction with an idempotency record, and a repeat gets the first response. `'handler'`:
   * the key is only validated and handed to the handler (`call.idempotencyKey`), for handlers that run a
   * multi-step operation keyed by it. Without the header the route behaves as if not declared.
   */
  idempotent?: true | 'handler';
  /**
   * The answer the handler made earlier for these path parameters and still stands by for this
   * caller, or undefined. The direct lane asks it first for a GET whose input is its path alone and
   * sends a kept answer as the call's, without validating the input, building the call's context or
   * running the handler (a product get is mostly those, docs/performance-log.md). Sound only for
   * answers the handler itself kept, under a key naming every parameter: a parameter the schema
   * refuses never gets one.
   */
  keptAnswer?: (peek: PeekContext, params: Readonly<Record<string, string>>) => Promise<EncodedJson | undefined>;
}

export interface PublicRoute<S extends z.ZodType = z.ZodType> extends RouteBase<S> {
  access: 'public';
  handler: (ctx: BaseContext, input: z.infer<S>, request: Request) => Promise<unknown>;
}

export type RouteDef = SiteRoute | PublicRoute;

/** Declares a route of a site's API; the app registers it with decoding, auth and encoding. */
export function route<S extends z.ZodType>(def: SiteRoute<S>): RouteDef {
  return def as unknown as RouteDef;
}

/** Declares a route that needs no caller (OAuth, JWKS, hosted pages). */
export function publicRoute<S extends z.ZodType>(def: Omit<PublicRoute<S>, 'access'>): RouteDef {
  return { ...def, access: 'public' } as unknown as RouteDef;
}
