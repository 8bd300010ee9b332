import type { AuthStrategy } from './auth/types.js';
import type { ClientCore, HttpMethod, RequestSpec } from './core.js';
import { setContextClient } from './context.js';
import { bindModule } from './define.js';
import { errorFromResponse, systemError } from './errors.js';
import { DEFAULT_HOST } from './host.js';
import { decodeResponse, encodeRequest, GET_QUERY_MAX_CHARS, toQueryParams } from './http/codec.js';

export const REQUEST_ID_HEADER = 'x-wix-request-id';
export const CONSISTENT_HEADER = 'X-Wix-Consistent';

export type { ClientCore, HttpMethod, RequestSpec } from './core.js';

export interface ClientConfig<M extends Modules> {
  modules?: M;
  /** Defaults to no auth (public calls only). */
  auth?: AuthStrategy;
  /** Server origin, default `https://www.wixapis.com`. */
  host?: string;
  /** Extra headers on every module call. */
  headers?: Record<string, string>;
  /** Defaults to the global fetch at call time. */
  fetch?: typeof fetch;
}

/** Modules by the name they get on the client: `{ products }` -> `client.products`. */
export type Modules = Record<string, object>;

export type Client<M extends Modules> = M & ClientCore & {
  /** Makes this client the one direct module calls use (`elevated` for `elevate()`d calls). */
  enableContext(kind: 'global', options?: { elevated?: boolean }): void;
  /** Adds or replaces headers sent on later module calls. */
  setHeaders(headers: Record<string, string>): void;
};

const NO_AUTH: AuthStrategy = { elevated: false, getAuthHeaders: async () => ({ headers: {} }) };

function joinUrl(host: string, path: string): string {
  return `${host.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

export function createClient<M extends Modules = Record<never, never>>(config: ClientConfig<M>): Client<M> {
  const host = config.host ?? DEFAULT_HOST;
  const auth = config.auth ?? NO_AUTH;
  const doFetch: typeof fetch = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const headers: Record<string, string> = { ...(config.headers ?? {}) };
  // Read-your-writes: the last X-Wix-Consistent the server sent goes on every later call.
  let consistent: string | undefined;

  auth.attach?.({ host, fetch: doFetch });

  const send = async (url: string | URL | Request, init: RequestInit, extra: Record<string, string>, authHeaders: Record<string, string>): Promise<Response> => {
    const merged = new Headers(url instanceof Request ? url.headers : undefined);
    const add = (h: HeadersInit | Record<string, string> | undefined) => new Headers(h).forEach((v, k) => merged.set(k, v));
    add(extra);
    add(init.headers);
    add(authHeaders);
    if (consistent) merged.set(CONSISTENT_HEADER, consistent);
    const res = await doFetch(url, { ...init, headers: merged });
    const seen = res.headers.get(CONSISTENT_HEADER);
    if (seen) consistent = seen;
    return res;
  };

  const fetchWithAuth: ClientCore['fetchWithAuth'] = async (input, init = {}) =>
    send(typeof input === 'string' && input.startsWith('/') ? joinUrl(host, input) : input, init, {}, (await auth.getAuthHeaders()).headers);

  const request = async <T>(spec: RequestSpec): Promise<T> => {
    const payload = encodeRequest(spec.payload ?? {}, spec.preserve) as Record<string, unknown>;
    let method: HttpMethod = spec.method;
    let url = joinUrl(host, spec.path);
    let body: string | undefined;
    if (method === 'GET' || method === 'DELETE') {
      const query = toQueryParams(payload).toString();
      if (method === 'GET' && spec.postTwin && query.length > GET_QUERY_MAX_CHARS) {
        method = 'POST';
        body = JSON.stringify(payload);
      } else if (query) {
        url += `?${query}`;
      }
    } else {
      body = JSON.stringify(payload);
    }
    // Token errors keep their own message: fetched before the transport's try.
    const { headers: authHeaders } = await auth.getAuthHeaders();
    let res: Response;
    try {
      res = await send(url, { method, body }, { ...headers, ...spec.headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) }, authHeaders);
    } catch (thrown) {
      throw systemError(thrown);
    }
    const requestId = res.headers.get(REQUEST_ID_HEADER) ?? undefined;
    let json: unknown;
    try {
      const text = await res.text();
      json = text ? JSON.parse(text) : {};
    } catch (thrown) {
      if (res.status === 200) throw systemError(thrown);
      json = undefined; // an error status without a JSON body: the status text decides
    }
    if (res.status !== 200) throw errorFromResponse(res.status, res.statusText, requestId, json, spec.argumentFields);
    return decodeResponse<T>(json, spec.decode);
  };

  const core: ClientCore = { host, auth, request, fetchWithAuth };
  const bound: Record<string, object> = {};
  for (const [name, module] of Object.entries(config.modules ?? {})) bound[name] = bindModule(module, core);

  return {
    ...(bound as M),
    ...core,
    enableContext(_kind, options = {}) {
      setContextClient(core, options.elevated ?? false);
    },
    setHeaders(more) {
      Object.assign(headers, more);
    },
  };
}
