/**
 * The platform's public client (`@wix/sdk` + `@wix/stores`) against our catalog, unchanged: its two
 * hosts are routed to the test server by a fetch wrapper (docs/api.md, last section).
 */
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { collections, inventory, products, productsV3 } from '@wix/stores';
import { usePublicClientServer } from './public-client.js';

const f = usePublicClientServer();

const admin = () => createClient({ modules: { products, collections, productsV3, inventory }, auth: ApiKeyStrategy({ apiKey: f.t.apiKey, siteId: f.t.site.id }) });
const visitor = () => createClient({ modules: { products, collections, productsV3 }, auth: OAuthStrategy({ clientId: 'demo' }) });

describe('@wix/stores products (V1) and collections', () => {
  it('creates, updates, changes variants and deletes through the public client', async () => {
    const wix = admin();
    const created = await wix.products.createProduct({
      name: 'Public Client Mug', productType: products.ProductType.physical, priceData: { price: 14 }, sku: 'PCM-1',
      productOptions: [{ name: 'Size', optionType: products.OptionType.drop_down, choices: [{ value: 'S', description: 'S' }, { value: 'L', description: 'L' }] }],
    });
    expect(created.product).toMatchObject({ name: 'Public Client Mug', slug: 'public-client-mug', priceData: { price: 14 } });
    expect(created.product?._createdDate).toBeInstanceOf(Date);
    const id = created.product!._id!;
    const updated = await wix.products.updateProduct(id, { priceData: { price: 16 }, ribbon: 'Fresh' });
    expect(updated.product).toMatchObject({ ribbon: 'Fresh', priceData: { price: 16 } });
    const variants = await wix.products.updateProductVariants(id, [{ choices: { Size: 'L' }, price: 19 }]);
    expect(variants.variants?.map((v) => v.variant?.priceData?.price).sort()).toEqual([16, 19]);
    const avail = await visitor().products.getProductOptionsAvailability(id, { Size: 'L' });
    expect(avail.selectedVariant?.price?.price).toBe(19);
    expect(avail.availableForPurchase).toBe(true);
    const found = await visitor().products.queryProducts().eq('sku', 'PCM-1').find();
    expect(found.items.map((p) => p._id)).toEqual([id]);
    await wix.products.deleteProduct(id);
    const gone: unknown = await wix.products.getProduct(id).then(() => undefined, (e: unknown) => e);
    expect((gone as { details?: { applicationError?: { code?: string } } }).details?.applicationError?.code).toBe('PRODUCT_NOT_FOUND');
  });

  it('queries and gets collections by slug (the /v2/collections paths)', async () => {
    const wix = visitor();
    const page = await wix.collections.queryCollections().limit(3).find();
    expect(page.items[0]).toMatchObject({ _id: '00000000-000000-000000-000000000001', slug: 'all-products' });
    expect(page.items).toHaveLength(3);
    const { collection } = await wix.collections.getCollectionBySlug('tea');
    expect(collection).toMatchObject({ name: 'Tea', slug: 'tea', numberOfProducts: 6 });
    const byId = await wix.collections.getCollection(collection!._id!);
    expect(byId.name).toBe('Tea');
  });

  it('reads V1 inventory', async () => {
    const wix = admin();
    const res = await wix.inventory.queryInventory({ query: { paging: { limit: 2 } } });
    expect(res.inventoryItems).toHaveLength(2);
    expect(res.inventoryItems?.[0]?.variants?.length).toBeGreaterThan(0);
  });
});

describe('@wix/stores productsV3', () => {
  it('creates, queries with paging and updates with revisions', async () => {
    const wix = admin();
    for (const n of [1, 2, 3]) {
      const res = await wix.productsV3.createProduct({
        name: `V3 Client Item ${n}`, productType: productsV3.ProductType.DIGITAL,
        variantsInfo: { variants: [{ price: { actualPrice: { amount: String(10 * n) } } }] },
      });
      expect(res.name).toBe(`V3 Client Item ${n}`);
      expect(res.revision).toBe('1');
    }
    const first = await visitor().productsV3.queryProducts().ascending('slug').limit(2).find();
    expect(first.items.map((p) => p.name)).toEqual(['V3 Client Item 1', 'V3 Client Item 2']);
    expect(first.hasNext()).toBe(true);
    const second = await first.next();
    expect(second.items.map((p) => p.name)).toEqual(['V3 Client Item 3']);
    expect(second.hasNext()).toBe(false);
    const target = first.items[0]!;
    const updated = await wix.productsV3.updateProduct(target._id!, { revision: target.revision!, name: 'V3 Client Item One' });
    expect(updated).toMatchObject({ name: 'V3 Client Item One', revision: '2' });
    expect(updated._updatedDate).toBeInstanceOf(Date);
  });
});
