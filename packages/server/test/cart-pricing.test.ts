/**
 * The pricing table over real HTTP: every rule is set up through the owner routes of the rules
 * sub-domain, the cart is filled through the cart routes, and estimate-totals must answer the exact
 * amounts worked out by hand in each case's comment. Rules are deleted after each case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOwner, call, startTestServer, type TestServer } from './harness.js';
import { as, CART, line, productV1, STORES_APP_ID, visitor } from './cart-support.js';
import { clearDemoPricing } from './cart-support.js';
import { createSite } from '../src/domains/sites/service.js';
import { createApiKey } from '../src/domains/identity/service.js';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); await clearDemoPricing(t); });
afterAll(() => t?.close());

type Json = Record<string, unknown>;
interface Rules {
  discountRules?: (ids: string[]) => Json[];
  coupon?: Json;
  taxRegions?: { country: string; subdivision?: string; included?: boolean; rates: { rate: string; name?: string; type?: string }[] }[];
  taxShipping?: boolean;
  /** The site's rounding of amounts at the currency's last decimal (tax settings). */
  roundingMode?: 'HALF_UP' | 'HALF_EVEN';
  shipping?: Json[];
}
interface Case {
  name: string;
  /** V1 products: unit price (and weight). */
  products: { price: number; weight?: number }[];
  /** [product index, quantity] */
  lines: [number, number][];
  rules?: Rules;
  couponCode?: string;
  /** Owner merchant discounts on the owner's own cart. */
  merchantDiscounts?: Json[];
  estimate?: Json;
  expect: { subtotal: string; discount: string; shipping: string; tax: string; total: string };
  check?: (body: Json) => void;
}

const T0 = '2020-01-01T00:00:00.000Z';
const CA = { country: 'US', subdivision: 'US-CA' };
const global = (v: Json) => ({ targetType: 'GLOBAL', ...v });
const pct = (percentage: number) => global({ discountType: 'PERCENTAGE', percentage });
const off = (fixedAmount: string) => global({ discountType: 'FIXED_AMOUNT', fixedAmount });
const item = (id: string, v: Json) => ({ targetType: 'SPECIFIC_ITEMS', specificItemsInfo: { scopes: [{ type: 'CATALOG_ITEM', catalogItemFilter: { catalogAppId: STORES_APP_ID, catalogItemIds: [id] } }] }, ...v });
const rule = (name: string, values: Json[], extra: Json = {}) => ({ name, active: true, discounts: { values }, ...extra });
const flat = (code: string, price: string, extra: Json = {}) => ({ code, title: code, rate: { type: 'FLAT', price }, ...extra });
const usShipping = (...options: Json[]) => ({ name: 'US', destinations: [{ country: 'US' }], options });
const tax = (rate: string, included = false, where = CA) => ({ ...where, included, rates: [{ rate }] });
const sum = (subtotal: string, discount: string, shipping: string, taxAmount: string, total: string) => ({ subtotal, discount, shipping, tax: taxAmount, total });

