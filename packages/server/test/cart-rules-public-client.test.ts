/**
 * The platform's public client (`@wix/sdk` + `@wix/ecom`) against our pricing rules, unchanged: its
 * hosts are routed to the test server by a fetch wrapper.
 */
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { checkoutSettings, discountRules, taxGroups, taxRegions } from '@wix/ecom';
import { usePublicClientServer } from './public-client.js';

const f = usePublicClientServer();
const admin = () => createClient({ modules: { discountRules, taxRegions, taxGroups, checkoutSettings }, auth: ApiKeyStrategy({ apiKey: f.t.apiKey, siteId: f.t.site.id }) });
const STORES = '215238eb-22a5-4c36-9e7b-e7c08025e04e';

describe('@wix/ecom discountRules', () => {
  it('creates, gets, updates, queries and deletes a rule', async () => {
    const wix = admin();
    const created = await wix.discountRules.createDiscountRule({
      name: 'Client rule',
      active: true,
      trigger: { triggerType: 'ITEM_QUANTITY_RANGE', itemQuantityRange: { from: 3, scopes: [{ type: 'CATALOG_ITEM', catalogItemFilter: { catalogAppId: STORES } }] } },
      discounts: { values: [{ targetType: 'SPECIFIC_ITEMS', specificItemsInfo: { scopes: [{ type: 'CATALOG_ITEM', catalogItemFilter: { catalogAppId: STORES } }] }, discountType: 'FIXED_AMOUNT', fixedAmount: '2.50' }] },
    });
    expect(created).toMatchObject({ name: 'Client rule', status: 'LIVE', revision: '1', usageCount: 0 });
    expect(created._createdDate).toBeInstanceOf(Date);
    const id = created._id!;
    expect((await wix.discountRules.getDiscountRule(id)).name).toBe('Client rule');
    const updated = await wix.discountRules.updateDiscountRule(id, { revision: created.revision!, name: 'Client rule 2' });
    expect(updated).toMatchObject({ _id: id, name: 'Client rule 2', revision: '2' });
    const found = await wix.discountRules.queryDiscountRules().eq('name', 'Client rule 2').find();
    expect(found.items.map((r) => r._id)).toEqual([id]);
    await wix.discountRules.deleteDiscountRule(id);
    const gone: unknown = await wix.discountRules.getDiscountRule(id).then(() => undefined, (e: unknown) => e);
    expect((gone as { details?: { applicationError?: { code?: string } } }).details?.applicationError?.code).toBe('DISCOUNT_RULE_NOT_FOUND');
  });
});

describe('@wix/ecom taxRegions, taxGroups, checkoutSettings', () => {
  it('creates regions one by one and in bulk, and queries them', async () => {
    const wix = admin();
    const created = await wix.taxRegions.createTaxRegion({ country: 'AU', taxIncludedInPrice: true });
    expect(created).toMatchObject({ country: 'AU', subdivision: '', taxIncludedInPrice: true, revision: '1' });
    const bulk = await wix.taxRegions.bulkCreateTaxRegion([{ country: 'NZ' }, { country: 'AU' }], { returnEntity: true });
    expect(bulk.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 1 });
    expect(bulk.results?.[1]?.itemMetadata?.error?.code).toBe('ALREADY_EXISTS');
    const page = await wix.taxRegions.queryTaxRegions().eq('country', 'AU').find();
    expect(page.items.map((r) => r._id)).toEqual([created._id]);
    const updated = await wix.taxRegions.updateTaxRegion(created._id!, { revision: '1', taxIncludedInPrice: false });
    expect(updated.taxIncludedInPrice).toBe(false);
    await wix.taxRegions.deleteTaxRegion(created._id!);
  });

  it('lists default tax groups and reads checkout settings', async () => {
    const wix = admin();
    const defaults = await wix.taxGroups.listDefaultTaxGroups();
    expect(defaults.taxGroups?.map((g) => g.name)).toEqual(['Products', 'Services', 'Event tickets']);
    const group = await wix.taxGroups.createTaxGroup({ name: 'Food' });
    const page = await wix.taxGroups.queryTaxGroups().eq('name', 'Food').find();
    expect(page.items.map((g) => g._id)).toEqual([group._id]);
    const settings = await wix.checkoutSettings.updateCheckoutSettings({ checkoutPolicies: { termsAndConditions: { visible: true, content: 'Be nice.' } } });
    expect(settings.checkoutSettings?.checkoutPolicies?.termsAndConditions).toEqual({ visible: true, content: 'Be nice.' });
    const read = await wix.checkoutSettings.getCheckoutSettings();
    expect(read.checkoutSettings?.checkoutPolicies?.termsAndConditions?.content).toBe('Be nice.');
  });
});
