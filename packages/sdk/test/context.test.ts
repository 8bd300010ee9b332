import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { ApiKeyStrategy, clearContext, createClient, elevate, OAuthStrategy } from '../src/index.js';
import { products } from '../src/modules/stores/index.js';

const NO_CONTEXT = 'Wix context is not available. Make sure to initialize the Wix context before using SDK modules';
const NOT_ELEVATED = 'An elevated client is required to use elevated modules. Make sure to initialize the Wix context with an elevated client before using elevated SDK modules';

let t: TestServer;
let grinderId: string;
beforeAll(async () => {
  t = await startTestServer();
  const owner = createClient({ modules: { products }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url });
  grinderId = (await owner.products.queryProducts().eq('slug', 'hand-grinder').find()).items[0]!._id;
});
afterEach(() => clearContext());
afterAll(() => t?.close());

describe('global context', () => {
  it('direct module calls without a context throw the exact message', () => {
    expect(() => products.getProduct(grinderId)).toThrow(new Error(NO_CONTEXT));
    expect(() => products.queryProducts()).toThrow(new Error(NO_CONTEXT));
    expect(() => elevate(products.getProduct)(grinderId)).toThrow(new Error(NO_CONTEXT));
  });

  it('direct calls use the client enabled as global context', async () => {
    // Modules are not needed on the client for direct calls: the context only provides transport and auth.
    createClient({ auth: OAuthStrategy({ clientId: t.clientId }), host: t.url }).enableContext('global');
    const { product } = await products.getProduct(grinderId);
    expect(product.name).toBe('Hand Grinder');
    const page = await products.queryProducts().limit(3).find();
    expect(page.length).toBe(3);
  });

  it('elevate() refuses a visitor context and runs on an elevated one', async () => {
    createClient({ auth: OAuthStrategy({ clientId: t.clientId }), host: t.url }).enableContext('global');
    const createElevated = elevate(products.createProduct);
    expect(() => createElevated({ name: 'Nope', priceData: { price: 1 } })).toThrow(new Error(NOT_ELEVATED));

    createClient({ auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url }).enableContext('global', { elevated: true });
    const { product } = await elevate(products.getProduct)(grinderId, { includeMerchantSpecificData: true });
    expect(product.costAndProfitData).toMatchObject({ itemCost: 40, profit: 49 });
    // The plain direct call still uses the visitor client.
    expect((await products.getProduct(grinderId, { includeMerchantSpecificData: true })).product.costAndProfitData).toBeUndefined();
  });

  it('an API-key client enabled as the plain global client also serves elevate()', async () => {
    createClient({ auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url }).enableContext('global');
    const { product } = await elevate(products.getProduct)(grinderId, { includeMerchantSpecificData: true });
    expect(product.costAndProfitData?.itemCost).toBe(40);
  });

  it('elevate() takes only module functions', () => {
    expect(() => elevate((() => 1) as unknown as typeof products.getProduct)).toThrow(TypeError);
  });
});
