/** Helpers of the cart and checkout tests: callers, products, and short calls on the cart routes. */
import { asOwner, call, visitorTokens, type ApiResponse, type TestServer } from './harness.js';

export const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
export const CART = '/ecom/v1/carts/current';
export const CHECKOUTS = '/ecom/v1/checkouts';

/** A fresh visitor's access token. */
export async function visitor(t: TestServer): Promise<string> {
  return (await visitorTokens(t)).accessToken;
}

/** A V1 product; `quantity` tracks stock, else untracked. Returns the product id and its default variant. */
export async function productV1(t: TestServer, p: { name: string; price: number; quantity?: number; weight?: number; productType?: 'physical' | 'digital'; visible?: boolean; discount?: { type: 'PERCENT' | 'AMOUNT'; value: number } }): Promise<{ productId: string; variantId: string }> {
  const product: Record<string, unknown> = { name: p.name, priceData: { price: p.price }, productType: p.productType ?? 'physical' };
  if (p.quantity !== undefined) product.stock = { trackInventory: true, quantity: p.quantity };
  if (p.weight !== undefined) product.weight = p.weight;
  if (p.visible !== undefined) product.visible = p.visible;
  if (p.discount) product.discount = p.discount;
  const res = await call(t.url, '/stores/v1/products', { ...asOwner(t), body: { product } });
  if (res.status !== 200) throw new Error(`create product failed ${res.status} ${JSON.stringify(res.body)}`);
  return { productId: res.body.product.id, variantId: res.body.product.variants[0].id };
}

/** A V3 product with one variant at `amount` (decimal text). */
export async function productV3(t: TestServer, p: { name: string; amount: string; compareAt?: string; quantity?: number }): Promise<{ productId: string; variantId: string }> {
  const variant: Record<string, unknown> = { choices: [], price: { actualPrice: { amount: p.amount }, ...(p.compareAt ? { compareAtPrice: { amount: p.compareAt } } : {}) } };
  if (p.quantity !== undefined) variant.inventoryItem = { trackQuantity: true, quantity: p.quantity };
  const res = await call(t.url, '/stores/v3/products', { ...asOwner(t), body: { product: { name: p.name, productType: 'PHYSICAL', visible: true, variantsInfo: { variants: [variant] } } } });
  if (res.status !== 200) throw new Error(`create V3 product failed ${res.status} ${JSON.stringify(res.body)}`);
  return { productId: res.body.product.id, variantId: res.body.product.variantsInfo.variants[0].id };
}

export const line = (productId: string, quantity = 1, options?: Record<string, unknown>) => ({
  quantity, catalogReference: { catalogItemId: productId, appId: STORES_APP_ID, ...(options ? { options } : {}) },
});

/** One call on the cart or checkout API as `auth` (a token, or the owner key when 'owner'). */
export function as(t: TestServer, auth: string) {
  const who = auth === 'owner' ? asOwner(t) : { auth };
  return {
    get: (path: string, query?: Record<string, string>): Promise<ApiResponse> => call(t.url, path, { ...who, ...(query ? { query } : {}) }),
    post: (path: string, body: unknown = {}): Promise<ApiResponse> => call(t.url, path, { ...who, method: 'POST', body }),
    patch: (path: string, body: unknown): Promise<ApiResponse> => call(t.url, path, { ...who, method: 'PATCH', body }),
    put: (path: string, body: unknown): Promise<ApiResponse> => call(t.url, path, { ...who, method: 'PUT', body }),
    del: (path: string): Promise<ApiResponse> => call(t.url, path, { ...who, method: 'DELETE' }),
  };
}

/** Outbox events of an entity (slug list, in order). */
export async function slugsOf(t: TestServer, entityId: string): Promise<string[]> {
  const rows = await t.server.deps.storage.db.selectFrom('outbox_events').select(['slug', 'sequence']).where('entity_id', '=', entityId).orderBy('sequence').execute();
  return rows.map((r) => r.slug);
}
