import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { ApiKeyStrategy, createClient, OAuthStrategy, VitrineError } from '../src/index.js';
import { collections, inventory, products, productsV3 } from '../src/modules/stores/index.js';

/** The catalog modules beyond V1 reads: V1 writes, collections, inventory, productsV3, over real HTTP. */
let t: TestServer;
const modules = { products, collections, inventory, productsV3 };
const admin = () => createClient({ modules, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url });
const visitor = () => createClient({ modules, auth: OAuthStrategy({ clientId: t.clientId }), host: t.url });

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe('products (V1 writes)', () => {
  it('creates, updates, adjusts in bulk, edits variants and stock, deletes', async () => {
    const a = admin();
    const { product } = await a.products.createProduct({ name: 'Sdk Kettle', priceData: { price: 50 }, productOptions: [{ name: 'Color', optionType: 'color', choices: [{ value: '#000000', description: 'Black' }, { value: '#ffffff', description: 'White' }] }], stock: { trackInventory: true, quantity: 4 } });
    expect(product._createdDate).toBeInstanceOf(Date);
    const upd = await a.products.updateProduct(product._id, { ribbon: 'Hot' });
    expect(upd.product.ribbon).toBe('Hot');
    const bulk = await a.products.bulkAdjustProductProperty({ price: { percentage: { rate: -10 } } }, [product._id]);
    expect(bulk.bulkActionMetadata.totalSuccesses).toBe(1);
    const v = await a.products.updateProductVariants(product._id, [{ choices: { Color: 'White' }, price: 60 }]);
    expect(v.variants.map((x) => x.variant.priceData.price).sort()).toEqual([45, 60]);
    const avail = await visitor().products.getProductOptionsAvailability(product._id, { Color: 'White' });
    expect(avail.selectedVariant?.price.price).toBe(60);
    const white = v.variants.find((x) => x.choices.Color === '#ffffff')!;
    await a.inventory.decrementInventory([{ productId: product._id, variantId: white._id, decrementBy: 4 }]);
    const inv = await a.inventory.getInventoryVariants(product._id, { productId: product._id });
    expect(inv.inventoryItem.variants.find((x) => x.variantId === white._id)).toMatchObject({ quantity: 0, inStock: false });
    const short = await a.inventory.decrementInventory([{ productId: product._id, variantId: white._id, decrementBy: 1 }]).then(() => undefined, (e: unknown) => e);
    expect(short).toBeInstanceOf(VitrineError);
    expect((short as VitrineError).code).toBe('INSUFFICIENT_STOCK');
    const got = await a.products.getProduct(product._id, { includeMerchantSpecificData: true });
    expect(got.product.stock.inventoryStatus).toBe('PARTIALLY_OUT_OF_STOCK');
    const sv = await visitor().products.getStoreVariant(`${product._id}-${white._id}`);
    expect(sv.variant).toMatchObject({ _id: `${product._id}-${white._id}`, productName: 'Sdk Kettle' });
    await a.products.deleteProduct(product._id);
    const gone = await a.products.getProduct(product._id).then(() => undefined, (e: unknown) => e);
    expect((gone as VitrineError).code).toBe('PRODUCT_NOT_FOUND');
  });

  it('manages collections and reads them through the collections module', async () => {
    const a = admin();
    const { collection } = await a.products.createCollection({ name: 'Sdk Picks' });
    const list = await visitor().products.queryProducts().limit(2).find();
    await a.products.addProductsToCollection(collection._id, list.items.map((p) => p._id));
    const got = await visitor().collections.getCollection(collection._id);
    expect(got).toMatchObject({ name: 'Sdk Picks', slug: 'sdk-picks', numberOfProducts: 2 });
    const bySlug = await visitor().collections.getCollectionBySlug('sdk-picks');
    expect(bySlug.collection._id).toBe(collection._id);
    const page = await visitor().collections.queryCollections().eq('slug', 'sdk-picks').find();
    expect(page.items.map((c) => c._id)).toEqual([collection._id]);
    await a.products.deleteCollection(collection._id);
    expect(((await visitor().collections.getCollection(collection._id).then(() => undefined, (e: unknown) => e)) as VitrineError).code).toBe('COLLECTION_NOT_FOUND');
  });
});

describe('productsV3', () => {
  it('creates, pages with cursors, searches and updates with revisions', async () => {
    const a = admin();
    for (const [name, price] of [['Sdk Alpha', '5'], ['Sdk Beta', '15'], ['Sdk Gamma', '25']] as const) {
      const p = await a.productsV3.createProduct({ name, productType: 'DIGITAL', brand: { name: 'SdkBrand' }, variantsInfo: { variants: [{ price: { actualPrice: { amount: price } } }] } });
      expect(p._createdDate).toBeInstanceOf(Date);
    }
    const first = await visitor().productsV3.queryProducts().ascending('slug').limit(2).find();
    expect(first.items.map((p) => p.name)).toEqual(['Sdk Alpha', 'Sdk Beta']);
    const second = await first.next();
    expect(second.items.map((p) => p.name)).toEqual(['Sdk Gamma']);
    const s = await visitor().productsV3.searchProducts({ search: { expression: 'gamma' }, aggregations: [{ name: 'b', fieldPath: 'brand.name' }] });
    expect(s.products.map((p) => p.name)).toEqual(['Sdk Gamma']);
    expect(s.aggregationData.results).toEqual([{ name: 'b', type: 'VALUE', fieldPath: 'brand.name', values: { results: [{ value: 'SdkBrand', count: 1 }] } }]);
    const count = await visitor().productsV3.countProducts({ filter: { 'actualPriceRange.minValue.amount': { $gt: '10' } } });
    expect(count.count).toBe(2);
    const alpha = first.items[0]!;
    const upd = await a.productsV3.updateProduct(alpha._id, { revision: alpha.revision, name: 'Sdk Alpha Two' });
    expect(upd).toMatchObject({ name: 'Sdk Alpha Two', revision: '2' });
    const stale = await a.productsV3.updateProduct(alpha._id, { revision: alpha.revision, name: 'Nope' }).then(() => undefined, (e: unknown) => e);
    expect((stale as VitrineError).code).toBe('REVISION_MISMATCH');
  });
});
