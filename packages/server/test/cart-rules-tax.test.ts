import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPricingSetup } from '../src/domains/cart/rules/index.js';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { eventsOf, memberWithToken, serviceContext } from './member-tokens.js';

/** Tax groups, tax regions (bulk, manual rates) and tax settings over HTTP. */

const STORES = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(async () => { await t.close(); });

const regionRows = () => t.server.deps.storage.db.selectFrom('tax_regions').select(['country', 'subdivision']).where('site_id', '=', t.site.id).orderBy('country').orderBy('subdivision').execute();
const rateRows = () => t.server.deps.storage.db.selectFrom('tax_manual_rates').select(['tax_region_id', 'tax_rate']).where('site_id', '=', t.site.id).orderBy('id').execute();

describe('tax groups', () => {
  it('lists stable default groups, by app id too, and refuses to change them', async () => {
    const defaults = await call(t.url, '/billing/v1/tax-groups/default-tax-groups', asOwner(t));
    expect(defaults.status).toBe(200);
    expect(defaults.body.taxGroups.map((g: { name: string }) => g.name)).toEqual(['Products', 'Services', 'Event tickets']);
    const products = defaults.body.taxGroups[0];
    expect(products.id).toBe('0f6f0e3c-44a1-4b0a-9d1e-3d8a4f2b7c01');
    const byApp = await call(t.url, '/billing/v1/tax-groups/list-default-tax-groups-by-app-ids', { ...asOwner(t), body: { appIds: [STORES, 'unknown-app'] } });
    expect(byApp.body).toEqual({
      results: [
        { taxGroupMetadata: { id: products.id, originalIndex: 0, success: true }, taxGroup: products },
        { taxGroupMetadata: { originalIndex: 1, success: false, error: { code: 'DEFAULT_TAX_GROUP_NOT_FOUND', description: 'No default tax group for app unknown-app', data: { appId: 'unknown-app' } } } },
      ],
      bulkActionMetadata: { totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 },
    });
    expect((await call(t.url, `/billing/v1/tax-groups/${products.id}`, asOwner(t))).body.taxGroup).toEqual(products);
    const change = await call(t.url, `/billing/v1/tax-groups/${products.id}`, { ...asOwner(t), method: 'PATCH', body: { taxGroup: { name: 'Mine', revision: '1' } } });
    expect(change.status).toBe(400);
    expect(change.body.details.applicationError.code).toBe('ILLEGAL_UPDATE_ON_SYSTEM_DEFINED_TAX_GROUP');
  });

  it('creates, renames, queries and deletes a group (its manual rates go with it), with events', async () => {
    const created = await call(t.url, '/billing/v1/tax-groups', { ...asOwner(t), body: { taxGroup: { name: 'Books' } } });
    expect(created.status).toBe(200);
    const g = created.body.taxGroup;
    expect(g).toMatchObject({ name: 'Books', revision: '1' });
    const renamed = await call(t.url, `/billing/v1/tax-groups/${g.id}`, { ...asOwner(t), method: 'PATCH', body: { taxGroup: { name: 'Printed books', revision: '1' } } });
    expect(renamed.body.taxGroup).toMatchObject({ name: 'Printed books', revision: '2' });
    const query = await call(t.url, '/billing/v1/tax-groups/query', { ...asOwner(t), body: { query: { filter: { name: 'Printed books' } } } });
    expect(query.body.taxGroups.map((x: { id: string }) => x.id)).toEqual([g.id]);
    expect(query.body.pagingMetadata).toMatchObject({ count: 1, hasNext: false });

    const region = (await call(t.url, '/billing/v1/tax-regions', { ...asOwner(t), body: { taxRegion: { country: 'DE' } } })).body.taxRegion;
    const rates = await call(t.url, `/billing/v1/tax-regions/${region.id}/manual-rates`, {
      ...asOwner(t), method: 'PUT', body: { manualRates: [{ taxRate: '0.19', taxName: 'MwSt' }, { taxGroupId: g.id, taxRate: '0.07', taxName: 'MwSt ermäßigt' }] },
    });
    expect(rates.status).toBe(200);
    expect(rates.body.manualRates.map((m: { taxGroupId: string | null; taxRate: string }) => [m.taxGroupId, m.taxRate])).toEqual([[null, '0.19'], [g.id, '0.07']]);

    expect((await call(t.url, `/billing/v1/tax-groups/${g.id}`, { ...asOwner(t), method: 'DELETE' })).status).toBe(200);
    const left = await call(t.url, `/billing/v1/tax-regions/${region.id}/manual-rates`, asOwner(t));
    expect(left.body.manualRates.map((m: { taxRate: string }) => m.taxRate)).toEqual(['0.19']);
    expect((await eventsOf(t, g.id)).map((e) => `${e.entityFqdn} ${e.slug}`)).toEqual(['wix.billing.v1.tax_group created', 'wix.billing.v1.tax_group updated', 'wix.billing.v1.tax_group deleted']);
  });
});

