import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { ApiKeyStrategy, createClient, OAuthStrategy, VitrineError } from '../src/index.js';
import { checkoutSettings, coupons, discountRules, shippingRegions, taxGroups, taxRegions } from '../src/modules/ecom/index.js';

/** `@vitrine/sdk/ecom` pricing-rule modules against a real server (the demo site's seeded setup). */
let t: TestServer;
const modules = { discountRules, taxGroups, taxRegions, checkoutSettings, coupons, shippingRegions };
const admin = () => createClient({ modules, auth: ApiKeyStrategy({ apiKey: t.apiKey, siteId: t.site.id }), host: t.url });

beforeAll(async () => { t = await startTestServer(); });
afterAll(() => t?.close());

describe('ecom rules modules', () => {
  it('discount rules: dates decoded, query by name, update with the revision', async () => {
    const wix = admin();
    const start = new Date('2024-05-01T00:00:00.000Z');
    const rule = await wix.discountRules.createDiscountRule({
      name: 'SDK rule', activeTimeInfo: { start },
      discounts: { values: [{ targetType: 'GLOBAL', discountType: 'FIXED_AMOUNT', fixedAmount: '1.00' }] },
    });
    expect(rule._createdDate).toBeInstanceOf(Date);
    expect(rule.activeTimeInfo?.start).toEqual(start);
    expect(rule.status).toBe('LIVE');
    const page = await wix.discountRules.queryDiscountRules().eq('name', 'SDK rule').find();
    expect(page.items.map((r) => r._id)).toEqual([rule._id]);
    const updated = await wix.discountRules.updateDiscountRule(rule._id, { revision: rule.revision, active: false });
    expect(updated).toMatchObject({ active: false, status: 'EXPIRED', revision: '2' });
    await wix.discountRules.deleteDiscountRule(rule._id);
    await expect(wix.discountRules.getDiscountRule(rule._id)).rejects.toMatchObject({ code: 'DISCOUNT_RULE_NOT_FOUND', status: 404 });
  });

  it('tax regions with manual rates, tax settings, default groups', async () => {
    const wix = admin();
    const us = (await wix.taxRegions.queryTaxRegions().eq('country', 'US').find()).items[0]!;
    expect((await wix.taxRegions.getManualRates(us._id)).manualRates.map((m) => [m.taxName, m.taxRate])).toEqual([['Sales tax', '0.08']]);
    const rates = await wix.taxRegions.setManualRates(us._id, [{ taxRate: '0.06', taxName: 'State tax', jurisdiction: 'US', jurisdictionType: 'COUNTRY' }]);
    expect(rates.manualRates[0]).toMatchObject({ taxGroupId: null, taxRate: '0.06' });
    expect((await wix.taxRegions.getTaxSettings()).taxSettings.taxableAddressType).toBe('SHIPPING');
    const groups = await wix.taxGroups.listDefaultTaxGroups();
    expect(groups.taxGroups[0]).toMatchObject({ name: 'Products', _id: '0f6f0e3c-44a1-4b0a-9d1e-3d8a4f2b7c01' });
    const err = await wix.taxRegions.createTaxRegion({ country: 'US' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VitrineError);
    expect((err as VitrineError).code).toBe('ALREADY_EXISTS');
  });

  it('coupons and shipping regions (our extensions); visitors read checkout settings only', async () => {
    const wix = admin();
    const welcome = await wix.coupons.queryCoupons().eq('specification.code', 'WELCOME10').find();
    expect(welcome.items[0]?.specification).toMatchObject({ code: 'WELCOME10', percentOffRate: 10 });
    const created = await wix.coupons.createCoupon({ name: 'SDK', code: 'SDK5', startTime: '2024-01-01T00:00:00.000Z', moneyOffAmount: '5.00' });
    expect(created.coupon.displayData.discountDescription).toBe('5.00 USD off');
    const updated = await wix.coupons.updateCoupon(created._id, { usageLimit: 2 });
    expect(updated.coupon.specification.usageLimit).toBe(2);
    await wix.coupons.deleteCoupon(created._id);

    const regions = await wix.shippingRegions.listShippingRegions();
    expect(regions.shippingRegions.map((r) => r.name)).toEqual(['United States', 'International']);
    expect(regions.shippingRegions[0]!._createdDate).toBeInstanceOf(Date);

    const visitor = createClient({ modules, auth: OAuthStrategy({ clientId: t.clientId }), host: t.url });
    const settings = await visitor.checkoutSettings.getCheckoutSettings();
    expect(settings.checkoutSettings.checkoutBillingFields).toBe('ALL_BILLING_FIELDS');
    await expect(visitor.coupons.queryCoupons().find()).rejects.toMatchObject({ status: 403 });
  });
});