const CASES: Case[] = [
  { name: '1 one line, no rules', products: [{ price: 10 }], lines: [[0, 1]], expect: sum('10.00', '0.00', '0.00', '0.00', '10.00') },
  // 3 x 4.99 = 14.97
  { name: '2 quantity times unit price', products: [{ price: 4.99 }], lines: [[0, 3]], expect: sum('14.97', '0.00', '0.00', '0.00', '14.97') },
  // 2 x 12.50 + 7.25 = 32.25
  { name: '3 two products', products: [{ price: 12.5 }, { price: 7.25 }], lines: [[0, 2], [1, 1]], expect: sum('32.25', '0.00', '0.00', '0.00', '32.25') },
  // 10% of 50 = 5
  { name: '4 cart percentage', products: [{ price: 50 }], lines: [[0, 1]], rules: { discountRules: () => [rule('ten', [pct(10)])] }, expect: sum('50.00', '5.00', '0.00', '0.00', '45.00') },
  // 40 - 7.50
  { name: '5 cart fixed amount', products: [{ price: 20 }], lines: [[0, 2]], rules: { discountRules: () => [rule('seven fifty', [off('7.50')])] }, expect: sum('40.00', '7.50', '0.00', '0.00', '32.50') },
  // 10% of 100 = 10, then 10% of 90 = 9: stacked rules compound, 19
  { name: '6 two percentages compound', products: [{ price: 100 }], lines: [[0, 1]], rules: { discountRules: () => [rule('a', [pct(10)]), rule('b', [pct(10)])] }, expect: sum('100.00', '19.00', '0.00', '0.00', '81.00') },
  // percentage before fixed within a stage: 100 -> 90 -> 85 (fixed first would be 95 -> 85.50)
  { name: '7 percentage before fixed amount', products: [{ price: 100 }], lines: [[0, 1]], rules: { discountRules: () => [rule('fixed', [off('5.00')]), rule('pct', [pct(10)])] }, expect: sum('100.00', '15.00', '0.00', '0.00', '85.00') },
  // 20% of A (30) only = 6
  { name: '8 specific item percentage', products: [{ price: 30 }, { price: 20 }], lines: [[0, 1], [1, 1]], rules: { discountRules: (ids) => [rule('a only', [item(ids[0]!, { discountType: 'PERCENTAGE', percentage: 20 })])] }, expect: sum('50.00', '6.00', '0.00', '0.00', '44.00') },
  // item 50% of A 40 = 20; then cart 10% of (20 + 10) = 3; 23 in all
  { name: '9 item then cart', products: [{ price: 40 }, { price: 10 }], lines: [[0, 1], [1, 1]], rules: { discountRules: (ids) => [rule('cart', [pct(10)]), rule('item', [item(ids[0]!, { discountType: 'PERCENTAGE', percentage: 50 })])] }, expect: sum('50.00', '23.00', '0.00', '0.00', '27.00') },
  // 3 x 12 = 36 ends at 3 x 5 = 15: 21 off
  { name: '10 fixed price per unit', products: [{ price: 12 }], lines: [[0, 3]], rules: { discountRules: (ids) => [rule('five each', [item(ids[0]!, { discountType: 'FIXED_PRICE', fixedPrice: '5.00' })])] }, expect: sum('36.00', '21.00', '0.00', '0.00', '15.00') },
  // 15% of 9.99 = 1.4985 -> 1.50 (half up)
  { name: '11 percentage rounds half up', products: [{ price: 3.33 }], lines: [[0, 3]], rules: { discountRules: () => [rule('fifteen', [pct(15)])] }, expect: sum('9.99', '1.50', '0.00', '0.00', '8.49') },
  // trigger from 100 not met by 99.99
  { name: '12 subtotal trigger not met', products: [{ price: 99.99 }], lines: [[0, 1]], rules: { discountRules: () => [rule('over 100', [pct(10)], { trigger: { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '100.00' } } })] }, expect: sum('99.99', '0.00', '0.00', '0.00', '99.99') },
  // trigger from 100 met by 100 (inclusive): 10
  { name: '13 subtotal trigger met at the bound', products: [{ price: 50 }], lines: [[0, 2]], rules: { discountRules: () => [rule('over 100', [pct(10)], { trigger: { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '100.00' } } })] }, expect: sum('100.00', '10.00', '0.00', '0.00', '90.00') },
  // 3 units trigger 5 off: 30 - 5
  { name: '14 quantity trigger', products: [{ price: 10 }], lines: [[0, 3]], rules: { discountRules: () => [rule('three', [off('5.00')], { trigger: { triggerType: 'ITEM_QUANTITY_RANGE', itemQuantityRange: { from: 3 } } })] }, expect: sum('30.00', '5.00', '0.00', '0.00', '25.00') },
  { name: '15 inactive rule ignored', products: [{ price: 50 }], lines: [[0, 1]], rules: { discountRules: () => [rule('off', [pct(10)], { active: false })] }, expect: sum('50.00', '0.00', '0.00', '0.00', '50.00') },
  { name: '16 expired rule ignored', products: [{ price: 50 }], lines: [[0, 1]], rules: { discountRules: () => [rule('old', [pct(10)], { activeTimeInfo: { start: '2020-01-01T00:00:00.000Z', end: '2021-01-01T00:00:00.000Z' } })] }, expect: sum('50.00', '0.00', '0.00', '0.00', '50.00') },
  // coupon 5 off 30
  { name: '17 coupon amount', products: [{ price: 30 }], lines: [[0, 1]], rules: { coupon: { startTime: T0, name: 'Five', code: 'FIVE17', moneyOffAmount: '5.00' } }, couponCode: 'FIVE17', expect: sum('30.00', '5.00', '0.00', '0.00', '25.00'),
    check: (b) => expect((b.appliedDiscounts as Json[])[0]).toMatchObject({ discountType: 'GLOBAL', coupon: { code: 'FIVE17', amount: { amount: '5.00' } } }) },
  // rule 10% of 100 = 10, then coupon 20% of 90 = 18
  { name: '18 coupon after rules', products: [{ price: 100 }], lines: [[0, 1]], rules: { discountRules: () => [rule('ten', [pct(10)])], coupon: { startTime: T0, name: 'Twenty', code: 'TWENTY18', percentOffRate: 20 } }, couponCode: 'TWENTY18', expect: sum('100.00', '28.00', '0.00', '0.00', '72.00') },
  { name: '19 coupon minimum not met', products: [{ price: 40 }], lines: [[0, 1]], rules: { coupon: { startTime: T0, name: 'Min', code: 'MIN19', moneyOffAmount: '5.00', minimumSubtotal: '50.00' } }, couponCode: 'MIN19', expect: sum('40.00', '0.00', '0.00', '0.00', '40.00'),
    check: (b) => expect((b.calculationErrors as Json).couponCalculationError).toMatchObject({ applicationError: { code: 'COUPON_MINIMUM_SUBTOTAL_NOT_MET' } }) },
  // 8.25% of 19.99 = 1.649175 -> 1.65
  { name: '20 tax excluded', products: [{ price: 19.99 }], lines: [[0, 1]], rules: { taxRegions: [tax('0.0825')] }, estimate: { shippingAddress: CA }, expect: sum('19.99', '0.00', '0.00', '1.65', '21.64') },
  // 10% of 0.05 = 0.005 -> 0.01 on each line: rounded per line, 0.02 (not 0.01 on the sum)
  { name: '21 tax rounded per line', products: [{ price: 0.05 }, { price: 0.05 }], lines: [[0, 1], [1, 1]], rules: { taxRegions: [tax('0.10')] }, estimate: { shippingAddress: CA }, expect: sum('0.10', '0.00', '0.00', '0.02', '0.12') },
  // 20% included in 12.00: 12 x 0.2 / 1.2 = 2.00, total stays 12.00
  { name: '22 tax included', products: [{ price: 12 }], lines: [[0, 1]], rules: { taxRegions: [tax('0.20', true, { country: 'GB', subdivision: undefined } as never)] }, estimate: { shippingAddress: { country: 'GB' } }, expect: sum('12.00', '0.00', '0.00', '2.00', '12.00'),
    check: (b) => expect((b.taxSummary as Json).taxIncludedInPrice).toBe(true) },
  // 30 - 10% = 27; tax inside 27 at 20% = 4.50
  { name: '23 tax included after a discount', products: [{ price: 30 }], lines: [[0, 1]], rules: { discountRules: () => [rule('ten', [pct(10)])], taxRegions: [tax('0.20', true, { country: 'GB', subdivision: undefined } as never)] }, estimate: { shippingAddress: { country: 'GB' } }, expect: sum('30.00', '3.00', '0.00', '4.50', '27.00') },
  // NY 4% of 100 (the CA region is not the buyer's)
  { name: '24 multi-region: the address picks the region', products: [{ price: 100 }], lines: [[0, 1]], rules: { taxRegions: [tax('0.0725'), tax('0.04', false, { country: 'US', subdivision: 'US-NY' })] }, estimate: { shippingAddress: { country: 'US', subdivision: 'US-NY' } }, expect: sum('100.00', '0.00', '0.00', '4.00', '104.00') },
  // TX has no region of its own: the country-wide 5% of 20 = 1.00
  { name: '25 country-wide region as fallback', products: [{ price: 20 }], lines: [[0, 1]], rules: { taxRegions: [tax('0.05', false, { country: 'US' } as never), tax('0.08')] }, estimate: { shippingAddress: { country: 'US', subdivision: 'US-TX' } }, expect: sum('20.00', '0.00', '0.00', '1.00', '21.00') },
  // state 6% + county 1.5% = 7.5% of 40 = 3.00, split 2.40 / 0.60
  { name: '26 state and county rates', products: [{ price: 40 }], lines: [[0, 1]], rules: { taxRegions: [{ ...CA, rates: [{ rate: '0.06', name: 'State', type: 'STATE' }, { rate: '0.015', name: 'County', type: 'COUNTY' }] }] }, estimate: { shippingAddress: CA }, expect: sum('40.00', '0.00', '0.00', '3.00', '43.00'),
    check: (b) => expect(((b.taxSummary as Json).aggregatedTaxBreakdown as Json[]).map((x) => [x.taxName, (x.aggregatedTaxAmount as Json).amount]).sort()).toEqual([['County', '0.60'], ['State', '2.40']]) },
  { name: '27 flat shipping', products: [{ price: 25 }], lines: [[0, 1]], rules: { shipping: [usShipping(flat('STD', '5.99'))] }, estimate: { shippingAddress: CA }, expect: sum('25.00', '0.00', '5.99', '0.00', '30.99') },
  { name: '28 free shipping threshold not reached', products: [{ price: 49.99 }], lines: [[0, 1]], rules: { shipping: [usShipping(flat('STD', '5.00', { freeOver: '50.00' }))] }, estimate: { shippingAddress: CA }, expect: sum('49.99', '0.00', '5.00', '0.00', '54.99') },
  { name: '29 free shipping threshold reached', products: [{ price: 25 }], lines: [[0, 2]], rules: { shipping: [usShipping(flat('STD', '5.00', { freeOver: '50.00' }))] }, estimate: { shippingAddress: CA }, expect: sum('50.00', '0.00', '0.00', '0.00', '50.00') },
  // 55 - 10% = 49.50 is under the 50 threshold: shipping is charged
  { name: '30 free shipping judged after discounts', products: [{ price: 55 }], lines: [[0, 1]], rules: { discountRules: () => [rule('ten', [pct(10)])], shipping: [usShipping(flat('STD', '5.00', { freeOver: '50.00' }))] }, estimate: { shippingAddress: CA }, expect: sum('55.00', '5.50', '5.00', '0.00', '54.50') },
  // 10% of 50 + 10% of shipping 10 = 6.00
  { name: '31 shipping taxed at the lines\' rate', products: [{ price: 50 }], lines: [[0, 1]], rules: { taxRegions: [tax('0.10')], shipping: [usShipping(flat('STD', '10.00'))] }, estimate: { shippingAddress: CA }, expect: sum('50.00', '0.00', '10.00', '6.00', '66.00') },
  { name: '32 shipping not taxed when the site says so', products: [{ price: 50 }], lines: [[0, 1]], rules: { taxRegions: [tax('0.10')], taxShipping: false, shipping: [usShipping(flat('STD', '10.00'))] }, estimate: { shippingAddress: CA }, expect: sum('50.00', '0.00', '10.00', '5.00', '65.00') },
  { name: '33 calculateShipping false', products: [{ price: 25 }], lines: [[0, 1]], rules: { shipping: [usShipping(flat('STD', '5.00'))] }, estimate: { shippingAddress: CA, calculateShipping: false }, expect: sum('25.00', '0.00', '0.00', '0.00', '25.00') },
  { name: '34 calculateTax false', products: [{ price: 25 }], lines: [[0, 1]], rules: { taxRegions: [tax('0.10')] }, estimate: { shippingAddress: CA, calculateTax: false }, expect: sum('25.00', '0.00', '0.00', '0.00', '25.00') },
  { name: '35 the requested shipping option', products: [{ price: 20 }], lines: [[0, 1]], rules: { shipping: [usShipping(flat('STD', '5.00'), flat('EXP', '15.00', { deliveryWindow: { fromHours: 24, toHours: 48 } }))] }, estimate: { shippingAddress: CA, selectedShippingOption: { code: 'EXP' } }, expect: sum('20.00', '0.00', '15.00', '0.00', '35.00'),
    check: (b) => {
      const info = b.shippingInfo as { selectedCarrierServiceOption: Json & { logistics: { deliveryTimeSlot: { from: string; to: string } } }; carrierServiceOptions: { shippingOptions: Json[] }[] };
      expect(info.selectedCarrierServiceOption).toMatchObject({ code: 'EXP', requestedShippingOption: true });
      const slot = info.selectedCarrierServiceOption.logistics.deliveryTimeSlot;
      expect(Date.parse(slot.to) - Date.parse(slot.from)).toBe(24 * 3_600_000);
      expect(info.carrierServiceOptions[0]!.shippingOptions.map((o) => o.code)).toEqual(['STD', 'EXP']);
    } },
  // 2 x 2.5 kg = 5 kg: the "up to 10" range, 8.00
  { name: '36 shipping by weight', products: [{ price: 10, weight: 2.5 }], lines: [[0, 2]], rules: { shipping: [usShipping({ code: 'W', title: 'By weight', rate: { type: 'BY_WEIGHT', weightRanges: [{ upTo: 2, price: '4.00' }, { upTo: 10, price: '8.00' }] } })] }, estimate: { shippingAddress: CA }, expect: sum('20.00', '0.00', '8.00', '0.00', '28.00') },
  // owner's merchant discount 10 off 35
  { name: '37 merchant discount', products: [{ price: 35 }], lines: [[0, 1]], merchantDiscounts: [{ amount: '10.00' }], expect: sum('35.00', '10.00', '0.00', '0.00', '25.00') },
  // 5% of 0.10 = 0.005: half up gives 0.01
  { name: '38 an exact half rounds up', products: [{ price: 0.1 }], lines: [[0, 1]], rules: { taxRegions: [tax('0.05')] }, estimate: { shippingAddress: CA }, expect: sum('0.10', '0.00', '0.00', '0.01', '0.11') },
  // 30 - 5 fixed - coupon 10% of 25 = 2.50; tax 10% of 22.50 = 2.25; shipping 4 + tax 0.40
  // HALF_EVEN (banker's rounding) set for the site's currency: the same exact halves go to the even digit.
  // 5% of 0.10 = 0.005 -> 0.00 (HALF_UP, case 38: 0.01)
  { name: '40 half-even: an exact half goes down to the even cent', products: [{ price: 0.1 }], lines: [[0, 1]], rules: { roundingMode: 'HALF_EVEN', taxRegions: [tax('0.05')] }, estimate: { shippingAddress: CA }, expect: sum('0.10', '0.00', '0.00', '0.00', '0.10') },
  // 5% of 0.50 = 0.025 -> 0.02 (HALF_UP: 0.03)
  { name: '41 half-even: 0.025 tax rounds to 0.02', products: [{ price: 0.5 }], lines: [[0, 1]], rules: { roundingMode: 'HALF_EVEN', taxRegions: [tax('0.05')] }, estimate: { shippingAddress: CA }, expect: sum('0.50', '0.00', '0.00', '0.02', '0.52') },
  // 5% of 0.70 = 0.035 -> 0.04 (the odd cent goes up to the even one)
  { name: '42 half-even: 0.035 tax rounds to 0.04', products: [{ price: 0.7 }], lines: [[0, 1]], rules: { roundingMode: 'HALF_EVEN', taxRegions: [tax('0.05')] }, estimate: { shippingAddress: CA }, expect: sum('0.70', '0.00', '0.00', '0.04', '0.74') },
  // 50% of 0.05 = 0.025 off -> 0.02 (HALF_UP: 0.03)
  { name: '43 half-even: a percentage discount', products: [{ price: 0.05 }], lines: [[0, 1]], rules: { roundingMode: 'HALF_EVEN', discountRules: () => [rule('half', [pct(50)])] }, expect: sum('0.05', '0.02', '0.00', '0.00', '0.03') },
  { name: '39 rule, coupon, shipping and tax together', products: [{ price: 15 }], lines: [[0, 2]], rules: { discountRules: () => [rule('five', [off('5.00')])], coupon: { startTime: T0, name: 'Ten', code: 'TEN39', percentOffRate: 10 }, taxRegions: [tax('0.10')], shipping: [usShipping(flat('STD', '4.00'))] }, couponCode: 'TEN39', estimate: { shippingAddress: CA }, expect: sum('30.00', '7.50', '4.00', '2.65', '29.15') },
  // limited to one item: 50% of one unit of the 30.00 product only (not the two 20.00 units): 15
  { name: '40 coupon limited to one item', products: [{ price: 30 }, { price: 20 }], lines: [[0, 1], [1, 2]], rules: { coupon: { startTime: T0, name: 'One', code: 'ONE40', percentOffRate: 50, limitedToOneItem: true } }, couponCode: 'ONE40', expect: sum('70.00', '15.00', '0.00', '0.00', '55.00') },
  // limited to one item, 10 off: one 8.00 unit takes 8.00 (unlimited would be 10 off 24)
  { name: '41 coupon limited to one item caps at a unit', products: [{ price: 8 }], lines: [[0, 3]], rules: { coupon: { startTime: T0, name: 'Ten', code: 'TEN41', moneyOffAmount: '10.00', limitedToOneItem: true } }, couponCode: 'TEN41', expect: sum('24.00', '8.00', '0.00', '0.00', '16.00') },
];

