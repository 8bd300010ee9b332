/**
 * Per-call idempotency keys. Kept out of `client.ts` so an app that never sends a key (the storefront
 * subset) does not ship this code: the request path only merges `RequestSpec.headers`.
 */
import type { ClientCore } from './core.js';
import { bindModule } from './define.js';

/** The request header the server reads on the calls its reference marks idempotent (docs/api.md). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * A copy of `client` whose calls all send `Idempotency-Key: key`; make one per operation you may retry
 * (`withIdempotencyKey(client, key).items.insert(...)`) and reuse the key only for retries of it. The
 * copy shares the original's auth, headers and consistency token; `client` itself is unchanged.
 */
export function withIdempotencyKey<C extends ClientCore>(client: C, key: string): C {
  const core: ClientCore = {
    host: client.host,
    auth: client.auth,
    request: (spec) => client.request({ ...spec, headers: { ...spec.headers, [IDEMPOTENCY_KEY_HEADER]: key } }),
    fetchWithAuth: (input, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set(IDEMPOTENCY_KEY_HEADER, key);
      return client.fetchWithAuth(input, { ...init, headers });
    },
  };
  const copy: Record<string, unknown> = {};
  Object.assign(copy, client, core);
  // Every other object member of a client is a module; its functions are rebound to the keyed core.
  for (const [name, value] of Object.entries(client)) {
    if (!(name in core) && typeof value === 'object' && value !== null) copy[name] = bindModule(value, core);
  }
  // The copy has every member of `client`, its modules rebound with the same signatures.
  return copy as C;
}
