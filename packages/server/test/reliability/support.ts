import { call, type ApiResponse, type CallOptions } from '../harness.js';
import { DEMO_CLIENT_ID } from '../../src/cli/demo-store.js';
import { freshDatabase, startServerProcess, stopServerProcess, type FreshDatabase, type ServerProcess } from '../child-server.js';

/**
 * Helpers of the fault tests: several real `vitrine start` processes over one database, and the
 * storefront's checkout path (visitor token, cart, checkout, order and charge) spoken over HTTP.
 */
export const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
/** The test card the payment provider approves and captures. */
export const CARD = { number: '4242424242424242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' };
/** Short job leases and polls so a dead process's work is picked up quickly. */
export const FAST_JOBS_ENV = {
  JOBS_LEASE_MS: '1500', JOBS_POLL_MS: '50', WEBHOOK_BACKOFF_BASE_MS: '100', WEBHOOK_BACKOFF_MAX_MS: '1000', WEBHOOK_TIMEOUT_MS: '1000', EVENTS_POLL_MS: '20',
};

export interface Fleet {
  db: FreshDatabase;
  procs: ServerProcess[];
  owner: Pick<CallOptions, 'auth' | 'siteId'>;
  clientId: string;
  /** Starts one more process over the same database (a restart). */
  add(): Promise<ServerProcess>;
  stop(): Promise<void>;
}

/**
 * `count` independent server processes on different ports over one fresh database. The first one
 * starts alone (it migrates and seeds the demo store), the rest together.
 */
export async function startFleet(count: number, prefix: string, env: Record<string, string> = {}): Promise<Fleet> {
  const db = freshDatabase(prefix);
  const procs: ServerProcess[] = [];
  const all: ServerProcess[] = [];
  const add = async () => {
    const p = await startServerProcess({ ...FAST_JOBS_ENV, ...db.env, ...env }, `server ${all.length + 1}`);
    all.push(p);
    return p;
  };
  procs.push(await add());
  procs.push(...(await Promise.all(Array.from({ length: count - 1 }, add))));
  const key = await db.ownerKey(prefix);
  const clientId = DEMO_CLIENT_ID;
  return {
    db, procs, add, clientId,
    owner: { auth: key.apiKey, siteId: key.siteId },
    async stop() {
      await Promise.all(all.map((p) => stopServerProcess(p, 'SIGKILL')));
      await db.drop();
    },
  };
}

/** `call` that retries once when a keep-alive connection was closed just as it was reused. */
export async function callRetrying(...args: Parameters<typeof call>): Promise<ApiResponse> {
  try {
    return await call(...args);
  } catch (err) {
    if (!/ECONNRESET|other side closed|socket hang up/.test(String((err as { cause?: unknown }).cause ?? err))) throw err;
    return call(...args);
  }
}

/** Fails with the answer when `res` is not a 200. */
export function ok(res: ApiResponse, what: string): ApiResponse {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
  return res;
}

/** A V1 product with one tracked default variant of `quantity` units, made by the owner. */
export async function stockedProduct(url: string, owner: Fleet['owner'], name: string, quantity: number): Promise<{ productId: string; variantId: string }> {
  const res = ok(await callRetrying(url, '/stores/v1/products', { ...owner, body: { product: { name, priceData: { price: 5 }, stock: { trackInventory: true, quantity } } } }), 'create product');
  return { productId: res.body.product.id, variantId: res.body.product.variants[0].id };
}

export async function visitorToken(url: string, clientId: string): Promise<string> {
  return ok(await callRetrying(url, '/oauth2/token', { body: { clientId, grantType: 'anonymous' } }), 'anonymous token').body.access_token as string;
}

/** Cart with one unit, checkout: the checkout id (these steps hold no stock). */
export async function checkoutOf(url: string, auth: string, productId: string, email: string): Promise<string> {
  ok(await callRetrying(url, '/ecom/v1/carts/current/add-to-cart', { auth, body: { lineItems: [{ quantity: 1, catalogReference: { catalogItemId: productId, appId: STORES_APP_ID } }] } }), 'add to cart');
  return ok(await callRetrying(url, '/ecom/v1/carts/current/create-checkout', { auth, body: { channelType: 'WEB', email } }), 'create checkout').body.checkoutId as string;
}

/** Places the checkout's order and charges the test card; the raw answer (not retried: it is not idempotent without a key). */
export function placeOrder(url: string, auth: string, checkoutId: string): Promise<ApiResponse> {
  return call(url, `/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, { auth, body: { id: checkoutId, paymentToken: JSON.stringify(CARD) } });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const PG_URL = process.env.DATABASE_URL || '';
