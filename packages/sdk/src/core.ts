/**
 * The transport a module function is given. Its own file so that the context and module definitions
 * (`context.ts`, `define.ts`), which `client.ts` imports, do not import `client.ts` back.
 */
import type { AuthStrategy } from './auth/types.js';
import type { DecodeOptions } from './http/codec.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** One REST call of a module function, in the caller's names. */
export interface RequestSpec {
  method: HttpMethod;
  /** Path with path parameters already filled in (`encodeURIComponent`ed). */
  path: string;
  /** Fields in the caller's names (`_id` ...); GET/DELETE send them in the query string. */
  payload?: Record<string, unknown>;
  /** A GET with a POST twin: sent as POST when its query string passes `GET_QUERY_MAX_CHARS`. */
  postTwin?: boolean;
  /** Request wire paths whose subtrees are sent unrenamed (data items' `data`). */
  preserve?: readonly string[];
  /** Date / float / preserved paths of the response, in wire names. */
  decode?: DecodeOptions;
  /** Wire field prefixes -> caller argument names in validation errors (`{ id: '_id' }`). */
  argumentFields?: Readonly<Record<string, string>>;
  /** Headers of this one call, over the client's own (`withIdempotencyKey` sets its key here). */
  headers?: Readonly<Record<string, string>>;
}

/** What module functions get: the client's transport. */
export interface ClientCore {
  readonly host: string;
  readonly auth: AuthStrategy;
  /** Encodes, sends with auth, decodes, and turns failures into `VitrineError`s. */
  request<T>(spec: RequestSpec): Promise<T>;
  /** fetch with this client's auth and consistency headers; a relative URL is resolved against `host`. */
  fetchWithAuth(input: string | URL | Request, init?: RequestInit): Promise<Response>;
}
