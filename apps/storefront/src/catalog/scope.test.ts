import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@vitrine/sdk';
import { products } from '@vitrine/sdk/stores';
import { productListQuery } from '@vitrine/react';
import { startTestServer, type TestServer } from '../../../../packages/server/test/harness.js';
import { browse, parseBrowse } from './browse';
import { SCOPE_LIMIT, SCOPE_MAX, scopeOptions } from './queries';

/** More products of one brand than one page of the catalog holds. */
const EXTRA = SCOPE_LIMIT + 30;
const BRAND = 'Scope Test Co';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  const owner = createClient({ modules: { products }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url });
  for (let i = 0; i < EXTRA; i++) {
    await owner.products.createProduct({ name: `Scope item ${i}`, brand: BRAND, priceData: { price: 10 + (i % 3) }, productType: 'physical' });
  }
}, 120_000);
afterAll(() => t?.close());

describe('the catalog scope covers the whole result set', () => {
  it('reads every page up to SCOPE_MAX, and the brand facet counts all of them', async () => {
    const client = createClient({ auth: OAuthStrategy({ clientId: t.clientId }), host: t.url });
    const scope = await productListQuery(client, scopeOptions()).queryFn();
    expect(scope.totalCount).toBeGreaterThan(SCOPE_LIMIT);
    expect(scope.totalCount).toBeLessThanOrEqual(SCOPE_MAX);
    expect(scope.items).toHaveLength(scope.totalCount!);
    expect(new Set(scope.items.map((p) => p._id)).size).toBe(scope.totalCount);

    const result = browse(scope.items, [], parseBrowse(new URLSearchParams()), { collectionFacet: false });
    const brand = result.facets.find((f) => f.key.kind === 'brand');
    expect(brand?.values.find((v) => v.value === BRAND)?.count).toBe(EXTRA);
    expect(result.total).toBe(scope.totalCount);

    const filtered = browse(scope.items, [], parseBrowse(new URLSearchParams({ brand: BRAND })), { collectionFacet: false });
    expect(filtered.total).toBe(EXTRA);
  });

  it('stops at its bound (upTo) even when more products match', async () => {
    const client = createClient({ auth: OAuthStrategy({ clientId: t.clientId }), host: t.url });
    const bounded = await productListQuery(client, { limit: SCOPE_LIMIT, upTo: SCOPE_LIMIT + 5 }).queryFn();
    expect(bounded.items).toHaveLength(SCOPE_LIMIT + 5);
  });
});
