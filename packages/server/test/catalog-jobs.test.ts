import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { serviceContext } from './member-tokens.js';
import { createLogger, createServer } from '../src/server.js';
import { createApiKey } from '../src/domains/identity/service.js';
import { createSite } from '../src/domains/sites/service.js';
import { ApplicationError } from '../src/http/errors.js';
import { inTransaction } from '../src/storage/transaction.js';
import { claimedByADeadProcess } from './jobs-support.js';
import {
  CATALOG_JOB_ITEMS_MAX, catalogBulkJob, registerCatalogJobKind, startCatalogJob,
} from '../src/domains/catalog/jobs.js';
import { insertCatalogJob, settleCatalogJobItem } from '../src/domains/catalog/store-jobs.js';
import { getProductV3, updateProductV3 } from '../src/domains/catalog/v3/service.js';

/** The generic catalog job module: start, worker, counters, errors, status route, transactions, resume. */
let t: TestServer;
const P = '/stores/v3';
const owner = () => asOwner(t);

/** Test kind: renames a V3 product to `<name> <suffix>`; a product named "Refuse..." is refused after writing. */
registerCatalogJobKind<{ suffix: string }>('TEST_RENAME', {
  async runItem(ctx, itemId, params) {
    const product = await getProductV3(ctx, { id: itemId });
    await updateProductV3(ctx, itemId, { revision: product.revision, name: `${product.name} ${params.suffix}` });
    if (product.name.startsWith('Refuse')) throw new ApplicationError(409, 'TEST_REFUSED', `refused ${product.name}`);
  },
});

beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

