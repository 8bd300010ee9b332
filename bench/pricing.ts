/**
 * Pricing engine throughput: `calculatePricing` on a 10-line cart with 6 discount rules (item, cart and
 * shipping targets, triggers), a coupon, a merchant discount, two tax rates with a group override,
 * weight-based and flat shipping and a fee; beside a same-run baseline, JSON.stringify of the same
 * cart input. Rounds of the two alternate so machine load hits both alike. Prints figures only.
 *
 *   npx tsx bench/pricing.ts [--seconds 5]
 */
import { calculatePricing, type PricingInput } from '../packages/server/src/domains/cart/pricing/index.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = Math.min(Math.max(arg('seconds', 5), 1), 60);
const ROUND_MS = 250;
const WARMUP_MS = 1000;

const APP = 'stores';
const scope = (...ids: string[]) => [{ type: 'CATALOG_ITEM' as const, catalogItemFilter: { catalogAppId: APP, catalogItemIds: ids } }];

const cart: PricingInput = {
  currency: 'USD',
  now: '2026-06-01T12:00:00Z',
  lineItems: Array.from({ length: 10 }, (_, i) => ({
    id: `line-${i}`,
    price: `${(i + 1) * 7}.${String((i * 37) % 100).padStart(2, '0')}`,
    quantity: 1 + (i % 3),
    itemType: i % 4 === 3 ? 'DIGITAL' as const : 'PHYSICAL' as const,
    catalogReference: { appId: APP, catalogItemId: `product-${i}` },
    taxGroupId: i % 5 === 0 ? 'reduced' : null,
    physicalProperties: { weight: 0.25 * (i + 1) },
  })),
  buyer: { memberId: 'member-1' },
  discountRules: [
    { id: 'r1', name: 'Shirts 20%', discounts: { values: [{ targetType: 'SPECIFIC_ITEMS', specificItemsInfo: { scopes: scope('product-1', 'product-2') }, discountType: 'PERCENTAGE', percentage: 20 }] } },
    { id: 'r2', name: 'Mugs 3 off each', discounts: { values: [{ targetType: 'SPECIFIC_ITEMS', specificItemsInfo: { scopes: scope('product-4') }, discountType: 'FIXED_AMOUNT', fixedAmount: '3.00' }] } },
    { id: 'r3', name: 'Over 100', trigger: { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '100.00' } }, discounts: { values: [{ targetType: 'GLOBAL', discountType: 'PERCENTAGE', percentage: 5 }] } },
    { id: 'r4', name: 'Bulk', trigger: { triggerType: 'AND', and: { triggers: [
      { triggerType: 'ITEM_QUANTITY_RANGE', itemQuantityRange: { from: 10 } },
      { triggerType: 'CUSTOMER_ELIGIBILITY', customerEligibility: { individualMembersInfo: { memberIds: ['member-1'] } } },
    ] } }, discounts: { values: [{ targetType: 'GLOBAL', discountType: 'FIXED_AMOUNT', fixedAmount: '10.00' }] } },
    { id: 'r5', name: 'Half shipping', discounts: { values: [{ targetType: 'SHIPPING', discountType: 'PERCENTAGE', percentage: 50 }] } },
    { id: 'r6', name: 'Expired', activeTimeInfo: { end: '2026-01-01T00:00:00Z' }, discounts: { values: [{ targetType: 'GLOBAL', discountType: 'PERCENTAGE', percentage: 50 }] } },
  ],
  coupon: { id: 'c1', code: 'WELCOME', name: 'Welcome', discount: { targetType: 'GLOBAL', discountType: 'FIXED_AMOUNT', fixedAmount: '5.00' }, minimumSubtotal: '50.00', remainingUses: 10 },
  merchantDiscounts: [{ percentage: 10, lineItemIds: ['line-7'] }],
  shippingAddress: { country: 'US', subdivision: 'CA' },
  tax: {
    regions: [{ id: 'us', country: 'US', taxIncludedInPrice: false }, { id: 'us-ca', country: 'US', subdivision: 'CA', taxIncludedInPrice: false }],
    manualTaxMappings: [
      { id: 'ca', taxRegionId: 'us-ca', taxGroupId: null, taxRate: '0.06', taxName: 'State', jurisdiction: 'CA', jurisdictionType: 'STATE' },
      { id: 'la', taxRegionId: 'us-ca', taxGroupId: null, taxRate: '0.0125', taxName: 'County', jurisdiction: 'LA', jurisdictionType: 'COUNTY' },
      { id: 'ca-reduced', taxRegionId: 'us-ca', taxGroupId: 'reduced', taxRate: '0.02', taxName: 'Reduced', jurisdiction: 'CA', jurisdictionType: 'STATE' },
    ],
  },
  shipping: {
    selectedShippingOption: { code: 'ground' },
    regions: [{ id: 'us', name: 'US', destinations: [{ country: 'US' }], options: [
      { code: 'ground', title: 'Ground', rate: { type: 'BY_WEIGHT', ranges: [{ upTo: 5, price: '6.00' }, { upTo: 20, price: '12.00' }, { price: '25.00' }] }, deliveryWindow: { fromHours: 48, toHours: 120 } },
      { code: 'express', title: 'Express', rate: { type: 'FLAT', price: '19.00' }, freeOver: '500.00' },
      { code: 'pickup', title: 'Pickup', rate: { type: 'FREE' }, pickup: { address: { country: 'US', city: 'Los Angeles' }, pickupMethod: 'STORE_PICKUP' } },
    ] }],
  },
  additionalFees: [{ code: 'handling', name: 'Handling', price: '1.50' }],
};

/** Runs `fn` for `ms`, returning calls made and seconds taken. */
function run(fn: () => unknown, ms: number): { calls: number; seconds: number } {
  let calls = 0;
  let sink = 0;
  const start = performance.now();
  const end = start + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++) { const out = fn(); sink += out ? 1 : 0; calls++; }
  }
  if (sink < 0) console.log(sink);
  return { calls, seconds: (performance.now() - start) / 1000 };
}

const engine = () => calculatePricing(cart);
const baseline = () => JSON.stringify(cart);

const result = calculatePricing(cart);
console.log(`cart: 10 lines, total ${result.priceSummary.total.amount} ${result.currency}, ${result.appliedDiscounts.length} applied discounts, shipping ${result.priceSummary.shipping.amount}, tax ${result.priceSummary.tax.amount}`);
run(engine, WARMUP_MS / 2);
run(baseline, WARMUP_MS / 2);

const totals = { engine: { calls: 0, seconds: 0 }, baseline: { calls: 0, seconds: 0 } };
const rounds = Math.max(1, Math.round((SECONDS * 1000) / (2 * ROUND_MS)));
for (let r = 0; r < rounds; r++) {
  for (const [name, fn] of [['engine', engine], ['baseline', baseline]] as const) {
    const m = run(fn, ROUND_MS);
    totals[name].calls += m.calls;
    totals[name].seconds += m.seconds;
  }
}
const perSecond = (t: { calls: number; seconds: number }) => t.calls / t.seconds;
const e = perSecond(totals.engine);
const b = perSecond(totals.baseline);
console.log(`calculatePricing:          ${Math.round(e).toLocaleString('en')} calculations/s (${(1e6 / e).toFixed(1)} µs each)`);
console.log(`baseline JSON.stringify:   ${Math.round(b).toLocaleString('en')} calls/s (${(1e6 / b).toFixed(1)} µs each)`);
console.log(`ratio engine / baseline:   ${(e / b).toFixed(3)} (the engine costs ${(b / e).toFixed(1)}x a stringify of its input)`);
