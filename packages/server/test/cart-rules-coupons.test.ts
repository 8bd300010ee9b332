import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApplicationError } from '../src/http/errors.js';
import { inTransaction } from '../src/storage/transaction.js';
import { getCheckoutSettings, loadPricingSetup, recordCouponUse } from '../src/domains/cart/rules/index.js';
import { calculatePricing } from '../src/domains/cart/pricing/index.js';
import { asOwner, call, startTestServer, visitorTokens, type TestServer } from './harness.js';
import { eventsOf, memberWithToken, serviceContext } from './member-tokens.js';

/**
 * Coupons, shipping regions and checkout settings over HTTP; the usage guard under concurrency; and
 * what loadPricingSetup hands the engine for the demo site (seeded on start) plus the owner's changes.
 */

const STORES = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(async () => { await t.close(); });

const spec = (over: Record<string, unknown> = {}) => ({ name: 'Five off', code: 'FIVEOFF', startTime: '2024-01-01T00:00:00Z', moneyOffAmount: '5.00', ...over });

async function couponRows(): Promise<{ code: string; number_of_usages: number }[]> {
  return t.server.deps.storage.db.selectFrom('coupons').select(['code', 'number_of_usages']).where('site_id', '=', t.site.id).orderBy('code').execute();
}

describe('coupons', () => {
  it('creates, reads, queries, updates and deletes; codes are unique regardless of case', async () => {
    const created = await call(t.url, '/stores/v2/coupons', { ...asOwner(t), body: { specification: spec({ minimumSubtotal: '20', usageLimit: 3 }) } });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect(created.body.coupon).toMatchObject({
      id, numberOfUsages: 0, expired: false,
      specification: { name: 'Five off', code: 'FIVEOFF', startTime: '2024-01-01T00:00:00.000Z', moneyOffAmount: '5.00', minimumSubtotal: '20', usageLimit: 3 },
      displayData: { name: 'Five off', code: 'FIVEOFF', discountDescription: '5.00 USD off' },
    });

    const duplicate = await call(t.url, '/stores/v2/coupons', { ...asOwner(t), body: { specification: spec({ code: 'fiveOFF' }) } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.details.applicationError.code).toBe('COUPON_CODE_ALREADY_EXISTS');

    const got = await call(t.url, `/stores/v2/coupons/${id}`, asOwner(t));
    expect(got.body.coupon).toEqual(created.body.coupon);

    const query = await call(t.url, '/stores/v2/coupons/query', { ...asOwner(t), body: { query: { filter: { 'specification.code': 'FIVEOFF' } } } });
    expect(query.status).toBe(200);
    expect(query.body.coupons.map((c: { id: string }) => c.id)).toEqual([id]);

    // A new discount kind replaces the old one; null clears the minimum.
    const updated = await call(t.url, `/stores/v2/coupons/${id}`, { ...asOwner(t), method: 'PATCH', body: { specification: { percentOffRate: 15, minimumSubtotal: null } } });
    expect(updated.status).toBe(200);
    expect(updated.body.coupon.specification).toEqual({ name: 'Five off', code: 'FIVEOFF', startTime: '2024-01-01T00:00:00.000Z', expirationTime: null, usageLimit: 3, percentOffRate: 15 });
    expect(updated.body.coupon.displayData.discountDescription).toBe('15% off');

    expect((await call(t.url, `/stores/v2/coupons/${id}`, { ...asOwner(t), method: 'DELETE' })).status).toBe(200);
    const gone = await call(t.url, `/stores/v2/coupons/${id}`, asOwner(t));
    expect(gone.status).toBe(404);
    expect(gone.body.details.applicationError.code).toBe('COUPON_NOT_FOUND');
  });

  it('refuses bad coupons and changes nothing', async () => {
    const before = await couponRows();
    const cases: [Record<string, unknown>, string][] = [
      [spec({ percentOffRate: 10 }), 'specification'],
      [spec({ moneyOffAmount: undefined }), 'specification'],
      [spec({ code: 'HAS SPACE' }), 'specification.code'],
      [spec({ code: 'X'.repeat(21) }), 'specification.code'],
      [spec({ moneyOffAmount: '1.001' }), 'specification.moneyOffAmount'],
      [spec({ usageLimit: 0 }), 'specification.usageLimit'],
      [spec({ expirationTime: '2023-01-01T00:00:00Z' }), 'specification.expirationTime'],
      [spec({ name: undefined }), 'specification.name'],
      [spec({ moneyOffAmount: undefined, fixedPriceAmount: '3.00' }), 'specification.scope.group'],
    ];
    for (const [body, field] of cases) {
      const res = await call(t.url, '/stores/v2/coupons', { ...asOwner(t), body: { specification: body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field), JSON.stringify(res.body)).toContain(field);
    }
    expect(await couponRows()).toEqual(before);
  });

  it('counts uses with a guard: 20 concurrent uses of a limit of 5 succeed exactly 5 times', async () => {
    const created = await call(t.url, '/stores/v2/coupons', { ...asOwner(t), body: { specification: spec({ code: 'LIMIT5', usageLimit: 5 }) } });
    const id = created.body.id;
    const ctx = serviceContext(t);
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => inTransaction(ctx.db, (trx) => recordCouponUse({ ...ctx, db: trx }, id))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(ApplicationError);
      expect((r.reason as ApplicationError).code).toBe('COUPON_USAGE_EXCEEDED');
    }
    const read = await call(t.url, `/stores/v2/coupons/${id}`, asOwner(t));
    expect(read.body.coupon).toMatchObject({ numberOfUsages: 5, expired: true });
    // A use inside a transaction that rolls back is not counted.
    const other = (await call(t.url, '/stores/v2/coupons', { ...asOwner(t), body: { specification: spec({ code: 'ROLLBACK' }) } })).body.id;
    await expect(inTransaction(ctx.db, async (trx) => { await recordCouponUse({ ...ctx, db: trx }, other); throw new Error('order failed'); })).rejects.toThrow('order failed');
    expect((await call(t.url, `/stores/v2/coupons/${other}`, asOwner(t))).body.coupon.numberOfUsages).toBe(0);
    await expect(recordCouponUse(ctx, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'COUPON_NOT_FOUND' });
  });

  it('refuses visitors and members', async () => {
    const before = await couponRows();
    const visitor = (await visitorTokens(t)).accessToken;
    const member = (await memberWithToken(t, { loginEmail: 'coupon-member@example.com' })).token;
    for (const auth of [visitor, member]) {
      expect((await call(t.url, '/stores/v2/coupons', { auth, siteId: t.site.id, body: { specification: spec({ code: 'NOPE' }) } })).status).toBe(403);
      expect((await call(t.url, '/stores/v2/coupons/query', { auth, siteId: t.site.id, body: {} })).status).toBe(403);
      expect((await call(t.url, '/ecom/v1/shipping-regions', { auth, siteId: t.site.id })).status).toBe(403);
      expect((await call(t.url, '/ecom/v1/checkout-settings', { auth, siteId: t.site.id, method: 'PATCH', body: { checkoutSettings: {} } })).status).toBe(403);
    }
    expect(await couponRows()).toEqual(before);
  });
});

describe('shipping regions', () => {
  const region = (over: Record<string, unknown> = {}) => ({
    name: 'Nordics',
    destinations: [{ country: 'SE', subdivisions: ['AB', 'SE-C'] }, { country: 'NO' }],
    options: [
      { code: 'post', title: 'Post', rate: { type: 'BY_WEIGHT', weightRanges: [{ upTo: 1, price: '4.00' }, { price: '9.00' }] }, deliveryWindow: { fromHours: 48, toHours: 96 } },
      { code: 'big', title: 'Big orders', rate: { type: 'BY_SUBTOTAL', subtotalRanges: [{ upTo: '100', price: '10.00' }, { price: '0' }] } },
    ],
    ...over,
  });

  it('lists regions made in the same millisecond in the order they were made', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.parse('2030-01-01T00:00:00.000Z'));
      const made: string[] = [];
      for (const [name, country] of [['Zeta', 'IS'], ['Alpha', 'FO'], ['Mu', 'GL']]) {
        const res = await call(t.url, '/ecom/v1/shipping-regions', { ...asOwner(t), body: { shippingRegion: region({ name, destinations: [{ country }] }) } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        made.push(res.body.shippingRegion.id);
      }
      const list = await call(t.url, '/ecom/v1/shipping-regions', asOwner(t));
      expect(list.body.shippingRegions.map((x: { name: string }) => x.name).slice(-3)).toEqual(['Zeta', 'Alpha', 'Mu']);
      for (const id of made) expect((await call(t.url, `/ecom/v1/shipping-regions/${id}`, { ...asOwner(t), method: 'DELETE' })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('creates, lists, updates with the revision and deletes', async () => {
    const created = await call(t.url, '/ecom/v1/shipping-regions', { ...asOwner(t), body: { shippingRegion: region() } });
    expect(created.status).toBe(200);
    const r = created.body.shippingRegion;
    expect(r).toMatchObject({ name: 'Nordics', revision: '1', destinations: [{ country: 'SE', subdivisions: ['SE-AB', 'SE-C'] }, { country: 'NO' }], options: region().options });
    const list = await call(t.url, '/ecom/v1/shipping-regions', asOwner(t));
    expect(list.body.shippingRegions.map((x: { name: string }) => x.name)).toEqual(['United States', 'International', 'Nordics']);
    const updated = await call(t.url, `/ecom/v1/shipping-regions/${r.id}`, { ...asOwner(t), method: 'PATCH', body: { shippingRegion: { revision: '1', name: 'Nordic countries' } } });
    expect(updated.body.shippingRegion).toMatchObject({ name: 'Nordic countries', revision: '2' });
    expect((await call(t.url, `/ecom/v1/shipping-regions/${r.id}`, { ...asOwner(t), method: 'DELETE' })).status).toBe(200);
    expect((await call(t.url, `/ecom/v1/shipping-regions/${r.id}`, asOwner(t))).status).toBe(404);
  });

  it('refuses regions the engine could not price, and stores nothing', async () => {
    const before = (await call(t.url, '/ecom/v1/shipping-regions', asOwner(t))).body.shippingRegions.length;
    const cases: [Record<string, unknown>, string][] = [
      [region({ destinations: [] }), 'shippingRegion.destinations'],
      [region({ destinations: [{ country: 'usa' }] }), 'shippingRegion.destinations[0].country'],
      [region({ destinations: [{ country: 'SE', subdivisions: ['NO-03'] }] }), 'shippingRegion.destinations[0].subdivisions[0]'],
      [region({ destinations: [{ country: 'NO' }, { country: 'SE' }, { country: 'NO', subdivisions: ['NO-03'] }] }), 'shippingRegion.destinations[2].country'],
      [region({ destinations: [{ country: 'SE', subdivisions: ['AB', 'C', 'SE-AB'] }] }), 'shippingRegion.destinations[0].subdivisions[2]'],
      [region({ options: [{ code: 'a', title: 'A', rate: { type: 'FLAT' } }] }), 'shippingRegion.options[0].rate.price'],
      [region({ options: [{ code: 'a', title: 'A', rate: { type: 'FREE', price: '1' } }] }), 'shippingRegion.options[0].rate.price'],
      [region({ options: [{ code: 'a', title: 'A', rate: { type: 'BY_WEIGHT', weightRanges: [{ upTo: 2, price: '1' }, { upTo: 1, price: '2' }] } }] }), 'shippingRegion.options[0].rate.ranges[1].upTo'],
      [region({ options: [{ code: 'a', title: 'A', rate: { type: 'FREE' } }, { code: 'a', title: 'B', rate: { type: 'FREE' } }] }), 'shippingRegion.options[1].code'],
      [region({ options: [{ code: 'a', title: 'A', rate: { type: 'FLAT', price: '1' }, deliveryWindow: { fromHours: 5, toHours: 2 } }] }), 'shippingRegion.options[0].deliveryWindow.toHours'],
    ];
    for (const [body, field] of cases) {
      const res = await call(t.url, '/ecom/v1/shipping-regions', { ...asOwner(t), body: { shippingRegion: body } });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field), JSON.stringify(res.body)).toContain(field);
    }
    expect((await call(t.url, '/ecom/v1/shipping-regions', asOwner(t))).body.shippingRegions.length).toBe(before);
  });

  it('gives each place to one region: a taken country or subdivision is a conflict, a subdivision beside its whole country is not', async () => {
    const owner = asOwner(t);
    const create = (name: string, destinations: unknown) => call(t.url, '/ecom/v1/shipping-regions', { ...owner, body: { shippingRegion: region({ name, destinations }) } });
    const before = (await call(t.url, '/ecom/v1/shipping-regions', owner)).body.shippingRegions;
    const us = before.find((r: { name: string }) => r.name === 'United States');
    // The demo's "United States" covers the whole country.
    const taken = await create('US again', [{ country: 'CH' }, { country: 'US' }]);
    expect([taken.status, taken.body.details.applicationError]).toEqual([409, {
      code: 'SHIPPING_DESTINATION_TAKEN', description: 'US already belongs to shipping region "United States"', data: { destination: 'US', shippingRegionId: us.id },
    }]);
    const california = await create('California', [{ country: 'US', subdivisions: ['CA'] }]);
    expect(california.status).toBe(200);
    const again = await create('West coast', [{ country: 'US', subdivisions: ['US-OR', 'US-CA'] }]);
    expect([again.status, again.body.details.applicationError.data]).toEqual([409, { destination: 'US-CA', shippingRegionId: california.body.shippingRegion.id }]);
    // An update into a taken place is refused too; its own destinations are not in its way.
    const alps = await create('Alps', [{ country: 'CH' }]);
    const id = alps.body.shippingRegion.id;
    const moved = await call(t.url, `/ecom/v1/shipping-regions/${id}`, { ...owner, method: 'PATCH', body: { shippingRegion: { revision: '1', destinations: [{ country: 'CH' }, { country: 'US', subdivisions: ['CA'] }] } } });
    expect([moved.status, moved.body.details.applicationError.code]).toEqual([409, 'SHIPPING_DESTINATION_TAKEN']);
    const kept = await call(t.url, `/ecom/v1/shipping-regions/${id}`, { ...owner, method: 'PATCH', body: { shippingRegion: { revision: '1', destinations: [{ country: 'CH' }, { country: 'LI' }] } } });
    expect([kept.status, kept.body.shippingRegion.destinations]).toEqual([200, [{ country: 'CH' }, { country: 'LI' }]]);
    // Concurrent creates of one place: exactly one region gets it.
    const racing = await Promise.all(Array.from({ length: 6 }, (_, i) => create(`Austria ${i}`, [{ country: 'AT' }])));
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const after = (await call(t.url, '/ecom/v1/shipping-regions', owner)).body.shippingRegions;
    expect(after.length).toBe(before.length + 3);
    for (const r of after.slice(before.length)) expect((await call(t.url, `/ecom/v1/shipping-regions/${r.id}`, { ...owner, method: 'DELETE' })).status).toBe(200);
  });
});

describe('checkout settings', () => {
  it('answers defaults, merges updates group by group, records an event, and is readable by visitors', async () => {
    const visitor = (await visitorTokens(t)).accessToken;
    const first = await call(t.url, '/ecom/v1/checkout-settings', { auth: visitor, siteId: t.site.id });
    expect(first.status).toBe(200);
    expect(first.body.checkoutSettings.checkoutFields.policyAgreementCheckbox).toEqual({ visible: true, checkedByDefault: false });
    const patch = { checkoutPolicies: { returnPolicy: { visible: true, content: '30 days.' } }, checkoutBrand: { header: { text: 'Vitrine' } } };
    const updated = await call(t.url, '/ecom/v1/checkout-settings', { ...asOwner(t), method: 'PATCH', body: { checkoutSettings: patch } });
    expect(updated.status).toBe(200);
    const s = updated.body.checkoutSettings;
    expect(s.checkoutPolicies.returnPolicy).toEqual({ visible: true, content: '30 days.' });
    expect(s.checkoutPolicies.privacyPolicy).toEqual({ visible: false, content: '' });
    expect(s.checkoutBrand.header).toMatchObject({ text: 'Vitrine', alignment: 'CENTER' });
    const again = await call(t.url, '/ecom/v1/checkout-settings', { auth: visitor, siteId: t.site.id });
    expect(again.body.checkoutSettings).toEqual(s);
    const stored = await getCheckoutSettings(serviceContext(t));
    expect(stored.checkoutPolicies.returnPolicy).toEqual({ visible: true, content: '30 days.' });
    expect((await eventsOf(t, t.site.id)).filter((e) => e.entityFqdn === 'wix.ecom.v1.checkout_settings').map((e) => e.slug)).toEqual(['updated']);

    const bad = await call(t.url, '/ecom/v1/checkout-settings', { ...asOwner(t), method: 'PATCH', body: { checkoutSettings: { checkoutPolicies: { returnPolicy: { content: 'x'.repeat(20_001) } } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.details.validationError.fieldViolations[0].field).toBe('checkoutSettings.checkoutPolicies.returnPolicy.content');
  });
});

describe('loadPricingSetup', () => {
  it('hands the engine the demo site\'s live rules, tax, shipping and the coupon by code (any case)', async () => {
    const ctx = serviceContext(t);
    const now = new Date();
    // A rule that is not live yet stays out.
    await call(t.url, '/ecom/v1/discount-rules', { ...asOwner(t), body: { discountRule: {
      name: 'Future', activeTimeInfo: { start: new Date(Date.now() + 86_400_000).toISOString() },
      discounts: { values: [{ targetType: 'GLOBAL', discountType: 'FIXED_AMOUNT', fixedAmount: '1' }] },
    } } });
    const setup = await loadPricingSetup(ctx, { couponCode: 'welcome10', now });
    expect(setup.currency).toBe('USD');
    expect(setup.roundingMode).toBe('HALF_UP');
    expect(setup.couponError).toBeNull();
    expect(setup.coupon).toMatchObject({ code: 'WELCOME10', name: 'Welcome 10% off', active: true, remainingUses: null, discount: { targetType: 'GLOBAL', discountType: 'PERCENTAGE', percentage: 10 } });
    expect(setup.discountRules.map((r) => r.name)).toEqual(['5% off orders of 100 or more']);
    expect(setup.tax.taxableAddressType).toBe('SHIPPING');
    expect(setup.tax.regions).toEqual([{ id: expect.any(String), country: 'US', subdivision: null, taxIncludedInPrice: false }]);
    expect(setup.tax.manualTaxMappings).toEqual([{
      id: expect.any(String), taxRegionId: setup.tax.regions[0]!.id, taxGroupId: null, taxRate: '0.08', taxName: 'Sales tax', taxType: null, jurisdiction: 'US', jurisdictionType: 'COUNTRY',
    }]);
    expect(setup.shippingRegions.map((r) => [r.name, r.options.map((o) => o.code)])).toEqual([['United States', ['standard', 'express', 'pickup']], ['International', ['international']]]);
    expect(setup.shippingRegions[0]!.options[0]).toEqual({ code: 'standard', title: 'Standard', rate: { type: 'FLAT', price: '5.00' }, freeOver: '50.00', deliveryWindow: { fromHours: 72, toHours: 120 }, deliveryTime: null, pickup: null });
    expect(setup.businessAddress).toMatchObject({ country: 'US', subdivision: 'US-NY' });
    expect(setup.additionalFees).toEqual([]);

    const missing = await loadPricingSetup(ctx, { couponCode: 'NOPE', now });
    expect(missing).toMatchObject({ coupon: null, couponError: 'NOT_FOUND' });

    // The engine prices a cart with it: 120.00 of goods, 5% rule (6.00), WELCOME10 (11.40), free standard shipping, 8% tax.
    const result = calculatePricing({
      currency: setup.currency, now: now.toISOString(), roundingMode: setup.roundingMode,
      lineItems: [{ id: 'a', quantity: 2, price: '60.00', itemType: 'PHYSICAL', catalogReference: { catalogItemId: 'p1', appId: STORES }, physicalProperties: { weight: 1, shippable: true } }],
      discountRules: setup.discountRules, coupon: setup.coupon, tax: setup.tax, businessAddress: setup.businessAddress,
      shippingAddress: { country: 'US', subdivision: 'US-CA' },
      shipping: { regions: setup.shippingRegions, selectedShippingOption: { code: 'standard' } },
    });
    expect(result.priceSummary).toEqual({
      subtotal: { amount: '120.00' }, discount: { amount: '17.40' }, shipping: { amount: '0.00' }, tax: { amount: '8.21' }, additionalFees: { amount: '0.00' }, total: { amount: '110.81' },
    });
  });
});
