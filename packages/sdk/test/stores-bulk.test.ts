import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { ApiKeyStrategy, createClient } from '../src/index.js';
import { productsV3 } from '../src/modules/stores/index.js';

/** Our productsV3 bulk calls and the getBulkJob extension over real HTTP. */
let t: TestServer;
const admin = () => createClient({ modules: { productsV3 }, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url });

beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

describe('productsV3 bulk', () => {
  it('tags by id, adjusts prices by filter, and follows the job with getBulkJob', async () => {
    const a = admin();
    const mk = (name: string, amount: string) => a.productsV3.createProduct({ name, productType: 'DIGITAL', brand: { name: 'sdk-bulk' }, variantsInfo: { variants: [{ price: { actualPrice: { amount } } }] } });
    const cheap = await mk('Sdk Bulk Cheap', '3');
    const dear = await mk('Sdk Bulk Dear', '30');
    const tags = await a.productsV3.bulkUpdateProductTags([cheap._id, dear._id], { assignTags: { publicTags: { tagIds: ['sdk'] } } });
    expect(tags.results.map((r) => [r.itemMetadata._id, r.itemMetadata.success])).toEqual([[cheap._id, true], [dear._id, true]]);

    const { jobId } = await a.productsV3.bulkAdjustProductVariantsByFilter({ 'brand.name': 'sdk-bulk' }, { actualPrice: { amount: '-5' } });
    await t.server.jobs.whenIdle();
    const job = await a.productsV3.getBulkJob(jobId);
    expect(job).toMatchObject({ _id: jobId, type: 'PRODUCTS_ADJUST_VARIANTS', status: 'FINISHED', total: 2, succeeded: 1, failed: 1 });
    expect(job.errors).toEqual([{ itemId: cheap._id, code: 'INVALID_VALUE', description: expect.any(String) }]);
    expect(job._createdDate).toBeInstanceOf(Date);
    expect((await a.productsV3.getProduct(dear._id)).variantsInfo.variants[0]!.price.actualPrice.amount).toBe('25');
  });
});