async function setUp(owner: ReturnType<typeof as>, rules: Rules, ids: string[]): Promise<() => Promise<void>> {
  const undo: (() => Promise<unknown>)[] = [];
  const undoAll = async () => { for (const u of undo.reverse()) await u(); };
  try {
    await create(owner, rules, ids, undo);
  } catch (error) {
    await undoAll(); // a half-made setup must not leak into the next case
    throw error;
  }
  return undoAll;
}

async function create(owner: ReturnType<typeof as>, rules: Rules, ids: string[], undo: (() => Promise<unknown>)[]): Promise<void> {
  const ok = (res: { status: number; body: unknown }, what: string) => {
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  };
  for (const r of rules.discountRules?.(ids) ?? []) {
    const id = (ok(await owner.post('/ecom/v1/discount-rules', { discountRule: r }), 'rule').discountRule as Json).id as string;
    undo.push(() => owner.del(`/ecom/v1/discount-rules/${id}`));
  }
  if (rules.coupon) {
    const id = ok(await owner.post('/stores/v2/coupons', { specification: rules.coupon }), 'coupon').id as string;
    undo.push(() => owner.del(`/stores/v2/coupons/${id}`));
  }
  for (const tr of rules.taxRegions ?? []) {
    const region = { country: tr.country, ...(tr.subdivision ? { subdivision: tr.subdivision } : {}), taxIncludedInPrice: tr.included ?? false };
    const id = (ok(await owner.post('/billing/v1/tax-regions', { taxRegion: region }), 'tax region').taxRegion as Json).id as string;
    const manualRates = tr.rates.map((x) => ({ taxRate: x.rate, taxName: x.name ?? 'Tax', jurisdiction: x.name ?? tr.country, jurisdictionType: x.type ?? 'STATE' }));
    ok(await call(t.url, `/billing/v1/tax-regions/${id}/manual-rates`, { ...asOwner(t), method: 'PUT', body: { manualRates } }), 'manual rates');
    undo.push(() => owner.del(`/billing/v1/tax-regions/${id}`));
  }
  if (rules.roundingMode) {
    ok(await owner.patch('/billing/v1/tax-settings', { taxSettings: { roundingMode: rules.roundingMode } }), 'rounding');
    undo.push(() => owner.patch('/billing/v1/tax-settings', { taxSettings: { roundingMode: 'HALF_UP' } }));
  }
  if (rules.taxShipping !== undefined) {
    ok(await owner.patch('/billing/v1/tax-settings', { taxSettings: { taxShipping: rules.taxShipping } }), 'tax settings');
    undo.push(() => owner.patch('/billing/v1/tax-settings', { taxSettings: { taxShipping: true } }));
  }
  for (const s of rules.shipping ?? []) {
    const id = (ok(await owner.post('/ecom/v1/shipping-regions', { shippingRegion: s }), 'shipping').shippingRegion as Json).id as string;
    undo.push(() => owner.del(`/ecom/v1/shipping-regions/${id}`));
  }
}