describe('tax regions', () => {
  it('creates one per place (ALREADY_EXISTS otherwise), updates with the revision, deletes', async () => {
    const created = await call(t.url, '/billing/v1/tax-regions', { ...asOwner(t), body: { taxRegion: { country: 'CA', subdivision: 'ON', taxIncludedInPrice: false } } });
    expect(created.status).toBe(200);
    const r = created.body.taxRegion;
    expect(r).toMatchObject({ country: 'CA', subdivision: 'CA-ON', appId: '', taxIncludedInPrice: false, revision: '1' });
    const again = await call(t.url, '/billing/v1/tax-regions', { ...asOwner(t), body: { taxRegion: { country: 'CA', subdivision: 'CA-ON' } } });
    expect(again.status).toBe(409);
    expect(again.body.details.applicationError.code).toBe('ALREADY_EXISTS');
    const wrongCountry = await call(t.url, '/billing/v1/tax-regions', { ...asOwner(t), body: { taxRegion: { country: 'CA', subdivision: 'US-NY' } } });
    expect(wrongCountry.body.details.applicationError.code).toBe('INVALID_SUBDIVISION_FORMAT');
    const calculator = await call(t.url, '/billing/v1/tax-regions', { ...asOwner(t), body: { taxRegion: { country: 'CA', appId: 'avalara' } } });
    expect(calculator.body.details.applicationError.code).toBe('CALCULATOR_ID_NOT_FOUND');

    const updated = await call(t.url, `/billing/v1/tax-regions/${r.id}`, { ...asOwner(t), method: 'PATCH', body: { taxRegion: { revision: '1', taxIncludedInPrice: true } } });
    expect(updated.body.taxRegion).toMatchObject({ subdivision: 'CA-ON', taxIncludedInPrice: true, revision: '2' });
    expect((await call(t.url, `/billing/v1/tax-regions/${r.id}`, { ...asOwner(t), method: 'DELETE' })).status).toBe(200);
    expect((await call(t.url, `/billing/v1/tax-regions/${r.id}`, asOwner(t))).body.details.applicationError.code).toBe('TAX_REGION_NOT_FOUND');
    expect((await eventsOf(t, r.id)).map((e) => e.slug)).toEqual(['created', 'updated', 'deleted']);
  });

  it('bulk-creates with per-item results; failed items do not stop the others', async () => {
    const res = await call(t.url, '/billing/v1/bulk/tax-regions/create', {
      ...asOwner(t), body: { returnEntity: true, taxRegions: [{ country: 'FR' }, { country: 'US' }, { country: 'FR' }, { country: 'IT', taxIncludedInPrice: true }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 2, undetailedFailures: 0 });
    expect(res.body.results.map((r: { itemMetadata: { success: boolean; error?: { code: string } } }) => r.itemMetadata.success ? 'ok' : r.itemMetadata.error!.code))
      .toEqual(['ok', 'ALREADY_EXISTS', 'ALREADY_EXISTS', 'ok']);
    expect(res.body.results[3].item).toMatchObject({ country: 'IT', taxIncludedInPrice: true });
    const tooMany = await call(t.url, '/billing/v1/bulk/tax-regions/create', { ...asOwner(t), body: { taxRegions: Array.from({ length: 101 }, () => ({ country: 'ES' })) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details.validationError.fieldViolations[0]).toMatchObject({ field: 'taxRegions', violatedRule: 'MAX_SIZE' });
  });

  it('refuses bad regions and bad manual rates, changing nothing', async () => {
    const regions = await regionRows();
    const rates = await rateRows();
    for (const taxRegion of [{}, { country: 'usa' }, { country: 'US', subdivision: 'California!' }, { country: 'US', extra: 1 }]) {
      const res = await call(t.url, '/billing/v1/tax-regions', { ...asOwner(t), body: { taxRegion } });
      expect(res.status, JSON.stringify(taxRegion)).toBe(400);
    }
    const us = (await call(t.url, '/billing/v1/tax-regions/query', { ...asOwner(t), body: { query: { filter: { country: 'US', subdivision: '' } } } })).body.taxRegions[0];
    const badRates: [unknown[], string][] = [
      [[{ taxRate: '1.5', taxName: 'Too much' }], 'manualRates[0].taxRate'],
      [[{ taxRate: 'abc', taxName: 'Text' }], 'manualRates[0].taxRate'],
      [[{ taxRate: '0.1', taxName: '' }], 'manualRates[0].taxName'],
      [[{ taxRate: '0.1', taxName: 'A' }, { taxRate: '0.2', taxName: 'B' }], 'manualRates[1]'],
      [[{ taxRate: '0.1', taxName: 'A', taxGroupId: '00000000-0000-4000-8000-000000000009' }], 'manualRates[0].taxGroupId'],
      [Array.from({ length: 51 }, (_, i) => ({ taxRate: '0.01', taxName: 'x', jurisdiction: `j${i}` })), 'manualRates'],
    ];
    for (const [manualRates, field] of badRates) {
      const res = await call(t.url, `/billing/v1/tax-regions/${us.id}/manual-rates`, { ...asOwner(t), method: 'PUT', body: { manualRates } });
      expect(res.status, JSON.stringify(manualRates).slice(0, 100)).toBe(400);
      expect(res.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field), JSON.stringify(res.body)).toContain(field);
    }
    expect(await regionRows()).toEqual(regions);
    expect(await rateRows()).toEqual(rates);
  });

  it('feeds loadPricingSetup: rates, tax-included regions and tax settings', async () => {
    const gb = (await call(t.url, '/billing/v1/tax-regions', { ...asOwner(t), body: { taxRegion: { country: 'GB', taxIncludedInPrice: true } } })).body.taxRegion;
    await call(t.url, `/billing/v1/tax-regions/${gb.id}/manual-rates`, { ...asOwner(t), method: 'PUT', body: { manualRates: [{ taxRate: '0.2', taxName: 'VAT', jurisdiction: 'GB', jurisdictionType: 'COUNTRY' }] } });
    const settings = await call(t.url, '/billing/v1/tax-settings', { ...asOwner(t), method: 'PATCH', body: { taxSettings: { taxableAddressType: 'BILLING', taxShipping: false } } });
    expect(settings.body.taxSettings).toMatchObject({ taxableAddressType: 'BILLING', taxShipping: false, businessAddress: { country: 'US' } });
    const setup = await loadPricingSetup(serviceContext(t), { now: new Date() });
    expect(setup.tax.taxableAddressType).toBe('BILLING');
    expect(setup.tax.taxShipping).toBe(false);
    expect(setup.tax.regions).toContainEqual({ id: gb.id, country: 'GB', subdivision: null, taxIncludedInPrice: true });
    expect(setup.tax.manualTaxMappings.filter((m) => m.taxRegionId === gb.id)).toEqual([
      { id: expect.any(String), taxRegionId: gb.id, taxGroupId: null, taxRate: '0.2', taxName: 'VAT', taxType: null, jurisdiction: 'GB', jurisdictionType: 'COUNTRY' },
    ]);
    expect(setup.roundingMode).toBe('HALF_UP');
    const bad = await call(t.url, '/billing/v1/tax-settings', { ...asOwner(t), method: 'PATCH', body: { taxSettings: { taxableAddressType: 'MOON' } } });
    expect(bad.status).toBe(400);
    const badRounding = await call(t.url, '/billing/v1/tax-settings', { ...asOwner(t), method: 'PATCH', body: { taxSettings: { roundingMode: 'DOWN' } } });
    expect([badRounding.status, badRounding.body.details.validationError.fieldViolations[0].field]).toEqual([400, 'taxSettings.roundingMode']);
    const even = await call(t.url, '/billing/v1/tax-settings', { ...asOwner(t), method: 'PATCH', body: { taxSettings: { roundingMode: 'HALF_EVEN' } } });
    expect(even.body.taxSettings).toMatchObject({ taxableAddressType: 'BILLING', taxShipping: false, roundingMode: 'HALF_EVEN' });
    expect((await loadPricingSetup(serviceContext(t), { now: new Date() })).roundingMode).toBe('HALF_EVEN');
  });

  it('refuses visitors and members', async () => {
    const regions = await regionRows();
    const visitor = (await visitorTokens(t)).accessToken;
    const member = (await memberWithToken(t, { loginEmail: 'tax-member@example.com' })).token;
    for (const auth of [visitor, member]) {
      expect((await call(t.url, '/billing/v1/tax-regions', { auth, siteId: t.site.id, body: { taxRegion: { country: 'NL' } } })).status).toBe(403);
      expect((await call(t.url, '/billing/v1/tax-groups', { auth, siteId: t.site.id, body: { taxGroup: { name: 'x' } } })).status).toBe(403);
      expect((await call(t.url, '/billing/v1/tax-regions/query', { auth, siteId: t.site.id, body: {} })).status).toBe(403);
    }
    expect(await regionRows()).toEqual(regions);
  });
});
