import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { ApiKeyStrategy, createClient, OAuthStrategy, VitrineError } from '../src/index.js';
import { inventory, productsV3 } from '../src/modules/stores/index.js';

/** `@vitrine/sdk/stores` inventory V3 calls (inventoryItemsV3 names) over real HTTP. */
let t: TestServer;
const modules = { inventory, productsV3 };
const admin = () => createClient({ modules, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url });
const visitor = () => createClient({ modules, auth: OAuthStrategy({ clientId: t.clientId }), host: t.url });
const LOC = '77777777-7777-4777-8777-777777777777';

beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

describe('inventory items V3', () => {
  it('creates, upserts, searches, changes by variant and location, runs a by-filter job and deletes', async () => {
    const a = admin();
    const p = await a.productsV3.createProduct({ name: 'Sdk Inventory Pot', productType: 'PHYSICAL', variantsInfo: { variants: [{ price: { actualPrice: { amount: '8' } }, inventoryItem: { quantity: 1 } }] } });
    const variantId = p.variantsInfo.variants[0]!._id;
    const item = await a.inventory.createInventoryItem({ productId: p._id, variantId, locationId: LOC, quantity: 4 });
    expect(item).toMatchObject({ locationId: LOC, quantity: 4, availabilityStatus: 'IN_STOCK' });
    expect(item._createdDate).toBeInstanceOf(Date);

    const up = await a.inventory.bulkUpsertInventoryItems([{ inventoryItem: { _id: item._id, revision: item.revision, quantity: 6 } }], { returnEntity: true });
    expect(up.results[0]!.item).toMatchObject({ _id: item._id, quantity: 6, revision: '2' });

    const found = await visitor().inventory.searchInventoryItems({ filter: { productId: p._id }, sort: [{ fieldName: 'quantity', order: 'DESC' }] });
    expect(found.inventoryItems.map((i) => [i.locationId, i.quantity])).toEqual([[LOC, 6], [inventory.DEFAULT_LOCATION_ID, 1]]);

    const dec = await a.inventory.bulkDecrementInventoryItemsByVariantAndLocation([{ variantId, locationId: LOC, decrementBy: 7 }]);
    expect(dec.results[0]!.itemMetadata.error?.code).toBe('INSUFFICIENT_INVENTORY');
    const inc = await a.inventory.bulkIncrementInventoryItemsByVariantAndLocation([{ variantId, locationId: LOC, incrementBy: 1 }], { returnEntity: true });
    expect(inc.results[0]!.item?.quantity).toBe(7);

    const { jobId } = await a.inventory.bulkAdjustInventoryItemsByFilter({ productId: p._id, locationId: LOC }, { adjustment: { decrementBy: 2 } });
    expect(jobId).toEqual(expect.any(String));
    await t.server.jobs.whenIdle();
    expect((await a.inventory.getInventoryItem(item._id)).quantity).toBe(5);
    expect(await a.inventory.countInventoryItems({ filter: { productId: p._id } })).toBe(2);

    await a.inventory.deleteInventoryItem(item._id);
    const refused = await a.inventory.deleteInventoryItem(found.inventoryItems[1]!._id).then(() => undefined, (e: unknown) => e);
    expect(refused).toBeInstanceOf(VitrineError);
    expect((refused as VitrineError).code).toBe('DEFAULT_LOCATION_ITEM');
    const denied = await visitor().inventory.createInventoryItem({ productId: p._id, variantId, locationId: LOC, quantity: 1 }).then(() => undefined, (e: unknown) => e);
    expect((denied as VitrineError).status).toBe(403);
  });
});
