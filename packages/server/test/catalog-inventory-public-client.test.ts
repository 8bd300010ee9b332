/**
 * The platform's public client (`@wix/sdk` + `@wix/stores` inventoryItemsV3), unchanged, against our V3
 * inventory at several locations: its hosts are routed to the test server (test/public-client.ts).
 */
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { inventoryItemsV3, productsV3 } from '@wix/stores';
import { usePublicClientServer } from './public-client.js';

const f = usePublicClientServer();
const LOC = '66666666-6666-4666-8666-666666666666';
const admin = () => createClient({ modules: { inventoryItemsV3, productsV3 }, auth: ApiKeyStrategy({ apiKey: f.t.apiKey, siteId: f.t.site.id }) });
const visitor = () => createClient({ modules: { inventoryItemsV3 }, auth: OAuthStrategy({ clientId: 'demo' }) });

describe('@wix/stores inventoryItemsV3', () => {
  it('creates at a location, searches, decrements by variant and location, bulk-creates and deletes', async () => {
    const wix = admin();
    const product = await wix.productsV3.createProduct({
      name: 'Public Inventory Lamp', productType: productsV3.ProductType.PHYSICAL,
      variantsInfo: { variants: [{ sku: 'PIL-1', price: { actualPrice: { amount: '30' } } }] },
    });
    const productId = product._id!;
    const variantId = product.variantsInfo!.variants![0]!._id!;
    // Default-location stock of 2 (products are created untracked and in stock).
    const [defaultItem] = (await wix.inventoryItemsV3.queryInventoryItems().eq('productId', productId).find()).items;
    await wix.inventoryItemsV3.updateInventoryItem(defaultItem!._id!, { revision: defaultItem!.revision!, quantity: 2 });

    const created = await wix.inventoryItemsV3.createInventoryItem({ productId, variantId, locationId: LOC, quantity: 12 });
    expect(created).toMatchObject({ productId, variantId, locationId: LOC, quantity: 12, availabilityStatus: 'IN_STOCK', trackQuantity: true });
    expect(created._createdDate).toBeInstanceOf(Date);
    const got = await wix.inventoryItemsV3.getInventoryItem(created._id!);
    expect(got._id).toBe(created._id);

    const found = await visitor().inventoryItemsV3.searchInventoryItems({ filter: { productId, locationId: LOC }, aggregations: [{ name: 'status', type: 'VALUE', fieldPath: 'availabilityStatus' }] });
    expect(found.inventoryItems?.map((i) => i._id)).toEqual([created._id]);
    expect(found.aggregationData?.results?.[0]?.values?.results).toEqual([{ value: 'IN_STOCK', count: 1 }]);

    const dec = await wix.inventoryItemsV3.bulkDecrementInventoryItemsByVariantAndLocation(
      [{ variantId, locationId: LOC, decrementBy: 5 }, { variantId, locationId: LOC, decrementBy: 50 }], { returnEntity: true });
    expect(dec.results!.map((r) => r.itemMetadata?.success)).toEqual([true, false]);
    expect(dec.results![0]!.item?.quantity).toBe(7);
    expect(dec.results![1]!.itemMetadata?.error?.code).toBe('INSUFFICIENT_INVENTORY');
    expect(dec.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 });
    const inc = await wix.inventoryItemsV3.bulkIncrementInventoryItemsByVariantAndLocation([{ variantId, locationId: LOC, incrementBy: 3 }], { returnEntity: true });
    expect(inc.results![0]!.item?.quantity).toBe(10);

    const bulk = await wix.inventoryItemsV3.bulkCreateInventoryItems([{ productId, variantId, locationId: LOC, quantity: 1 }]);
    expect(bulk.results![0]!.itemMetadata?.error?.code).toBe('ITEM_ALREADY_EXISTS');

    // The default location still has 2: the storefront product is unchanged by the second location.
    const items = await wix.inventoryItemsV3.queryInventoryItems().eq('productId', productId).find();
    expect(items.items.map((i) => [i.locationId, i.quantity]).sort()).toEqual([['00000000-0000-0000-0000-000000000000', 2], [LOC, 10]]);

    await wix.inventoryItemsV3.deleteInventoryItem(created._id!);
    const gone: unknown = await wix.inventoryItemsV3.getInventoryItem(created._id!).then(() => undefined, (e: unknown) => e);
    expect((gone as { details?: { applicationError?: { code?: string } } }).details?.applicationError?.code).toBe('INVENTORY_ITEM_NOT_FOUND');
    const del = await wix.inventoryItemsV3.bulkDeleteInventoryItems([created._id!]);
    expect(del.results![0]!.itemMetadata?.error?.code).toBe('INVENTORY_ITEM_NOT_FOUND');
  });
});
