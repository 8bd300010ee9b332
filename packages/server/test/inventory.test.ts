/**
 * The inventory domain (docs/inventory.md) at service level, through a real server's context on a
 * real database (SQLite, or PostgreSQL with DATABASE_URL): reservations under concurrency, multi-line
 * calls in opposite orders, reserve / commit / release / expiry, preorder limits, untracked items,
 * bad input, and the catalog's documents following committed stock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { serviceContext } from './member-tokens.js';
import { adjust, availability, commit, getReservation, pruneReservations, release, reserve, type ItemRef, type StockChange } from '../src/domains/inventory/index.js';
import type { RequestContext } from '../src/http/context.js';
import { ValidationError } from '../src/http/errors.js';

let t: TestServer;
let ctx: RequestContext;
let visitor: string;
const LOC1 = '11111111-1111-4111-8111-111111111111';
const owner = () => asOwner(t);

beforeAll(async () => {
  t = await startTestServer();
  ctx = serviceContext(t);
  visitor = (await visitorTokens(t)).accessToken;
});
afterAll(() => t?.close());

/** A V1 product with one (default) variant; returns its stock ref. */
async function v1(name: string, stock: Record<string, unknown>): Promise<{ productId: string; variantId: string }> {
  const res = await call(t.url, '/stores/v1/products', { ...owner(), body: { product: { name, priceData: { price: 5 }, stock } } });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  return { productId: res.body.product.id, variantId: res.body.product.variants[0].id };
}

/** A V3 product with one variant of `quantity` at the default location. */
async function v3(name: string, quantity: number): Promise<{ productId: string; variantId: string }> {
  const res = await call(t.url, '/stores/v3/products', { ...owner(), body: { product: {
    name, productType: 'PHYSICAL', visible: true,
    variantsInfo: { variants: [{ choices: [], price: { actualPrice: { amount: '10' } }, inventoryItem: { trackQuantity: true, quantity } }] },
  } } });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  return { productId: res.body.product.id, variantId: res.body.product.variantsInfo.variants[0].id };
}

const codeOf = (e: unknown) => (e as { code?: string }).code;
const outcome = async (p: Promise<unknown>) => p.then(() => 'OK', (e: unknown) => (e instanceof ValidationError ? 'VALIDATION_ERROR' : codeOf(e) ?? String(e)));
const avail = async (ref: ItemRef) => (await availability(ctx, [ref]))[0]!;
let seq = 0;
const rid = (prefix: string) => `${prefix}-${++seq}`;