async function product(name: string): Promise<{ id: string; revision: string; name: string }> {
  const res = await call(t.url, `${P}/products`, { ...owner(), body: { product: { name, productType: 'DIGITAL', variantsInfo: { variants: [{ price: { actualPrice: { amount: '5' } } }] } } } });
  if (res.status !== 200) throw new Error(`create failed ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.product;
}
const nameOf = async (id: string) => (await call(t.url, `${P}/products/${id}`, owner())).body.product.name as string;
const jobRows = async () => Number((await t.server.deps.storage.db.selectFrom('catalog_jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);

describe('catalog jobs', () => {
  it('runs every item after commit, counts them, and reports the job on the status route', async () => {
    const items = [await product('Alpha'), await product('Beta'), await product('Gamma')];
    const { jobId } = await startCatalogJob(serviceContext(t), 'TEST_RENAME', items.map((p) => p.id), { suffix: 'X' });
    await t.server.jobs.whenIdle();
    const res = await call(t.url, `${P}/bulk/jobs/${jobId}`, owner());
    expect(res.status).toBe(200);
    expect(res.body.job).toMatchObject({ id: jobId, type: 'TEST_RENAME', status: 'FINISHED', total: 3, processed: 3, succeeded: 3, failed: 0, errors: [] });
    expect(res.body.job.finishedDate).toEqual(expect.any(String));
    expect(res.body.job.createdDate).toEqual(expect.any(String));
    expect(await Promise.all(items.map((p) => nameOf(p.id)))).toEqual(['Alpha X', 'Beta X', 'Gamma X']);
  });

  it('counts a refused item with its code, rolls back its writes, and finishes the others', async () => {
    const ok = await product('Fine');
    const bad = await product('Refuse me');
    const { jobId } = await startCatalogJob(serviceContext(t), 'TEST_RENAME', [bad.id, ok.id, ok.id], { suffix: 'Y' });
    await t.server.jobs.whenIdle();
    const job = (await call(t.url, `${P}/bulk/jobs/${jobId}`, owner())).body.job;
    // The duplicate id is one item.
    expect(job).toMatchObject({ status: 'FINISHED', total: 2, processed: 2, succeeded: 1, failed: 1, errors: [{ itemId: bad.id, code: 'TEST_REFUSED', description: 'refused Refuse me' }] });
    expect(await nameOf(bad.id)).toBe('Refuse me');
    expect((await call(t.url, `${P}/products/${bad.id}`, owner())).body.product.revision).toBe(bad.revision);
    expect(await nameOf(ok.id)).toBe('Fine Y');
  });

  it('started inside a caller transaction, commits with it; a rolled-back start leaves no job', async () => {
    const p = await product('Inside');
    const ctx = serviceContext(t);
    const { jobId } = await inTransaction(ctx.db, (trx) => startCatalogJob({ ...ctx, db: trx }, 'TEST_RENAME', [p.id], { suffix: 'Z' }));
    await t.server.jobs.whenIdle();
    expect((await call(t.url, `${P}/bulk/jobs/${jobId}`, owner())).body.job).toMatchObject({ status: 'FINISHED', succeeded: 1 });
    expect(await nameOf(p.id)).toBe('Inside Z');

    const before = await jobRows();
    let rolledBack = '';
    await expect(inTransaction(ctx.db, async (trx) => {
      rolledBack = (await startCatalogJob({ ...ctx, db: trx }, 'TEST_RENAME', [p.id], { suffix: 'W' })).jobId;
      throw new Error('caller gives up');
    })).rejects.toThrow('caller gives up');
    const started = Date.now();
    await t.server.jobs.whenIdle();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await jobRows()).toBe(before);
    expect((await call(t.url, `${P}/bulk/jobs/${rolledBack}`, owner())).status).toBe(404);
    expect(await nameOf(p.id)).toBe('Inside Z');
  });

  it('refuses more than CATALOG_JOB_ITEMS_MAX items and non-elevated callers, starting nothing', async () => {
    const before = await jobRows();
    const ids = Array.from({ length: CATALOG_JOB_ITEMS_MAX + 1 }, () => randomUUID());
    const tooMany = await startCatalogJob(serviceContext(t), 'TEST_RENAME', ids, { suffix: 'N' }).catch((e: unknown) => e);
    expect(tooMany).toBeInstanceOf(ApplicationError);
    expect(tooMany).toMatchObject({ status: 400, code: 'TOO_MANY_ITEMS', data: { max: CATALOG_JOB_ITEMS_MAX, matched: CATALOG_JOB_ITEMS_MAX + 1 } });
    const visitor = await startCatalogJob({ ...serviceContext(t), caller: { kind: 'visitor', visitorId: 'v', clientId: 'c', familyId: 'f' } }, 'TEST_RENAME', [], { suffix: 'N' }).catch((e: unknown) => e);
    expect(visitor).toMatchObject({ status: 403, code: 'ELEVATED_REQUIRED' });
    expect(await jobRows()).toBe(before);
  });

  it('status route: 404 for unknown ids and for other sites\' jobs; visitors are refused', async () => {
    const p = await product('Mine');
    const { jobId } = await startCatalogJob(serviceContext(t), 'TEST_RENAME', [p.id], { suffix: 'M' });
    await t.server.jobs.whenIdle();
    const unknown = randomUUID();
    const res = await call(t.url, `${P}/bulk/jobs/${unknown}`, owner());
    expect(res.status).toBe(404);
    expect(res.body.details.applicationError).toEqual({ code: 'JOB_NOT_FOUND', description: `Job ${unknown} not found`, data: { jobId: unknown } });
    const db = t.server.deps.storage.db;
    const other = await createSite(db, { slug: `jobs-other-${Date.now()}`, name: 'Other' });
    const { apiKey } = await createApiKey(db, { siteId: other.id, name: 'other' });
    const foreign = await call(t.url, `${P}/bulk/jobs/${jobId}`, { auth: apiKey, siteId: other.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.details.applicationError.code).toBe('JOB_NOT_FOUND');
    const visitor = (await visitorTokens(t)).accessToken;
    const refused = await call(t.url, `${P}/bulk/jobs/${jobId}`, { auth: visitor, siteId: t.site.id });
    expect(refused.status).toBe(403);
  });

  it('a second server process resumes a job interrupted half-way', async () => {
    const items = [await product('R1'), await product('R2'), await product('R3')];
    const db = t.server.deps.storage.db;
    const jobId = randomUUID();
    // As if the first process committed the job, handled the first item, and died.
    await insertCatalogJob(db, { id: jobId, siteId: t.site.id, kind: 'TEST_RENAME', params: { actor: { kind: 'owner', apiKeyId: 'test' }, params: { suffix: 'R' } }, now: new Date().toISOString() }, items.map((p) => p.id));
    await settleCatalogJobItem(db, jobId, items[0]!.id, undefined);
    await db.updateTable('catalog_jobs').set({ status: 'PROCESSING', processed: 1, succeeded: 1 }).where('id', '=', jobId).execute();
    await claimedByADeadProcess(db, catalogBulkJob, { jobId, siteId: t.site.id });

    // Only the second server runs jobs from here on (two SQLite handles writing from one process would
    // wait on each other's locks while blocking the one event loop they share).
    await t.server.jobs.stop();
    const second = await createServer(t.config, createLogger('silent'));
    try {
      await second.jobs.whenIdle();
    } finally {
      await second.close();
    }
    const job = (await call(t.url, `${P}/bulk/jobs/${jobId}`, owner())).body.job;
    expect(job).toMatchObject({ status: 'FINISHED', total: 3, processed: 3, succeeded: 3, failed: 0 });
    expect(await Promise.all(items.map((p) => nameOf(p.id)))).toEqual(['R1', 'R2 R', 'R3 R']);
  });
});