describe('pricing table over HTTP', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const owner = as(t, 'owner');
    const products = [];
    for (const [i, p] of c.products.entries()) products.push(await productV1(t, { name: `${c.name} item ${i}`, price: p.price, ...(p.weight ? { weight: p.weight } : {}) }));
    const ids = products.map((p) => p.productId);
    const undo = await setUp(owner, c.rules ?? {}, ids);
    try {
      const buyer = c.merchantDiscounts ? owner : as(t, await visitor(t));
      if (c.merchantDiscounts) await owner.del(CART);
      const added = await buyer.post(`${CART}/add-to-cart`, { lineItems: c.lines.map(([i, q]) => line(ids[i]!, q)) });
      expect(added.status).toBe(200);
      if (c.couponCode || c.merchantDiscounts) {
        const patched = await buyer.patch(CART, { ...(c.couponCode ? { couponCode: c.couponCode } : {}), ...(c.merchantDiscounts ? { merchantDiscounts: c.merchantDiscounts } : {}) });
        expect(patched.status).toBe(200);
      }
      const res = await buyer.post(`${CART}/estimate-totals`, c.estimate ?? {});
      expect(res.status).toBe(200);
      const s = res.body.priceSummary;
      expect({ subtotal: s.subtotal.amount, discount: s.discount.amount, shipping: s.shipping.amount, tax: s.tax.amount, total: s.total.amount }).toEqual(c.expect);
      c.check?.(res.body);
    } finally {
      await undo();
    }
  });

  it('prices a JPY store in whole yen', async () => {
    const db = t.server.deps.storage.db;
    const site = await createSite(db, { slug: `yen-${Date.now()}`, name: 'Yen store', currency: 'JPY', status: 'ENABLED' });
    const { apiKey } = await createApiKey(db, { siteId: site.id, name: 'yen' });
    const yen = (path: string, body?: unknown, method?: string) => call(t.url, path, { auth: apiKey, siteId: site.id, ...(body !== undefined ? { body } : {}), ...(method ? { method } : {}) });
    const product = await yen('/stores/v1/products', { product: { name: 'Matcha', priceData: { price: 1250 } } });
    expect(product.status).toBe(200);
    await yen('/ecom/v1/discount-rules', { discountRule: rule('ten', [pct(10)]) });
    const region = await yen('/billing/v1/tax-regions', { taxRegion: { country: 'JP', taxIncludedInPrice: false } });
    await yen(`/billing/v1/tax-regions/${region.body.taxRegion.id}/manual-rates`, { manualRates: [{ taxRate: '0.08', taxName: 'Consumption tax', jurisdiction: 'JP', jurisdictionType: 'COUNTRY' }] }, 'PUT');
    await yen(`${CART}/add-to-cart`, { lineItems: [line(product.body.product.id, 3)] });
    // 3 x 1250 = 3750; 10% = 375; 8% of 3375 = 270; 3375 + 270 = 3645
    const res = await yen(`${CART}/estimate-totals`, { shippingAddress: { country: 'JP' } });
    expect(res.status).toBe(200);
    const s = res.body.priceSummary;
    expect([s.subtotal.amount, s.discount.amount, s.tax.amount, s.total.amount, res.body.currency]).toEqual(['3750', '375', '270', '3645', 'JPY']);
    expect(s.total.formattedAmount).toBe('¥3,645');
  });
});