describe('reservations under concurrency', () => {
  it('50 concurrent reservations for the last 10 units: exactly 10 succeed, available ends at 0', async () => {
    const ref = await v1('Last Ten', { trackInventory: true, quantity: 10 });
    const ids = Array.from({ length: 50 }, () => rid('last'));
    const results = await Promise.all(ids.map((reservationId) => outcome(reserve(ctx, [{ item: ref, quantity: 1 }], { reservationId }))));
    expect(results.filter((r) => r === 'OK')).toHaveLength(10);
    expect(results.filter((r) => r === 'INSUFFICIENT_STOCK')).toHaveLength(40);
    expect(await avail(ref)).toMatchObject({ quantity: 10, reserved: 10, available: 0, inStock: false });
    // Committing every held reservation (concurrently) takes exactly the 10 units, never more.
    const held = ids.filter((_, i) => results[i] === 'OK');
    expect(await Promise.all(held.map((id) => outcome(commit(ctx, id))))).toEqual(Array(10).fill('OK'));
    expect(await avail(ref)).toMatchObject({ quantity: 0, reserved: 0, available: 0, inStock: false });
  });

  it('50 concurrent V1 decrements (HTTP) of the last 10 units: exactly 10 succeed, quantity 0', async () => {
    const ref = await v1('Last Ten Route', { trackInventory: true, quantity: 10 });
    const results = await Promise.all(Array.from({ length: 50 }, () => call(t.url, '/stores/v2/inventoryItems/decrement', { ...owner(), body: { decrementData: [{ ...ref, decrementBy: 1 }] } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(40);
    expect(await avail(ref)).toMatchObject({ quantity: 0, available: 0 });
  });

  it('multi-line reservations and decrements in opposite orders never deadlock and stay all-or-nothing', async () => {
    const a = await v1('Pair A', { trackInventory: true, quantity: 15 });
    const b = await v3('Pair B', 100);
    const calls = Array.from({ length: 40 }, (_, i) => {
      const lines = [{ item: a, quantity: 1 }, { item: b, quantity: 1 }];
      return outcome(reserve(ctx, i % 2 === 0 ? lines : lines.reverse(), { reservationId: rid('pair') }));
    });
    const results = await Promise.all(calls);
    // A runs out after 15; no call fails any other way (a deadlock would surface as an error here).
    expect(results.filter((r) => r === 'OK')).toHaveLength(15);
    expect(results.filter((r) => r === 'INSUFFICIENT_STOCK')).toHaveLength(25);
    expect((await avail(a)).reserved).toBe(15);
    expect((await avail(b)).reserved).toBe(15);
    // Permanent decrements of both, in opposite orders.
    const decs = await Promise.all(Array.from({ length: 30 }, (_, i) => {
      const lines: StockChange[] = [{ ...b, decrement: 2 }, { ...a, decrement: 1 }];
      return outcome(adjust(ctx, i % 2 === 0 ? lines : lines.reverse()));
    }));
    // A has nothing available (15 on hand, 15 reserved): every decrement fails and B is untouched.
    expect(decs).toEqual(Array(30).fill('INSUFFICIENT_STOCK'));
    expect(await avail(b)).toMatchObject({ quantity: 100, reserved: 15, available: 85 });
    const bOnly = await Promise.all(Array.from({ length: 30 }, () => outcome(adjust(ctx, [{ ...b, decrement: 3 }]))));
    expect(bOnly.filter((r) => r === 'OK')).toHaveLength(28);
    expect(await avail(b)).toMatchObject({ quantity: 16, reserved: 15, available: 1 });
  });
});

describe('reserve, commit, release, expiry', () => {
  it('holds, gives back and commits exact quantities; a committed reservation cannot be released', async () => {
    const ref = await v1('Exact Mug', { trackInventory: true, quantity: 10 });
    const r1 = rid('exact');
    const r2 = rid('exact');
    const held = await reserve(ctx, [{ item: ref, quantity: 2 }, { item: ref, quantity: 1 }], { reservationId: r1, owner: 'cart-1' });
    expect(held.lines).toEqual([expect.objectContaining({ ...ref, quantity: 3 })]);
    await reserve(ctx, [{ item: ref, quantity: 4 }], { reservationId: r2 });
    expect(await avail(ref)).toMatchObject({ quantity: 10, reserved: 7, available: 3, inStock: true });
    expect(await outcome(reserve(ctx, [{ item: ref, quantity: 4 }], { reservationId: rid('exact') }))).toBe('INSUFFICIENT_STOCK');
    expect(await outcome(reserve(ctx, [{ item: ref, quantity: 1 }], { reservationId: r1 }))).toBe('RESERVATION_EXISTS');
    // An owner decrement cannot take held units either.
    expect(await outcome(adjust(ctx, [{ ...ref, decrement: 4 }]))).toBe('INSUFFICIENT_STOCK');
    await release(ctx, r2);
    await release(ctx, r2); // twice: nothing changes
    expect(await avail(ref)).toMatchObject({ quantity: 10, reserved: 3, available: 7 });
    const changed = await commit(ctx, r1);
    expect(changed.map((r) => r.quantity)).toEqual([7]);
    expect(await avail(ref)).toMatchObject({ quantity: 7, reserved: 0, available: 7 });
    expect(await commit(ctx, r1)).toEqual([]); // a retried commit changes nothing
    expect(await avail(ref)).toMatchObject({ quantity: 7 });
    expect(await outcome(release(ctx, r1))).toBe('RESERVATION_COMMITTED');
    expect(await outcome(commit(ctx, r2))).toBe('RESERVATION_RELEASED');
    expect(await outcome(commit(ctx, 'no-such-reservation'))).toBe('RESERVATION_NOT_FOUND');
    expect((await getReservation(ctx, r1)).map((l) => [l.status, l.quantity, l.owner])).toEqual([['committed', 3, 'cart-1']]);
  });

  it('expired reservations stop counting without a sweeper, cannot be committed, and are pruned', async () => {
    const ref = await v1('Fleeting Tee', { trackInventory: true, quantity: 5 });
    const r = rid('exp');
    await reserve(ctx, [{ item: ref, quantity: 5 }], { reservationId: r, expiresAt: new Date(Date.now() + 400) });
    expect(await avail(ref)).toMatchObject({ reserved: 5, available: 0 });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await avail(ref)).toMatchObject({ quantity: 5, reserved: 0, available: 5 });
    const other = rid('exp');
    await reserve(ctx, [{ item: ref, quantity: 5 }], { reservationId: other });
    expect(await outcome(commit(ctx, r))).toBe('RESERVATION_EXPIRED');
    expect(await avail(ref)).toMatchObject({ quantity: 5, reserved: 5 });
    expect(await pruneReservations(ctx)).toBeGreaterThanOrEqual(1);
    expect(await outcome(getReservation(ctx, r))).toBe('RESERVATION_NOT_FOUND');
    expect((await getReservation(ctx, other))[0]!.status).toBe('active');
  });

  it('committing updates the storefront documents (stock listener); reserving alone does not', async () => {
    const ref = await v1('Listener Lamp', { trackInventory: true, quantity: 1 });
    const r = rid('doc');
    await reserve(ctx, [{ item: ref, quantity: 1 }], { reservationId: r });
    const stockOf = async () => (await call(t.url, `/stores-reader/v1/products/${ref.productId}`, { auth: visitor })).body.product.stock;
    expect(await stockOf()).toEqual({ trackInventory: true, quantity: 1, inStock: true, inventoryStatus: 'IN_STOCK' });
    await commit(ctx, r);
    expect(await stockOf()).toEqual({ trackInventory: true, quantity: 0, inStock: false, inventoryStatus: 'OUT_OF_STOCK' });
  });
});

describe('preorder, untracked items, locations, bad input', () => {
  it('a preorder-enabled variant goes below zero down to minus its limit, never further', async () => {
    const ref = await v1('Preorder Vase', { trackInventory: true, quantity: 0 });
    const patch = await call(t.url, `/stores/v2/inventoryItems/product/${ref.productId}`, { method: 'PATCH', ...owner(), body: { inventoryItem: { trackQuantity: true, variants: [{ variantId: ref.variantId, quantity: 1 }], preorderInfo: { enabled: true, limit: 4 } } } });
    expect(patch.status).toBe(200);
    const results = await Promise.all(Array.from({ length: 12 }, () => outcome(reserve(ctx, [{ item: ref, quantity: 1 }], { reservationId: rid('pre') }))));
    // 1 on hand + 4 below zero.
    expect(results.filter((r) => r === 'OK')).toHaveLength(5);
    expect(await avail(ref)).toMatchObject({ quantity: 1, reserved: 5, available: -4, inStock: false, preorder: { enabled: true, limit: 4, remaining: 0, available: false } });
    expect(await outcome(adjust(ctx, [{ ...ref, decrement: 1 }]))).toBe('INSUFFICIENT_STOCK');
  });

  it('untracked items reserve while in stock; V3 items at other locations reserve their own stock', async () => {
    const loose = await v1('Loose Tea', { trackInventory: false, inStock: true });
    expect(await outcome(reserve(ctx, [{ item: loose, quantity: 500 }], { reservationId: rid('loose') }))).toBe('OK');
    expect(await avail(loose)).toMatchObject({ trackQuantity: false, available: null, inStock: true });
    await adjust(ctx, [{ ...loose, set: { inStock: false } }]);
    expect(await outcome(reserve(ctx, [{ item: loose, quantity: 1 }], { reservationId: rid('loose') }))).toBe('INSUFFICIENT_STOCK');

    const shirt = await v3('Located Shirt', 0);
    const created = await call(t.url, '/stores/v3/inventory-items', { ...owner(), body: { inventoryItem: { ...shirt, locationId: LOC1, quantity: 2 } } });
    expect(created.status).toBe(200);
    const atLoc1 = { ...shirt, locationId: LOC1 };
    expect(await outcome(reserve(ctx, [{ item: shirt, quantity: 1 }], { reservationId: rid('loc') }))).toBe('INSUFFICIENT_STOCK');
    const r = rid('loc');
    await reserve(ctx, [{ item: atLoc1, quantity: 2 }], { reservationId: r });
    expect(await outcome(reserve(ctx, [{ item: atLoc1, quantity: 1 }], { reservationId: rid('loc') }))).toBe('INSUFFICIENT_STOCK');
    await commit(ctx, r);
    expect((await call(t.url, `/stores/v3/inventory-items/${created.body.inventoryItem.id}`, owner())).body.inventoryItem.quantity).toBe(0);
  });

  it('refuses bad input with validation errors and unknown items with 404, changing nothing', async () => {
    const ref = await v1('Strict Cup', { trackInventory: true, quantity: 3 });
    expect(await outcome(reserve(ctx, [{ item: ref, quantity: 0 }], { reservationId: rid('bad') }))).toBe('VALIDATION_ERROR');
    expect(await outcome(reserve(ctx, [], { reservationId: rid('bad') }))).toBe('VALIDATION_ERROR');
    expect(await outcome(reserve(ctx, [{ item: ref, quantity: 1 }], { reservationId: '' }))).toBe('VALIDATION_ERROR');
    expect(await outcome(reserve(ctx, [{ item: ref, quantity: 1 }], { reservationId: rid('bad'), expiresAt: new Date(Date.now() - 1) }))).toBe('VALIDATION_ERROR');
    expect(await outcome(reserve(ctx, [{ item: ref, quantity: 1 }, { item: { ...ref, variantId: 'nope' }, quantity: 1 }], { reservationId: rid('bad') }))).toBe('VARIANT_NOT_FOUND');
    expect(await outcome(adjust(ctx, [{ ...ref, decrement: 1.5 }]))).toBe('VALIDATION_ERROR');
    expect(await avail(ref)).toMatchObject({ quantity: 3, reserved: 0 });
  });
});
