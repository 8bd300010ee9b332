/**
 * The platform's public client (`@wix/sdk` + `@wix/stores` productsV3), unchanged, calling our V3
 * bulk routes: a per-id bulk call and a by-filter job.
 */
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { productsV3 } from '@wix/stores';
import { call } from './harness.js';
import { usePublicClientServer } from './public-client.js';

const f = usePublicClientServer();
const admin = () => createClient({ modules: { productsV3 }, auth: ApiKeyStrategy({ apiKey: f.t.apiKey, siteId: f.t.site.id }) });

async function make(name: string, brand: string) {
  const p = await admin().productsV3.createProduct({
    name, productType: productsV3.ProductType.DIGITAL, brand: { name: brand }, variantsInfo: { variants: [{ price: { actualPrice: { amount: '8' } } }] },
  });
  return { id: p._id!, revision: p.revision! };
}

describe('@wix/stores productsV3 bulk calls', () => {
  it('bulkUpdateProductTags and bulkAddInfoSectionsToProducts answer per-item results', async () => {
    const a = await make('Pc Bulk A', 'pc-bulk');
    const b = await make('Pc Bulk B', 'pc-bulk');
    const tags = await admin().productsV3.bulkUpdateProductTags([a.id, b.id], { assignTags: { publicTags: { tagIds: ['pc'] } } });
    expect(tags.bulkActionMetadata).toMatchObject({ totalSuccesses: 2, totalFailures: 0 });
    expect(tags.results!.map((r) => [r.itemMetadata?._id, r.itemMetadata?.success])).toEqual([[a.id, true], [b.id, true]]);

    const section = await call(f.t.url, '/stores/v3/info-sections', { auth: f.t.apiKey, siteId: f.t.site.id, body: { infoSection: { uniqueName: 'pc-bulk-sec', title: 'PC' } } });
    const added = await admin().productsV3.bulkAddInfoSectionsToProducts([{ productId: a.id, revision: '2' }], { infoSectionIds: [section.body.infoSection.id], returnEntity: true });
    expect(added.results![0]?.itemMetadata).toMatchObject({ _id: a.id, success: true });
    expect(added.results![0]?.item?.infoSections?.map((s) => s.uniqueName)).toEqual(['pc-bulk-sec']);
    expect(added.results![0]?.item?.revision).toBe('3');
  });

  it('bulkUpdateProductsByFilter starts a job that changes the matching products only', async () => {
    const hit = await make('Pc Filter Hit', 'pc-filter-in');
    const miss = await make('Pc Filter Miss', 'pc-filter-out');
    const res = await admin().productsV3.bulkUpdateProductsByFilter({ filter: { 'brand.name': 'pc-filter-in' }, product: { visible: false } as productsV3.V3Product });
    expect(res.jobId).toMatch(/^[0-9a-f-]{36}$/);
    await f.t.server.jobs.whenIdle();
    const job = await call(f.t.url, `/stores/v3/bulk/jobs/${res.jobId}`, { auth: f.t.apiKey, siteId: f.t.site.id });
    expect(job.body.job).toMatchObject({ status: 'FINISHED', total: 1, succeeded: 1, failed: 0 });
    expect((await admin().productsV3.getProduct(hit.id)).visible).toBe(false);
    const untouched = await admin().productsV3.getProduct(miss.id);
    expect(untouched).toMatchObject({ visible: true, revision: miss.revision });

    const deleted = await admin().productsV3.bulkDeleteProductsByFilter({ 'brand.name': 'pc-filter-in' });
    await f.t.server.jobs.whenIdle();
    expect((await call(f.t.url, `/stores/v3/bulk/jobs/${deleted.jobId}`, { auth: f.t.apiKey, siteId: f.t.site.id })).body.job).toMatchObject({ total: 1, succeeded: 1 });
  });
});
